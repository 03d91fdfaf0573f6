// Threads that run layer batches for the engine (its LayerExecutor), so one slice uses every core.
// The mesh is copied once into shared memory per slice; every thread reads it from there.
import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { SliceCancelled, SliceError, type EncodedBatchResult, type LayerBatch, type LayerExecutor, type LayerProgress } from '../engine/index.js';
import type { LayerWorkerReply, LayerWorkerRequest } from './layer-batch-port.js';
import { layerThreadFile } from './layer-thread-file.js';

function shared<T extends Float64Array | Uint32Array>(a: T): T {
  const sab = new SharedArrayBuffer(a.byteLength);
  const copy = (a instanceof Float64Array ? new Float64Array(sab) : new Uint32Array(sab)) as T;
  copy.set(a);
  return copy;
}

function rebuildError(r: Extract<LayerWorkerReply, { type: 'error' }>): Error {
  if (r.name === 'SliceError') return new SliceError(r.message, (r.code as SliceError['code']) ?? 'BAD_MODEL');
  if (r.name === 'SliceCancelled') return new SliceCancelled();
  const e = new Error(r.message);
  e.name = r.name;
  return e;
}

/**
 * Idle threads are kept only while they hold less than this in all: after the Stanford bunny two
 * threads hold about 143 MiB (heaps and WASM memory); a model many times its size would keep far
 * more, for nothing if the next task is small.
 */
export const KEEP_AT_MOST_BYTES = 512 * 1024 * 1024;

/**
 * Threads for one slice when nothing says otherwise (the CLI): one per 1.3 cores, at least one. A thread
 * slicing keeps about 1.3 cores busy, because V8 compiles and collects garbage for it on threads of its
 * own (the bunny on one thread: 4.2 s of CPU in 3.2 s); threads beyond that only share the cores out
 * and each warms up its own copy of the code. Measured on 2 cores: two threads sliced the bunny no
 * faster than one (3.0–3.3 s both) and a 2-million-triangle sphere 0.5 s slower (2.2–2.4 s against
 * 1.7–1.9 s). 2 cores give 1, 4 give 3, 8 give 6.
 */
export function threadsForOneSlice(cores = availableParallelism()): number {
  return Math.max(1, Math.floor(cores / 1.3));
}

export class LayerPool {
  private workers: Array<Worker | undefined> = [];
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | null = null;
  /** what each thread said it held after its last batch, bytes */
  private memory: number[] = [];
  /** the latest run: a cancelled run whose batches come back late must not idle a newer run's threads */
  private generation = 0;

  /**
   * `keepIdleMs`: how long the threads stay after a slice, for the next one. 0 (the default) ends
   * them as soon as their last batch is back: idle threads keep their heaps and geometry memory
   * (which never shrinks) while the caller writes the G-code and after, which is what a one-slice
   * process (the CLI) wants. A service keeps them: fresh threads cost their start (~0.15 s each)
   * and run cold code, about a quarter of the Stanford bunny's slice.
   */
  constructor(
    readonly size = threadsForOneSlice(),
    readonly keepIdleMs = 0,
    readonly keepAtMostBytes = KEEP_AT_MOST_BYTES,
  ) {
    this.executor = Object.assign(
      (batches: LayerBatch[], onLayer: LayerProgress, signal?: AbortSignal, onResult?: (r: EncodedBatchResult) => void) =>
        this.run(batches, onLayer, signal, onResult),
      { threads: size },
    );
  }

  /** the ids of the threads running now (kept idle ones included) */
  threadIds(): number[] {
    return this.workers.flatMap((w) => (w ? [w.threadId] : []));
  }

  private worker(i: number): Worker {
    let w = this.workers[i];
    if (!w) {
      w = new Worker(layerThreadFile());
      w.unref();
      this.workers[i] = w;
    }
    return w;
  }

  /** The engine's LayerExecutor: batches go to whichever thread is free. */
  readonly executor: LayerExecutor;

