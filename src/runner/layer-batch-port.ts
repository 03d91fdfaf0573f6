// What a layer-batch thread does: runs the engine on one batch of layers at a time and hands the
// packed plans back by transfer. Kept apart from the thread's entry file (layer-worker.ts) so that
// the slice bundle can carry it too: the CLI's bundled slice starts its layer threads from
// cli/layer-thread-entry.cts, which loads this from the bundle with its V8 code cache.
import { getHeapStatistics } from 'node:v8';
import type { MessagePort } from 'node:worker_threads';
import { geometryMemoryBytes, initGeometry, runLayerBatchEncoded, type LayerBatch } from '../engine/index.js';

/** stop: 1 in its first element when the slice is cancelled (shared memory, read between layers) */
export type LayerWorkerRequest = { id: number; batch: LayerBatch; stop: Int32Array };
export type LayerWorkerReply =
  /** count: layers done since the last report (a fraction: a layer's walls, fill and plan each count a part) */
  | { id: number; type: 'layer'; count: number }
  /** memoryBytes: what this thread holds now (its JavaScript heap and the geometry module's WASM memory) */
  | { id: number; type: 'done'; result: ReturnType<typeof runLayerBatchEncoded>; memoryBytes: number }
  | { id: number; type: 'error'; name: string; message: string; code?: string; memoryBytes: number };

/** Answers the LayerPool's batch requests on `port` (the thread's parentPort) for as long as the thread lives. */
export function serveLayerBatches(port: MessagePort): void {
  port.on('message', async ({ id, batch, stop }: LayerWorkerRequest) => {
    try {
      await initGeometry();
      // the engine looks at `aborted` between layers; the flag is set by the pool on another thread
      const signal = { get aborted() { return Atomics.load(stop, 0) === 1; } } as AbortSignal;
      let pending = 0;
      const result = runLayerBatchEncoded(batch, (layers) => {
        // report in small groups: a message per layer would cost more than it tells
        if ((pending += layers) >= 4) {
          port.postMessage({ id, type: 'layer', count: pending } satisfies LayerWorkerReply);
          pending = 0;
        }
      }, signal);
      if (pending > 0) port.postMessage({ id, type: 'layer', count: pending } satisfies LayerWorkerReply);
      const transfer = result.encoded.flatMap(({ ints, floats, layers }) => [ints.buffer as ArrayBuffer, floats.buffer as ArrayBuffer, layers.buffer as ArrayBuffer]);
      port.postMessage({ id, type: 'done', result, memoryBytes: heldBytes() } satisfies LayerWorkerReply, transfer);
    } catch (err) {
      const e = err instanceof Error ? err : new Error(String(err));
      port.postMessage({ id, type: 'error', name: e.name, message: e.message, code: (e as { code?: string }).code, memoryBytes: heldBytes() } satisfies LayerWorkerReply);
    }
  });
}

/** what this thread holds now: its JavaScript heap and the geometry module's WASM memory (which never shrinks) */
function heldBytes(): number {
  return getHeapStatistics().total_heap_size + geometryMemoryBytes();
}
