// The G-code writer never writes NaN or Infinity, whatever it is given: a move of a subnormal length
// (a retraction of 1e-320 mm, which made 1 / length Infinity and the print-time estimate NaN) takes no
// time, and any non-finite number that still reaches the writer is an internal error, not G-code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultSettings } from '../src/profiles/defaults.js';
import { slice } from '../src/engine/pipeline.js';
import { simulate, limitsFromSettings, writeGcode } from '../src/engine/output/index.js';
import { NonFiniteOutputError } from '../src/engine/output/finite.js';
import type { LayerPlan, PlanOp } from '../src/engine/plan/types.js';
import { box } from './mesh-fixtures.js';

test('the engine, given a subnormal retraction without validation, still writes a finite estimate', async () => {
  const mesh = box(0, 0, 0, 10, 10, 2);
  const model = { name: 'box', mesh: { positions: Float32Array.from(mesh.positions), indices: Uint32Array.from(mesh.indices) } };
  const r = await slice([model], defaultSettings({ retractLength: 1e-320 }));
  const text = new TextDecoder().decode(r.output);
  assert.doesNotMatch(text, /NaN|Infinity|undefined/);
  assert.ok(Number.isFinite(r.stats.printTimeS) && r.stats.printTimeS > 0);
  assert.match(text, /^;TIME:\d+$/m);
  // the same print as with no retraction at all, to the second
  const none = await slice([model], defaultSettings({ retractLength: 0 }));
  assert.ok(Math.abs(r.stats.printTimeS - none.stats.printTimeS) < 1, `${r.stats.printTimeS} s against ${none.stats.printTimeS} s`);
});

test('the estimate: a move of a subnormal length takes no time', () => {
  const limits = limitsFromSettings(defaultSettings());
  const sim = simulate([{ dx: 10, dy: 0, feed: 50 }, { dx: 0, dy: 0, de: -1e-320, feed: 40 }, { dx: 0, dy: 10, feed: 50 }], limits);
  assert.ok(Number.isFinite(sim.totalS) && sim.totalS > 0, String(sim.totalS));
  assert.equal(sim.moveTimes[1], 0);
});

test('the writer throws an internal error rather than write NaN or Infinity', () => {
  const layer = (ops: PlanOp[]): LayerPlan[] => [{ index: 0, z: 200, height: 200, ops: [{ op: 'feature', type: 'WALL-OUTER', model: 0 }, ...ops] }];
  const meta = { modelNames: ['m'], generator: 'Stratum test' };
  const s = defaultSettings();
  const cases: PlanOp[][] = [
    [{ op: 'travel', x: NaN, y: 100000, speed: 150 }],
    [{ op: 'travel', x: 100000, y: 100000, speed: 150 }, { op: 'extrude', x: 110000, y: 100000, e: Infinity, speed: 20 }],
    [{ op: 'travel', x: 100000, y: 100000, speed: NaN }],
    [{ op: 'fan', percent: NaN }],
  ];
  for (const ops of cases) {
    assert.throws(() => writeGcode(layer(ops), s, meta), (e: unknown) => e instanceof NonFiniteOutputError && /^internal error: /.test(e.message), JSON.stringify(ops, (_, v) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v)));
  }
  // and a finite plan writes as before
  assert.doesNotThrow(() => writeGcode(layer([{ op: 'travel', x: 100000, y: 100000, speed: 150 }, { op: 'extrude', x: 110000, y: 100000, e: 0.3, speed: 20 }]), s, meta));
});
