// The runner's store watch (src/runner/store-watch.ts): a probe that hangs (an unreachable database
// host can hold a connect for minutes) counts as a no after its limit, and a cancel ends a retry wait
// at once even while a probe hangs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StoreWatch } from '../src/runner/store-watch.js';

const hanging = () => new Promise<boolean>(() => undefined);

test('a hanging probe is a no after its limit; a cancel ends the retry wait while one hangs', async () => {
  const watch = new StoreWatch(hanging, 50, 200);
  watch.sliceBroke();
  let t0 = performance.now();
  assert.equal(await watch.mayClaim(), false);
  const claimMs = performance.now() - t0;
  assert.ok(claimMs >= 150 && claimMs < 2000, `mayClaim answered after ${claimMs.toFixed(0)} ms`);

  const slow = new StoreWatch(hanging, 50, 60_000);
  const abort = new AbortController();
  setTimeout(() => abort.abort(), 100);
  t0 = performance.now();
  await slow.retryWait(10_000, abort.signal);
  const waitMs = performance.now() - t0;
  assert.ok(waitMs < 1000, `the cancelled wait ended after ${waitMs.toFixed(0)} ms`);
});

test('stores seen down that answer again end the wait early; stores that never were down do not', async () => {
  let up = false;
  const watch = new StoreWatch(async () => up, 20, 1000);
  setTimeout(() => (up = true), 150);
  let t0 = performance.now();
  await watch.retryWait(5000, new AbortController().signal);
  assert.ok(performance.now() - t0 < 1500, 'ended once the stores answered');
  assert.equal(await watch.mayClaim(), true);

  const fine = new StoreWatch(async () => true, 20, 1000);
  t0 = performance.now();
  await fine.retryWait(300, new AbortController().signal);
  assert.ok(performance.now() - t0 >= 280, 'a slice that broke with the stores up waits the whole delay');
});
