// The CLI's slicing thread: parses the model and slices it, reporting progress to the main thread.
// The engine runs synchronously between its stages, so it runs here, off the main thread, which
// stays free to redraw the progress bar and to stop the slice the moment Ctrl-C arrives.
import { parentPort, workerData } from 'node:worker_threads';
import { slice, initGeometry, withReadWarnings } from '../engine/index.js';
import { parseModelParts, trianglesOf } from '../engine/mesh/index.js';
import type { SliceSettings } from '../engine/index.js';
import type { SliceJob, WorkerMessage } from './slice-thread.js';

const port = parentPort;
if (!port) throw new Error('slice-worker.js runs as a worker thread');

async function work(job: SliceJob): Promise<void> {
  const parsed = parseModelParts(new Uint8Array(job.bytes), job.name);
  await initGeometry();
  const result = await slice(parsed.parts, job.settings as SliceSettings, {
    onProgress: (fraction, stage) => port!.postMessage({ type: 'progress', fraction, stage } satisfies WorkerMessage),
  }).catch((err: unknown) => {
    throw withReadWarnings(err, parsed.warnings);
  });
  const output = result.output;
  // Hand the output over without a copy when it owns its whole buffer.
  const transferable = output.byteOffset === 0 && output.byteLength === output.buffer.byteLength;
  const msg: WorkerMessage = {
    type: 'done',
    output,
    format: result.format,
    stats: result.stats,
    triangles: trianglesOf(parsed.parts),
    parseWarnings: parsed.warnings,
  };
  port!.postMessage(msg, transferable ? [output.buffer as ArrayBuffer] : []);
}

work(workerData as SliceJob).catch((err: unknown) => {
  const e = err instanceof Error ? err : new Error(String(err));
  const msg: WorkerMessage = {
    type: 'error',
    name: e.name,
    message: e.message,
    code: (e as { code?: unknown }).code as string | undefined,
    stack: e.stack,
  };
  port.postMessage(msg);
});
