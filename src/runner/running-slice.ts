// One task's slice on the embedded runner: its progress as the runner last saw and saved it, and how
// it is stopped. A stop asks the slicing thread first, on the task's progress port; the thread is
// ended only if it has not answered within a grace period.
import { MessageChannel } from 'node:worker_threads';
import type { Piscina } from 'piscina';
import type { ProgressMessage, SliceJob, SliceJobResult, StopRequest } from './slice-job.js';

export type AbortReason = 'cancelled' | 'timeout' | 'shutdown' | 'lease-lost';

/** How long a slicing thread asked to stop may take before it is ended (the engine checks between layers). */
export const STOP_GRACE_MS = 2_000;

export class RunningSlice {
  /** aborted when the task is to stop: the runner's own waits for it end at once */
  readonly controller = new AbortController();
  /** aborted when the slicing thread is to be ended (piscina terminates it) */
  private readonly kill = new AbortController();
  /** asks the slicing thread to stop (set while the slice runs on the pool) */
  private askToStop: (() => void) | null = null;
  private killTimer: NodeJS.Timeout | null = null;
  abortReason: AbortReason | null = null;
  progress = 0;
  persistedProgress = 0;
  persistedAt = 0;
  /** progress writes in order, one at a time */
  persisting: Promise<unknown> = Promise.resolve();
  done: Promise<void> = Promise.resolve();

  constructor(readonly taskId: string) {}

  /**
   * The slice on the pool, with its progress channel: this end listens, the other goes to the worker
   * with the task, and a stop is asked for on it. Both ends are closed however the run ends (an
   * answer, an error, an abort), the second also when no thread ever took it (a run refused, or
   * aborted while queued).
   */
  async run(
    pool: Piscina<SliceJob, SliceJobResult> | null,
    job: Omit<SliceJob, 'progressPort' | 'stopFlag'>,
    onProgress: (m: ProgressMessage) => void,
  ): Promise<SliceJobResult> {
    const channel = new MessageChannel();
    try {
      channel.port1.on('message', onProgress);
      if (!pool) throw new Error('the runner is stopped');
      const stop: StopRequest = { stop: true };
      const stopFlag = new Int32Array(new SharedArrayBuffer(4));
      this.askToStop = () => {
        Atomics.store(stopFlag, 0, 1);
        channel.port1.postMessage(stop);
      };
      return await pool.run({ ...job, progressPort: channel.port2, stopFlag }, { transferList: [channel.port2], signal: this.kill.signal });
    } finally {
      this.askToStop = null;
      if (this.killTimer) clearTimeout(this.killTimer);
      channel.port1.close();
      channel.port2.close();
    }
  }

  /**
   * Stops the slice (once; false when it was already stopping). The slicing thread is asked first
   * and stops where the slice next yields, closing what it opened and staying warm for the next
   * task; one that has not answered within `graceMs` is ended (`onEnded` says so first). Ended at
   * once, a thread reading a file or loading code left those descriptors open for good.
   */
  stop(reason: AbortReason, graceMs: number, onEnded: () => void): boolean {
    if (this.abortReason) return false;
    this.abortReason = reason;
    this.controller.abort(new Error(reason));
    const end = () => this.kill.abort(new Error(reason));
    // at a shutdown the pool's threads end right after the grace anyway: asking would only delay it
    if (!this.askToStop || reason === 'shutdown') {
      end();
      return true;
    }
    this.askToStop();
    this.killTimer = setTimeout(() => {
      onEnded();
      end();
    }, graceMs);
    return true;
  }
}
