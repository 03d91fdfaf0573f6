// A point-cloud modifier must fully enclose each model it touches (interface P1). The service checks
// the boxes when the task starts; a modifier mesh that is not a box (here a prism whose box holds
// the cube, covering half of it) passed that silently and half the cube printed at the task's density.
// Now the task's warnings say where the model reaches outside its cloud.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { slice } from '../src/engine/pipeline.js';
import type { Mesh, ModelInput } from '../src/engine/types.js';
import { defaultSettings } from '../src/profiles/defaults.js';
import { box } from './mesh-fixtures.js';

const s = defaultSettings();
const meshOf = (m: { positions: number[]; indices: number[] }): Mesh => ({ positions: Float32Array.from(m.positions), indices: Uint32Array.from(m.indices) });
const cube: ModelInput = { name: 'cube', mesh: meshOf(box(0, 0, 0, 20, 20, 20)) };

/** A prism over the triangle (−1, −1), (21, −1), (−1, 21), z −1…21: its box holds the cube, it covers half. */
function prism(): Mesh {
  const p = [-1, -1, -1, 21, -1, -1, -1, 21, -1, -1, -1, 21, 21, -1, 21, -1, 21, 21];
  const i = [0, 2, 1, 3, 4, 5, 0, 1, 4, 0, 4, 3, 1, 2, 5, 1, 5, 4, 2, 0, 3, 2, 3, 5];
  return { positions: Float32Array.from(p), indices: Uint32Array.from(i) };
}

const cloud = (mesh: Mesh, field = true): ModelInput => {
  const m: ModelInput = { name: 'shore', role: 'modifier', modifier: { densityFactor: 0.2, priority: 1 }, mesh };
  if (field) m.densityField = { min: [-1, -1, -1], max: [21, 21, 21], nx: 2, ny: 2, nz: 1, density: Float32Array.from([5, 5, 5, 5]) };
  return m;
};

test('a point-cloud modifier that leaves part of a model out is reported, with the layers', async () => {
  const r = await slice([cube, cloud(prism())], s);
  const said = r.stats.warnings.filter((w) => /does not enclose/.test(w));
  assert.equal(said.length, 1, r.stats.warnings.join('; '));
  assert.match(
    said[0]!,
    /^point-cloud modifier 'shore' does not enclose all of model 'cube' on 100 layers between z 0\.20 and 20\.00 mm: there the model keeps the task's infill density \(a point-cloud modifier must fully enclose each model it touches\)$/,
  );
});

test('one that encloses the model, or a plain modifier covering part of it, says nothing', async () => {
  const enclosing = await slice([cube, cloud(meshOf(box(-1, -1, -1, 21, 21, 21)))], s);
  assert.deepEqual(enclosing.stats.warnings.filter((w) => /enclose/.test(w)), []);
  // the model's own surface as the modifier (a scan's cloud over the scan): coincident, enclosed
  const coincident = await slice([cube, cloud(meshOf(box(0, 0, 0, 20, 20, 20)))], s);
  assert.deepEqual(coincident.stats.warnings.filter((w) => /enclose/.test(w)), []);
  // a box modifier meant to change part of the model (no point cloud): as intended
  const partial = await slice([cube, cloud(prism(), false)], s);
  assert.deepEqual(partial.stats.warnings.filter((w) => /enclose/.test(w)), []);
});
