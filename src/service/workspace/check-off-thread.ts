// Parsing a large workspace takes about 1 s per 30 MB of JSON (3DBenchy: 1.0–1.7 s, measured): on
// the HTTP thread that would stall every other request, so files above a small size are checked on
// a short-lived worker thread. Small ones are checked inline (a thread costs ~50 ms to start).
import { Worker } from 'node:worker_threads';
import { checkWorkspace, type PointCloudEntry } from './check-workspace.js';
import type { CheckJob, CheckReply } from './check-worker.js';
import { readWorkspace } from './read-workspace.js';
import { ConcurrencyLimit } from '../concurrency-limit.js';

const INLINE_BELOW_BYTES = 1024 * 1024;
/** heap for the check thread: JSON of {X,Y,Z} objects takes ~15× its size in memory */
const CHECK_HEAP_MB = 2048;
/** at most this many check threads at once (each may need gigabytes); further task starts wait */
const checks = new ConcurrencyLimit(2);

/** Resolves with the warnings, or rejects with the error as plain data (`name`, `message`, `path`, …). */
export async function checkWorkspaceBytes(
  bytes: Uint8Array,
  fileName: string,
  clouds: PointCloudEntry[],
  filament: string | undefined,
): Promise<string[]> {
  if (bytes.byteLength < INLINE_BELOW_BYTES) {
    const ws = readWorkspace(bytes, fileName);
    return [...ws.warnings, ...checkWorkspace(ws, clouds, filament).warnings];
  }
  const job: CheckJob = { bytes, fileName, clouds };
  if (filament !== undefined) job.filament = filament;
  const reply = await checks.run(
    () =>
      new Promise<CheckReply>((resolve, reject) => {
        const worker = new Worker(new URL('./check-worker.js', import.meta.url), {
          workerData: job,
          resourceLimits: { maxOldGenerationSizeMb: CHECK_HEAP_MB },
        });
        worker.once('message', (m: CheckReply) => resolve(m));
        worker.once('error', reject);
        worker.once('exit', (code) => reject(new Error(`the workspace check stopped (exit ${code})`)));
      }),
  );
  if (reply.ok) return reply.warnings;
  throw Object.assign(new Error(reply.error.message), reply.error);
}
