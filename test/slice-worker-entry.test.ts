// A slicing thread whose worker module failed to load (files replaced in place by a deployment)
// loads it again for the next task instead of failing every task for the rest of its life.
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { removeDir, tempDir } from './api-helpers.js';

const dir = tempDir('entry');
after(() => removeDir(dir));

test('a worker module that failed to load is loaded again for the next task', async () => {
  copyFileSync(new URL('../src/runner/slice-worker-entry.cjs', import.meta.url), join(dir, 'slice-worker-entry.cjs'));
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');
  const entry = createRequire(import.meta.url)(join(dir, 'slice-worker-entry.cjs')) as { default: Promise<(job: unknown) => Promise<unknown>> };
  const run = await entry.default;
  // no slice-worker.js beside it yet (mid-deployment)
  await assert.rejects(run({}), /Cannot find module|ERR_MODULE_NOT_FOUND/);
  // a broken one (half written)
  writeFileSync(join(dir, 'slice-worker.js'), 'export default async function (job) { return {');
  await assert.rejects(run({}), SyntaxError);
  // whole again: the same thread takes tasks
  writeFileSync(join(dir, 'slice-worker.js'), 'export default async function (job) { return { ok: true, job } }\nexport async function warmUp() { return 1 }\n');
  assert.deepEqual(await run({ n: 1 }), { ok: true, job: { n: 1 } });
  assert.deepEqual(await run({ n: 2 }), { ok: true, job: { n: 2 } });
});

test('the worker module is loaded as the thread starts, before piscina is handed the task handler', async () => {
  // piscina awaits the export before it says the thread is ready: a cancel that ends the thread then
  // never finds it reading the module's files (their descriptors stayed open until the process ended)
  const here = join(dir, 'preload');
  mkdirSync(here);
  copyFileSync(new URL('../src/runner/slice-worker-entry.cjs', import.meta.url), join(here, 'slice-worker-entry.cjs'));
  writeFileSync(join(here, 'package.json'), '{"type":"module"}\n');
  const mark = join(here, 'loaded.mark');
  writeFileSync(join(here, 'slice-worker.js'), `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(mark)}, 'x');\nexport default async function (job) { return job }\nexport async function warmUp() { return 7 }\n`);
  const entry = createRequire(import.meta.url)(join(here, 'slice-worker-entry.cjs')) as { default: Promise<unknown>; warmUp: Promise<() => Promise<number>> };
  assert.equal(typeof (await entry.default), 'function');
  assert.ok(existsSync(mark), 'the module loaded before any task was given');
  assert.equal(await (await entry.warmUp)(), 7);
});
