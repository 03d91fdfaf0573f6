// The scripted stand-in worker (runner-fake-worker.ts) with a warm-up job that never ends: the
// runner must start without it (test/warm-up.test.ts). No tests in here.
export { default } from './runner-fake-worker.js';

export function warmUp(): Promise<number> {
  return new Promise(() => undefined);
}
