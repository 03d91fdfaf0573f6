// ConcurrencyLimit: the throttle in front of the large-body parser and the workspace check threads.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConcurrencyLimit } from '../src/service/concurrency-limit.js';

test('at most max run at once, the rest start in order as others end, and a failure frees its place', async () => {
  const limit = new ConcurrencyLimit(2);
  let running = 0;
  let most = 0;
  const started: number[] = [];
  const job = (i: number) =>
    limit.run(async () => {
      started.push(i);
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 5 + (i % 3) * 5));
      running--;
      if (i === 1) throw new Error('job 1 failed');
      return i;
    });
  const results = await Promise.allSettled([0, 1, 2, 3, 4, 5].map(job));
  assert.equal(most, 2);
  assert.deepEqual(started, [0, 1, 2, 3, 4, 5]);
  assert.deepEqual(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message)), [0, 'job 1 failed', 2, 3, 4, 5]);
  // nothing is left holding a place
  assert.equal(await limit.run(async () => 'free'), 'free');
});
