// The embedded runner's warm-up of its slicing threads, before it claims any task.
import type { Logger } from 'pino';
import type { Piscina } from 'piscina';

/** The warm-up takes about 0.5 s; far past that, something is wrong and the service starts without it. */
export const WARM_UP_LIMIT_MS = 30_000;

/**
 * Warms every worker: one warm-up job per worker, all at once (a worker runs one job at a time, so
 * each takes one; the job is the worker module's `warmUp` export, slice-worker.ts). A failure, or a
 * warm-up still running after `limitMs` (its thread is then replaced), is logged and the runner
 * starts anyway: the warm-up only saves time, and must never keep the service from starting.
 */
export async function warmUpPool(pool: Piscina<never, unknown>, workers: number, limitMs: number, log: Logger): Promise<void> {
  const t0 = performance.now();
  // no input, the ms it took back
  const warm = pool as unknown as Piscina<null, number>;
  // a timer of our own, not AbortSignal.timeout: Node 20 puts those signals in a FinalizationRegistry,
  // and a cleanup of such a registry still pending as the process ends is what spun Node 20.10 at
  // exit (cli/serve.ts); the service makes none it can do without
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new Error(`the warm-up took more than ${limitMs} ms`)), limitMs);
  try {
    await Promise.all(Array.from({ length: workers }, () => warm.run(null, { name: 'warmUp', signal: abort.signal })));
    log.info({ workers, ms: Math.round(performance.now() - t0) }, 'slicing workers warmed up');
  } catch (err) {
    log.warn({ err }, 'the warm-up slice failed; the first tasks run cold');
  } finally {
    clearTimeout(timer);
  }
}
