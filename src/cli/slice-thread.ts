// Runs a slice on a worker thread (slice-worker.js) and gives back the engine's result.
// Aborting the signal terminates the thread at once: the engine computes synchronously between
// its stages, so an in-thread AbortSignal could only be seen after the whole slice.
import { Worker } from 'node:worker_threads';
import type { LayerExecutor } from '../engine/index.js';
import type { SliceResult, SliceSettings, SliceStats } from '../engine/index.js';

export interface SliceJob {
  /** the model file's bytes (transferred, not copied) */
  bytes: ArrayBuffer;
  name: string;
  settings: SliceSettings;
}

export type WorkerMessage =
  | { type: 'progress'; fraction: number; stage: string }
  | {
      type: 'done';
      output: Uint8Array;
      format: SliceResult['format'];
      stats: SliceStats;
      triangles: number;
      parseWarnings: string[];
    }
  | { type: 'error'; name: string; message: string; code?: string; stack?: string };

export interface SliceOpts {
  onProgress?: (fraction: number, stage: string) => void;
  signal?: AbortSignal;
  /** spreads layer batches over threads (in-process slicing only) */
  executor?: LayerExecutor;
  /**
   * leave the WASM tier at V8's default instead of choosing it from this model (wasm-tier.ts): a
   * batch of models shares the one compilation, and the optimised code pays off over several
   */
  keepWasmTier?: boolean;
}

export interface ThreadResult extends SliceResult {
  triangles: number;
  parseWarnings: string[];
}

/** An error from the thread, rebuilt with its name and code so the CLI reports it as the engine's. */
class ThreadError extends Error {
  constructor(
    name: string,
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = name;
  }
}

export function sliceOnThread(
  bytes: Uint8Array,
  name: string,
  settings: SliceSettings,
  opts: SliceOpts = {},
): Promise<ThreadResult> {
  // Transfer the file's memory when it is ours alone; otherwise copy the bytes once.
  const owned = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
  const buffer = owned ? (bytes.buffer as ArrayBuffer) : bytes.slice().buffer;
  const job: SliceJob = { bytes: buffer, name, settings };
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./slice-worker.js', import.meta.url), { workerData: job, transferList: [buffer] });
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      opts.signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      fn();
    };
    const onAbort = () => {
      const err = new Error('slice cancelled');
      err.name = 'SliceCancelled';
      finish(() => reject(err));
    };
    if (opts.signal?.aborted) return onAbort();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (msg: WorkerMessage) => {
      if (msg.type === 'progress') opts.onProgress?.(msg.fraction, msg.stage);
      else if (msg.type === 'done') {
        const { output, format, stats, triangles, parseWarnings } = msg;
        finish(() => resolve({ output, format, stats, triangles, parseWarnings }));
      } else {
        const err = new ThreadError(msg.name, msg.message, msg.code);
        if (msg.stack) err.stack = msg.stack;
        finish(() => reject(err));
      }
    });
    worker.on('error', (err) => finish(() => reject(err)));
    worker.on('exit', (code) => finish(() => reject(new Error(`the slicing thread stopped unexpectedly (exit ${code})`))));
  });
}
