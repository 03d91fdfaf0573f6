// Worker thread of the task-start check (see check-off-thread.ts): parses and checks one workspace
// and posts the warnings, or the error as plain data (classes do not cross threads).
import { parentPort, workerData } from 'node:worker_threads';
import { checkWorkspace, type PointCloudEntry } from './check-workspace.js';
import { readWorkspace } from './read-workspace.js';

export interface CheckJob {
  bytes: Uint8Array;
  fileName: string;
  clouds: PointCloudEntry[];
  filament?: string;
}

export type CheckReply =
  | { ok: true; warnings: string[] }
  | { ok: false; error: { name: string; message: string; path?: string; code?: string; suggestions?: string[]; key?: string } };

const job = workerData as CheckJob;
let reply: CheckReply;
try {
  const ws = readWorkspace(job.bytes, job.fileName);
  reply = { ok: true, warnings: [...ws.warnings, ...checkWorkspace(ws, job.clouds, job.filament).warnings] };
} catch (err) {
  const e = err as { name?: string; message?: string; path?: string; code?: string; suggestions?: string[]; key?: string };
  const error: Extract<CheckReply, { ok: false }>['error'] = { name: e?.name ?? 'Error', message: e?.message ?? String(err) };
  if (e?.path !== undefined) error.path = e.path;
  if (typeof e?.code === 'string') error.code = e.code;
  if (Array.isArray(e?.suggestions)) error.suggestions = e.suggestions;
  if (typeof e?.key === 'string') error.key = e.key;
  reply = { ok: false, error };
}
parentPort!.postMessage(reply);
