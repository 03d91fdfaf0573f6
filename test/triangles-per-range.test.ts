// A large mesh shared out among layer batches (src/engine/layers/triangles-per-range.ts): each batch
// gets exactly the triangles that meet its planes, and cuts the same sections from them as from the
// whole mesh.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { initGeometry } from '../src/engine/geom/clipper.js';
import { sliceMesh, trianglesPerRange } from '../src/engine/layers/index.js';
import { batchPlanes, splitLayers } from '../src/engine/batch.js';
import { parseModel } from '../src/engine/mesh/index.js';
import { box, merge, MODELS_DIR } from './mesh-fixtures.js';

const MM = 1000;

/** Triangles meeting some plane of zs[lo..hi), by the slicer's rule (zmin < z ≤ zmax), one by one. */
function bruteForce(positions: Float64Array, indices: Uint32Array, zs: number[], lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let t = 0; t < indices.length / 3; t++) {
    const z = [0, 1, 2].map((k) => positions[3 * indices[3 * t + k] + 2]);
    const zmin = Math.min(...z);
    const zmax = Math.max(...z);
    if (zs.slice(lo, hi).some((p) => zmin < p && p <= zmax)) out.push(t);
  }
  return out;
}

/** Layer ranges as the pipeline makes them: 16 batches, each with the skin layers around it. */
function rangesFor(layers: number): Array<[number, number]> {
  return splitLayers(layers, 16).map(([a, b]) => batchPlanes(a, b, layers, { topLayers: 4, bottomLayers: 4, infillDensity: 20 }));
}

function checkShares(positions: Float64Array, indices: Uint32Array, zs: number[]): void {
  const ranges = rangesFor(zs.length);
  const shares = trianglesPerRange(positions, indices, zs, ranges);
  assert.equal(shares.length, ranges.length);
  ranges.forEach(([lo, hi], k) => {
    assert.deepEqual(Array.from(shares[k]), bruteForce(positions, indices, zs, lo, hi), `range ${k} [${lo}, ${hi})`);
    const planes = zs.slice(lo, hi);
    assert.deepEqual(sliceMesh(positions, indices, planes, undefined, shares[k]), sliceMesh(positions, indices, planes), `sections of range ${k}`);
  });
}

test('stacked boxes: tall side triangles go to every range they span, short ones to theirs, flat ones to none', async () => {
  await initGeometry();
  // a 40 mm tower beside three 5 mm steps: side triangles from 5 to 40 mm tall; some vertices lie
  // exactly on planes (z = 0.1 mm is the first plane)
  const m = merge(box(0, 0, 0, 10 * MM, 10 * MM, 40 * MM), box(20 * MM, 0, 100, 30 * MM, 10 * MM, 5 * MM), box(20 * MM, 0, 10 * MM, 30 * MM, 10 * MM, 15 * MM), box(40 * MM, 0, 20 * MM, 50 * MM, 10 * MM, 30 * MM));
  const positions = Float64Array.from(m.positions);
  const indices = Uint32Array.from(m.indices);
  const zs: number[] = [];
  for (let z = 100; z < 40 * MM; z += 200) zs.push(z);
  const shares = trianglesPerRange(positions, indices, zs, rangesFor(zs.length));
  const span = (t: number) => {
    const z = [0, 1, 2].map((k) => positions[3 * indices[3 * t + k] + 2]);
    return [Math.min(...z), Math.max(...z)];
  };
  const all = Array.from({ length: indices.length / 3 }, (_, t) => t);
  const towerSides = all.filter((t) => span(t)[0] === 0 && span(t)[1] === 40 * MM);
  const flat = all.filter((t) => span(t)[0] === span(t)[1]);
  assert.equal(towerSides.length, 8);
  assert.equal(flat.length, 16); // tops and bottoms of the four boxes
  assert.equal(shares.length, 16);
  for (const s of shares) {
    for (const t of towerSides) assert.ok(s.includes(t), `tower side ${t} in every range`);
    for (const t of flat) assert.ok(!s.includes(t), `flat triangle ${t} in no range`);
  }
  checkShares(positions, indices, zs);
});

test('a raft below the model: planes at z −1 µm meet no triangle', () => {
  const m = box(0, 0, 0, 10 * MM, 10 * MM, 20 * MM);
  const positions = Float64Array.from(m.positions);
  const indices = Uint32Array.from(m.indices);
  const zs = [-1, -1, -1];
  for (let z = 100; z < 20 * MM; z += 200) zs.push(z);
  const shares = trianglesPerRange(positions, indices, zs, [[0, 3], [0, 10], [3, zs.length]]);
  assert.deepEqual(Array.from(shares[0]), []);
  assert.deepEqual(Array.from(shares[1]), bruteForce(positions, indices, zs, 0, 10));
  assert.deepEqual(Array.from(shares[2]), bruteForce(positions, indices, zs, 3, zs.length));
});

test('3DBenchy: every range gets exactly its triangles and cuts the same sections from them', { skip: !MODELS_DIR && 'no shared models' }, async () => {
  await initGeometry();
  const mesh = parseModel(new Uint8Array(readFileSync(path.join(MODELS_DIR!, '3dbenchy.stl'))), '3dbenchy.stl').mesh;
  let zmin = Infinity;
  for (let i = 2; i < mesh.positions.length; i += 3) zmin = Math.min(zmin, mesh.positions[i]);
  const positions = Float64Array.from(mesh.positions, (v, i) => (i % 3 === 2 ? v - zmin : v) * MM);
  const zs: number[] = [100];
  for (let z = 300; z < 48 * MM; z += 200) zs.push(z);
  checkShares(positions, mesh.indices, zs);
});
