// The young generation of the threads `stratum slice` starts (src/cli/thread-heap.ts): under the
// launcher's 2 MiB semi-space, threads started after widenThreadYoungGeneration get
// THREAD_SEMI_SPACE_MB, and the thread that called it keeps its own. This is V8's behaviour the CLI
// relies on (it reads the flag when it sets up an isolate), checked on each Node the suite runs on.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { THREAD_SEMI_SPACE_MB } from '../src/cli/thread-heap.js';

const work = mkdtempSync(join(tmpdir(), 'stratum-thread-heap-'));
after(() => rmSync(work, { recursive: true, force: true }));

// New space after churning through short-lived pairs while keeping up to 300,000 of them (~20 MB):
// V8 grows it up to twice the semi-space limit.
const churn = `import { getHeapSpaceStatistics } from 'node:v8';
export function churn() {
  let keep = [];
  for (let i = 0; i < 3e6; i++) { keep.push([i, i + 1]); if (keep.length > 300000) keep = []; }
  return getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 2 ** 20;
}
`;
const thread = `import { parentPort } from 'node:worker_threads';
import { churn } from './churn.mjs';
parentPort.postMessage(churn());
`;
const probe = `import { Worker } from 'node:worker_threads';
import { widenThreadYoungGeneration } from ${JSON.stringify(new URL('../src/cli/thread-heap.js', import.meta.url).href)};
import { churn } from './churn.mjs';
const inThread = () => new Promise((resolve, reject) => {
  const w = new Worker(new URL('./thread.mjs', import.meta.url));
  w.once('error', reject);
  w.once('message', (m) => { resolve(m); void w.terminate(); });
});
const before = await inThread();
widenThreadYoungGeneration();
const after = await inThread();
console.log(JSON.stringify({ before, after, main: churn() }));
`;

test('threads started after widenThreadYoungGeneration get the wider young generation; the caller keeps its own', () => {
  writeFileSync(join(work, 'churn.mjs'), churn);
  writeFileSync(join(work, 'thread.mjs'), thread);
  writeFileSync(join(work, 'probe.mjs'), probe);
  const r = spawnSync(process.execPath, ['--max-semi-space-size=2', join(work, 'probe.mjs')], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  const { before, after, main } = JSON.parse(r.stdout) as { before: number; after: number; main: number };
  // Under a 2 MiB semi-space new space is at most 4 MiB nearly always, but V8 has let it reach
  // 6.25 MiB (the calling thread, once, in a CI run on Node 23 or later): the bounds below keep apart
  // what the flag decides, at most THREAD_SEMI_SPACE_MB under 2 MiB and over it under 8 MiB (13.75 to
  // 16 MiB in 40 runs on Node 26, 16 on Node 20 to 24).
  assert.ok(before <= THREAD_SEMI_SPACE_MB, `a thread under the 2 MiB flag: new space ${before} MiB`);
  assert.ok(after > THREAD_SEMI_SPACE_MB && after <= 2 * THREAD_SEMI_SPACE_MB, `a thread started after: new space ${after} MiB`);
  assert.ok(main <= THREAD_SEMI_SPACE_MB, `the calling thread: new space ${main} MiB`);
});
