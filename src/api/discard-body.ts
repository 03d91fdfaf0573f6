// After a request is refused before its whole body was read: the rest is read and thrown away, so
// that the client can finish sending and then read the answer. Closing a socket that still has
// unread data resets it, and clients then report a broken connection (`fetch failed: write EPIPE`)
// where they should have shown the refusal: 5 of 15 multipart uploads with a wrong file name here.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { ApiError } from '../service/errors.js';

/** At most this much more of a refused body is read (the client is told to close beyond it). */
export const DISCARD_LIMIT_BYTES = 8 * 1024 * 1024;
/** and for at most this long, ms */
export const DISCARD_LIMIT_MS = 5_000;

/**
 * Reads the rest of `raw` and throws it away (taking it from a parser it was piped into), up to
 * `limitBytes` or `limitMs`. True when the body was read to its end: the connection may then serve
 * the next request; false when it should be closed.
 */
export async function discardRestOfBody(raw: IncomingMessage, limitBytes = DISCARD_LIMIT_BYTES, limitMs = DISCARD_LIMIT_MS): Promise<boolean> {
  if (raw.complete) return true;
  if (raw.destroyed || raw.readableAborted) return false;
  const declared = Number(raw.headers['content-length']);
  if (Number.isFinite(declared) && declared - raw.socket.bytesRead > limitBytes) return false;
  raw.unpipe();
  return new Promise<boolean>((resolve) => {
    let read = 0;
    const done = (ended: boolean) => {
      clearTimeout(timer);
      raw.off('data', onData);
      raw.off('end', onEnd);
      raw.off('close', onClose);
      if (!ended) raw.pause();
      resolve(ended);
    };
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      if (read > limitBytes) done(false);
    };
    const onEnd = () => done(true);
    const onClose = () => done(raw.complete);
    const timer = setTimeout(() => done(false), limitMs);
    raw.on('data', onData);
    raw.once('end', onEnd);
    raw.once('close', onClose);
    raw.resume();
  });
}

/**
 * What an upload that failed answers: a client that went away gets "interrupted" (it hears nothing
 * anyway); any other refusal (the limit, the store down, a wrong name seen before the file) first has
 * the rest of the body read, so that the client can take the answer. Throws the error to answer.
 */
export async function refuseUpload(err: unknown, req: FastifyRequest, reply: FastifyReply): Promise<never> {
  // a body read to its end (the request is then destroyed too) was not interrupted: whatever failed
  // after it (the database refusing the record) is the service's, not the client's
  if (!(err instanceof ApiError) && !req.raw.complete && (req.raw.destroyed || req.raw.readableAborted)) {
    reply.header('connection', 'close');
    throw new ApiError('URE000', 'the upload was interrupted before the end of the body');
  }
  // a connection whose rest was not read is not reused
  if (!(await discardRestOfBody(req.raw))) reply.header('connection', 'close');
  throw err;
}
