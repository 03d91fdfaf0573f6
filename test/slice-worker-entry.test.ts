// A slicing thread whose worker module failed to load (files replaced in place by a deployment)
// loads it again for the next task instead of failing every task for the rest of its life.
import assert from 'node:assert/strict';
import { copyFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { removeDir, tempDir } from './api-helpers.js';

const dir = tempDir('entry');
after(() => removeDir(dir));

test('a worker module that failed to load is loaded again for the next task', async () => {
  copyFileSync(new URL('../src/runner/slice-worker-entry.cjs', import.meta.url), join(dir, 'slice-worker-entry.cjs'));
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');
  const entry = createRequire(import.meta.url)(join(dir, 'slice-worker-entry.cjs')) as { default: (job: unknown) => Promise<unknown> };
  // no slice-worker.js beside it yet (mid-deployment)
  await assert.rejects(entry.default({}), /Cannot find module|ERR_MODULE_NOT_FOUND/);
  // a broken one (half written)
  writeFileSync(join(dir, 'slice-worker.js'), 'export default async function (job) { return {');
  await assert.rejects(entry.default({}), SyntaxError);
  // whole again: the same thread takes tasks
  writeFileSync(join(dir, 'slice-worker.js'), 'export default async function (job) { return { ok: true, job } }\nexport async function warmUp() { return 1 }\n');
  assert.deepEqual(await entry.default({ n: 1 }), { ok: true, job: { n: 1 } });
  assert.deepEqual(await entry.default({ n: 2 }), { ok: true, job: { n: 2 } });
});
