// Long synchronous stages written as generators that yield now and then, so that the same code runs
// straight through on a worker thread (drain) and gives the event loop a turn on the main thread
// (runYielding), where a Ctrl-C handler can only run between two turns.
import { throwIfAborted } from './types.js';

/** How long a stage works on between two turns of the event loop, at most (ms, give or take a step). */
export const YIELD_AFTER_MS = 40;

/** Stage steps: yields between pieces of work, returns the stage's result. */
export type Steps<T> = Generator<void, T>;

/** Runs the steps to the end without stopping. */
export function drain<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** The steps, passing a yield on only when `everyMs` have gone by since the last one passed on. */
export function* paced<T>(steps: Steps<T>, everyMs: number): Steps<T> {
  let last = performance.now();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    const now = performance.now();
    if (now - last >= everyMs) {
      last = now;
      yield;
    }
  }
}

/** Runs the steps, giving the event loop a turn at each yield and stopping there when `signal` says so. */
export async function runYielding<T>(steps: Steps<T>, signal?: AbortSignal): Promise<T> {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await new Promise<void>((resolve) => setImmediate(resolve));
    throwIfAborted(signal);
  }
}
