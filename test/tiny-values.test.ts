// Numbers too close to 0 to mean anything (1e-7, a subnormal 1e-320): every numeric setting refuses
// them, through the validator the CLI, the API and the XML path share (a subnormal retractLength
// used to reach the G-code as `;TIME:Infinity` and `M73 PNaN RNaN`; finite-output.test.ts covers
// the writer's side).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SettingsError } from '../src/profiles/errors.js';
import { resolveSettings } from '../src/profiles/resolve.js';
import { validateOverrides, validateValue } from '../src/profiles/validate.js';
import { NUMBER_RESOLUTION, SETTING_KEYS, SETTINGS_SCHEMA } from '../src/profiles/settings-schema.js';
import { FILAMENTS } from '../src/profiles/filaments.js';
import { PRINTERS } from '../src/profiles/printers.js';
import { QUALITIES } from '../src/profiles/qualities.js';
import type { SettingSpec } from '../src/profiles/schema-types.js';
import { CUBE_STL, STL_SETTINGS, STRATUM_BIN, call, startTestServer, upload } from './api-helpers.js';

const work = mkdtempSync(join(tmpdir(), 'stratum-tiny-'));
after(() => rmSync(work, { recursive: true, force: true }));

const numeric = SETTING_KEYS.map((k) => SETTINGS_SCHEMA[k] as SettingSpec).filter(
  (s): s is SettingSpec & { type: 'number' | 'integer'; min: number; max: number } => s.type === 'number' || s.type === 'integer',
);

function refuses(key: string, value: unknown, fromText = false): SettingsError {
  try {
    validateValue(key, value, { fromText });
  } catch (e) {
    assert.ok(e instanceof SettingsError, String(e));
    assert.equal(e.code, 'BAD_VALUE');
    assert.equal(e.key, key);
    return e;
  }
  assert.fail(`${key} = ${String(value)} was accepted`);
}

test('every numeric setting refuses a non-zero value closer to 0 than the resolution, naming the key', () => {
  let tried = 0;
  for (const spec of numeric) {
    for (const v of [1e-320, 5e-324, 1e-7, NUMBER_RESOLUTION / 2, -1e-320]) {
      if (v < spec.min && v < 0) continue; // a negative value is refused as out of range anyway
      const e = refuses(spec.key, v);
      tried++;
      if (spec.type === 'number' && spec.min <= 0 && v >= 0) {
        // in the documented range, so the message says why (an integer setting is told it takes whole numbers)
        assert.match(e.message, new RegExp(`^${spec.key} must be 0 or (between|at least) ${NUMBER_RESOLUTION}\\b`), e.message);
        assert.match(e.message, new RegExp(`got ${String(v).replace(/[-+.]/g, '\\$&')}$`));
      }
    }
    // the XML path reads the same numbers from text, and refuses them the same way
    refuses(spec.key, '1e-320', true);
    if (spec.min <= 0) {
      assert.equal(validateValue(spec.key, 0), 0);
      if (spec.type === 'number') assert.equal(validateValue(spec.key, NUMBER_RESOLUTION), NUMBER_RESOLUTION);
    }
  }
  assert.ok(tried > 150, `${tried} values tried`);
  assert.equal(validateValue('skinAngle', -NUMBER_RESOLUTION), -NUMBER_RESOLUTION);
  // the finest real value: a fast Klipper machine's junction deviation
  assert.equal(validateValue('junctionDeviation', 0.0005), 0.0005);
  assert.match(refuses('skinAngle', -1e-320).message, /skinAngle must be 0 or at least 0\.000001 ° from 0, between -360 and 360 °/);
});

test('every preset combination still passes the validator', () => {
  for (const p of PRINTERS) {
    for (const f of FILAMENTS) {
      for (const q of QUALITIES) {
        const s = resolveSettings({ printer: p.name, filament: f.name, quality: q.name }).settings;
        assert.doesNotThrow(() => validateOverrides(s), `${p.name} / ${f.name} / ${q.name}`);
      }
    }
  }
});

test('CLI: --set retractLength=1e-320 fails with exit 1 naming the key, and writes nothing', () => {
  const out = join(work, 'rl.gcode');
  const r = spawnSync(process.execPath, [STRATUM_BIN, 'slice', CUBE_STL, '-o', out, '--set', 'retractLength=1e-320'], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stderr, /^stratum slice: error: retractLength must be 0 or between 0\.000001 and 20 mm .*got 1e-320$/m);
  assert.equal(existsSync(out), false);
});

test('API: an override of 1e-320 is refused with 400 URE000 naming the key', async () => {
  const t = await startTestServer();
  try {
    const fileId = (await upload(t, 'STL', 'cube.stl', readFileSync(CUBE_STL))).body.fileId;
    const r = await call(t.url, '/v1/stl/tasks', {
      key: t.key,
      // JSON.stringify writes 1e-320 as it is: the server's parser reads the subnormal back
      json: { files: [{ fileId, type: 'STL', fileName: 'cube.stl' }], settings: { ...STL_SETTINGS, overrides: { retractLength: 1e-320 } } },
    });
    assert.equal(r.status, 400, r.text);
    assert.equal(r.body.errorCode, 'URE000');
    assert.match(r.body.message, /retractLength must be 0 or between 0\.000001 and 20 mm/);
  } finally {
    await t.close();
  }
});
