// Legacy bodies carry whole workspaces inline (`file.WsConfigs`, `configfile.WsConfigs`): tens of MB
// of JSON. Parsed on the HTTP thread, they stall every other request (a 93 MB body: /healthz waited
// up to 4.6 s), so a body over LARGE_BODY_BYTES is parsed on a short-lived worker thread, which
// hands back only its small fields and one buffer of workspace text per workspace (light-body.ts).
// At most two such threads run at once (each may need gigabytes for a large body); the rest wait.
import { constants as bufferConstants } from 'node:buffer';
import { Worker } from 'node:worker_threads';
import { ApiError, type ErrorCode } from '../../service/errors.js';
import { ConcurrencyLimit } from '../../service/concurrency-limit.js';
import type { LargeBodyReply } from './large-body-worker.js';

export const LARGE_BODY_BYTES = 1024 * 1024;

/**
 * The body limit of a route whose JSON body may carry inline workspaces: an upload's, but never more
 * bytes than the longest string this Node holds (536,870,888 characters on Node 20). The body is read
 * as text; a longer one threw ERR_STRING_TOO_LONG inside fastify's stream handler, which nothing
 * catches, and the process died. A body of at most that many bytes decodes to at most that many
 * characters, so it always fits; a longer one is refused 413 before it is read.
 */
export function inlineBodyLimit(uploadLimit: number): number {
  return Math.min(uploadLimit, bufferConstants.MAX_STRING_LENGTH);
}
const parsers = new ConcurrencyLimit(2);
/** JSON of {X,Y,Z} objects takes ~15× its size in memory: the same allowance as the workspace check */
const PARSER_HEAP_MB = 2048;

/** Parses on a worker thread, two at a time; one whose client has gone (`gone`) by its turn is skipped. */
export function parseLargeBody(text: string, gone: () => boolean = () => false): Promise<unknown> {
  return parsers.run(async () => {
    if (gone()) throw new ApiError('URE000', 'the client went away before its body was read', undefined, 400);
    return unpack(await parseOnThread(text));
  });
}

function parseOnThread(text: string): Promise<LargeBodyReply> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./large-body-worker.js', import.meta.url), {
      workerData: text,
      resourceLimits: { maxOldGenerationSizeMb: PARSER_HEAP_MB },
    });
    worker.once('message', resolve);
    worker.once('error', (err: Error & { code?: string }) =>
      reject(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new ApiError('URE000', 'the request body is too large to read', undefined, 413) : err),
    );
    worker.once('exit', (code) => reject(new Error(`the body parser stopped (exit ${code})`)));
  });
}

function unpack(reply: LargeBodyReply): unknown {
  if (reply.ok) return reply.body;
  const e = reply.error;
  if (e.name === 'ApiError' && e.code) throw new ApiError(e.code as ErrorCode, e.message, undefined, e.httpStatus);
  if (e.name === 'SyntaxError') throw new SyntaxError(e.message);
  throw Object.assign(new Error(e.message), e.statusCode ? { statusCode: e.statusCode } : {});
}