  private run(
    batches: LayerBatch[],
    onLayer: LayerProgress,
    signal?: AbortSignal,
    onResult?: (r: EncodedBatchResult) => void,
  ): Promise<EncodedBatchResult[]> {
    if (batches.length === 0) return Promise.resolve([]);
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const gen = ++this.generation;
    // the meshes go to shared memory once; the rest of a model (modifier role, density field, the
    // batch's share of the triangles) is small and goes as it is
    const meshes = batches[0].models.map((m) => ({ positions: shared(m.positions), indices: shared(m.indices) }));
    const queue = batches.map((b) => ({ ...b, models: b.models.map((m, i) => ({ ...m, ...meshes[i] })) }));
    const results: EncodedBatchResult[] = [];
    const threads = Math.min(this.size, queue.length);
    // set on a cancel: each thread stops its batch within a few layers and stays for the next slice
    const stop = new Int32Array(new SharedArrayBuffer(4));
    return new Promise((resolve, reject) => {
      let failed = false;
      let cancelled = false;
      let running = 0;
      const fail = (err: Error) => {
        if (failed) return;
        failed = true;
        // threads stuck in a batch are stopped; new ones start on the next slice
        this.terminate();
        reject(err);
      };
      // Not ended: a thread ended while it still loaded its code left the module files open for good
      // (a cancel soon after a slice started its threads)
      const onAbort = () => {
        if (failed) return;
        failed = cancelled = true;
        Atomics.store(stop, 0, 1);
        settleCancelled();
        reject(new SliceCancelled());
      };
      // once a cancelled run's batches are all back, its threads wait for the next run (unless one began)
      const settleCancelled = () => {
        if (running === 0 && gen === this.generation) this.idle();
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      const feed = (i: number) => {
        const batch = queue.shift();
        if (!batch) {
          if (running === 0 && !failed) {
            signal?.removeEventListener('abort', onAbort);
            this.idle();
            resolve(results);
          }
          return;
        }
        const id = this.nextId++;
        const w = this.worker(i);
        running++;
        const onMessage = (r: LayerWorkerReply) => {
          if (r.id !== id) return;
          if (r.type === 'layer') {
            if (!failed) onLayer(r.count);
            return;
          }
          w.off('message', onMessage);
          w.off('error', onError);
          running--;
          this.memory[i] = r.memoryBytes;
          if (cancelled) return settleCancelled();
          if (r.type === 'error') return fail(rebuildError(r));
          results.push(r.result);
          try {
            onResult?.(r.result);
          } catch (err) {
            return fail(err instanceof Error ? err : new Error(String(err)));
          }
          if (!failed) feed(i);
        };
        const onError = (err: Error) => {
          if (!cancelled) return fail(err);
          // a thread that broke on a cancelled batch: dropped, so that no later run posts to it
          w.off('message', onMessage);
          void w.terminate();
          if (this.workers[i] === w) this.workers[i] = undefined;
          this.memory[i] = 0;
          running--;
          settleCancelled();
        };
        w.on('message', onMessage);
        w.once('error', onError);
        w.postMessage({ id, batch, stop } satisfies LayerWorkerRequest);
      };
      for (let i = 0; i < threads; i++) feed(i);
    });
  }

  /** bytes the threads held after their last batches (JavaScript heaps and WASM memory) */
  heldBytes(): number {
    return this.memory.reduce((a, b) => a + (b ?? 0), 0);
  }

  /**
   * After a slice: the threads end now, or after keepIdleMs without another slice; at once, too,
   * when they hold more than keepAtMostBytes (a huge model's geometry memory never shrinks).
   */
  private idle(): void {
    if (this.keepIdleMs <= 0 || this.heldBytes() > this.keepAtMostBytes) return this.terminate();
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.terminate(), this.keepIdleMs);
    this.idleTimer.unref();
  }

  terminate(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    for (const w of this.workers) void w?.terminate();
    this.workers = [];
    this.memory = [];
  }
}
