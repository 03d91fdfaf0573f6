// Worker thread of large-body.ts: parses one legacy request body and posts it back light (its
// workspaces as text, transferred), or the error as plain data (classes do not cross threads).
import { parentPort, workerData } from 'node:worker_threads';
import { lightBody } from './light-body.js';

export type LargeBodyReply =
  | { ok: true; body: unknown }
  | { ok: false; error: { name: string; message: string; code?: string; httpStatus?: number; statusCode?: number } };

let reply: LargeBodyReply;
let transfer: ArrayBuffer[] = [];
try {
  const light = lightBody(workerData as string);
  reply = { ok: true, body: light.body };
  transfer = light.buffers;
} catch (err) {
  const e = err as { name?: string; message?: string; code?: unknown; httpStatus?: unknown; statusCode?: unknown };
  const error: Extract<LargeBodyReply, { ok: false }>['error'] = { name: e?.name ?? 'Error', message: e?.message ?? String(err) };
  if (typeof e?.code === 'string') error.code = e.code;
  if (typeof e?.httpStatus === 'number') error.httpStatus = e.httpStatus;
  if (typeof e?.statusCode === 'number') error.statusCode = e.statusCode;
  reply = { ok: false, error };
}
parentPort!.postMessage(reply, transfer);
