// Random combinations of settings, each within its documented range: the resolver refuses the ones
// that cannot print with a SettingsError naming a key, or the layout check (model or skirt off the
// bed) refuses them with a SliceError; everything else slices into G-code with finite numbers, a
// print time and filament. (The same run through the CLI, 400 combinations on nine shared models,
// found no crash, hang or NaN: see issue 2's notes.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveSettings, SettingsError } from '../src/profiles/index.js';
import { SETTINGS_SCHEMA } from '../src/profiles/settings-schema.js';
import { slice } from '../src/engine/pipeline.js';
import { SliceError } from '../src/engine/types.js';
import { box, merge, rng, squareTube } from './mesh-fixtures.js';

const models = [
  merge(squareTube(20, 8, 6), box(25, 0, 0, 27, 20, 4)), // a tube with a hole and a thin rib beside it
  merge(box(0, 0, 0, 12, 12, 3), box(3, 3, 3, 9, 9, 8), box(0, 0, 8, 12, 12, 9)), // a ledge and a bridge over air
].map((m, k) => ({ name: `m${k}`, mesh: { positions: Float32Array.from(m.positions), indices: Uint32Array.from(m.indices) } }));

/** A random value within the setting's range: its ends, or anywhere up to 20× its default. */
function valueFor(key: string, r: () => number): unknown {
  const s = SETTINGS_SCHEMA[key as keyof typeof SETTINGS_SCHEMA] as { type: string; min?: number; max?: number; values?: string[]; default: unknown };
  if (s.type === 'boolean') return r() < 0.5;
  if (s.type === 'enum') return s.values![Math.floor(r() * s.values!.length)];
  const lo = s.min!, hi = Math.min(s.max!, Math.max(lo, Math.abs(Number(s.default) || 1) * 20));
  const u = r();
  const v = u < 0.15 ? lo : u < 0.3 ? hi : lo + r() * (hi - lo);
  return s.type === 'integer' ? Math.round(v) : Math.round(v * 1000) / 1000;
}

test('random setting combinations are refused by name or slice into finite G-code', async () => {
  const keys = Object.keys(SETTINGS_SCHEMA).filter((k) => (SETTINGS_SCHEMA as Record<string, { type: string }>)[k].type !== 'string');
  const r = rng(2026);
  const seen = { sliced: 0, refused: 0, offBed: 0 };
  for (let run = 0; run < 120; run++) {
    const overrides: Record<string, unknown> = {};
    for (let k = 0, n = 2 + Math.floor(r() * 7); k < n; k++) {
      const key = keys[Math.floor(r() * keys.length)];
      overrides[key] = valueFor(key, r);
    }
    const what = JSON.stringify(overrides);
    let settings;
    try {
      settings = resolveSettings({ overrides }).settings;
    } catch (e) {
      assert.ok(e instanceof SettingsError && e.key.length > 0 && e.message.length > 0, `${what}: ${e}`);
      seen.refused++;
      continue;
    }
    const model = models[run % models.length];
    try {
      const out = await slice([model], settings);
      const text = new TextDecoder().decode(out.output);
      assert.doesNotMatch(text, /NaN|Infinity|undefined|null/, what);
      assert.ok(Number.isFinite(out.stats.printTimeS) && out.stats.printTimeS > 0, what);
      assert.ok(out.stats.filamentMm > 0 && out.stats.layerCount > 0, what);
      seen.sliced++;
    } catch (e) {
      assert.ok(e instanceof SliceError && /bed|build volume/.test(e.message), `${what}: ${e instanceof Error ? e.stack : e}`);
      seen.offBed++;
    }
  }
  // both outcomes occur, so the run checks something either way
  assert.ok(seen.sliced >= 40 && seen.refused >= 10, JSON.stringify(seen));
});
