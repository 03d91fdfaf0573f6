// A model too thin to print must fail the slice whatever the adhesion: the skirt, brim or raft alone
// is no print (a 0.1 mm needle gave a skirt-only G-code with exit 0, and a service task `finished`
// with 0.00 m). Through the CLI, a service task, and the engine (where one model of several printing
// nothing is a warning naming it).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { slice } from '../src/engine/pipeline.js';
import { SliceError, type ModelInput } from '../src/engine/types.js';
import { defaultSettings } from '../src/profiles/defaults.js';
import { binaryStl, box, soup, type TestMesh } from './mesh-fixtures.js';
import { STL_SETTINGS, STRATUM_BIN, call, startTestServer, upload, waitForStatus } from './api-helpers.js';

const work = mkdtempSync(join(tmpdir(), 'stratum-nothing-printed-'));
after(() => rmSync(work, { recursive: true, force: true }));

const NEEDLE = box(0, 0, 0, 0.1, 0.1, 30); // 0.1 × 0.1 × 30 mm
const THIN_WALL = box(0, 0, 0, 20, 0.05, 20); // 20 × 0.05 × 20 mm
const EMPTY_MESSAGE = /the model has no printable cross-section \(is it a closed solid, thick enough to print\?\)/;

const model = (name: string, m: TestMesh): ModelInput => ({ name, mesh: { positions: Float32Array.from(m.positions), indices: Uint32Array.from(m.indices) } });

test('CLI: a needle and a 0.05 mm wall fail with exit 1 and write nothing, with a skirt, a brim, a raft or none', () => {
  for (const [name, mesh] of [['needle.stl', NEEDLE], ['thin.stl', THIN_WALL]] as const) {
    const file = join(work, name);
    writeFileSync(file, binaryStl(soup(mesh)));
    for (const adhesion of ['skirt', 'brim', 'raft', 'none']) {
      const out = join(work, `${name}-${adhesion}.gcode`);
      const r = spawnSync(process.execPath, [STRATUM_BIN, 'slice', file, '-o', out, '--set', `adhesionType=${adhesion}`], { encoding: 'utf8', timeout: 60_000 });
      assert.equal(r.status, 1, `${name} with ${adhesion}: ${r.stderr}`);
      assert.match(r.stderr, new RegExp(`^stratum slice: error: ${EMPTY_MESSAGE.source}$`, 'm'));
      assert.equal(existsSync(out), false);
    }
  }
});

test('service: a task of a model too thin to print fails with SF000 and says why', async () => {
  const t = await startTestServer();
  try {
    const fileId = (await upload(t, 'STL', 'thin.stl', binaryStl(soup(THIN_WALL)))).body.fileId;
    const r = await call(t.url, '/v1/stl/tasks', { key: t.key, json: { files: [{ fileId, type: 'STL', fileName: 'thin.stl' }], settings: STL_SETTINGS } });
    assert.equal(r.status, 200, r.text);
    const task = await waitForStatus(t, 'stl', r.body.taskId, ['failed', 'finished'], 30_000);
    assert.equal(task.status, 'failed', JSON.stringify(task));
    assert.equal(task.error.errorCode, 'SF000');
    assert.match(task.error.message, EMPTY_MESSAGE);
    assert.equal(task.output, undefined);
  } finally {
    await t.close();
  }
});

test('engine: of several models, one that prints nothing is a warning naming it; all of them, an error', async () => {
  const s = defaultSettings();
  const cube = model('cube', box(0, 0, 0, 10, 10, 4));
  const needle = model('needle', box(20, 0, 0, 20.1, 0.1, 4));
  const r = await slice([cube, needle], s);
  assert.deepEqual(
    r.stats.warnings.filter((w) => /printable/.test(w)),
    ["model 'needle' has no printable cross-section (is it a closed solid, thick enough to print?): nothing of it is printed"],
  );
  const text = new TextDecoder().decode(r.output);
  assert.match(text, /;MESH:cube/);
  assert.doesNotMatch(text, /;MESH:needle/);
  await assert.rejects(
    slice([needle, model('needle 2', box(0, 0, 0, 0.1, 0.1, 4))], s),
    (e: unknown) => e instanceof SliceError && e.code === 'EMPTY' && /^none of the 2 models has a printable cross-section/.test(e.message),
  );
  // one model that prints: no warning
  assert.equal((await slice([cube], s)).stats.warnings.filter((w) => /printable/.test(w)).length, 0);
});
