// A large mesh shared out among layer batches (src/engine/layers/triangles-per-range.ts): each batch
// gets exactly the triangles that meet its planes, and cuts the same sections from them as from the
// whole mesh, and the same as the whole job's sweep cuts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { initGeometry } from '../src/engine/geom/clipper.js';
import { sliceMesh, trianglesPerRange } from '../src/engine/layers/index.js';
import { batchPlanes, splitLayers } from '../src/engine/batch.js';
import { parseModel } from '../src/engine/mesh/index.js';
import { box, merge, MODELS_DIR, rng, signedVolume } from './mesh-fixtures.js';

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
  const whole = sliceMesh(positions, indices, zs);
  ranges.forEach(([lo, hi], k) => {
    assert.deepEqual(Array.from(shares[k]), bruteForce(positions, indices, zs, lo, hi), `range ${k} [${lo}, ${hi})`);
    const planes = zs.slice(lo, hi);
    const own = sliceMesh(positions, indices, planes, undefined, shares[k]);
    assert.deepEqual(own, sliceMesh(positions, indices, planes), `sections of range ${k}`);
    // and the whole sweep's, point for point: a batch's G-code must not depend on where it starts
    assert.deepEqual(own, whole.slice(lo, hi), `sections of range ${k} against the whole sweep's`);
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

test('boxes whose sides are fans: a range cuts the whole sweep\'s sections point for point, loops starting at the same points', async () => {
  await initGeometry();
  // Each side of a box is a fan around a point a third of the way up it: a plane above that point
  // crosses the fan's upper triangle (entering there) and its two side triangles (entering at the
  // bottom). A range's first plane takes them in at once, the whole sweep plane by plane; in a
  // shuffled order (as a scan's triangles come) the first by id is not the first to enter.
  const m = merge(fannedBox(0, 0, 0, 10 * MM, 10 * MM, 30 * MM), fannedBox(20 * MM, 0, 0, 26 * MM, 14 * MM, 24 * MM));
  assert.equal(signedVolume(m), (10 * 10 * 30 + 6 * 14 * 24) * MM ** 3);
  const random = rng(1); // (seed 7 happens to keep the orders alike)
  const order = Array.from({ length: m.indices.length / 3 }, (_, t) => t);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const indices = Uint32Array.from(order.flatMap((t) => m.indices.slice(3 * t, 3 * t + 3)));
  const zs: number[] = [];
  for (let z = 100; z < 30 * MM; z += 200) zs.push(z);
  checkShares(Float64Array.from(m.positions), indices, zs);
});

/** A box whose four sides are each four triangles around a point a third of the way up the side. */
function fannedBox(x0: number, y0: number, z0: number, x1: number, y1: number, z1: number): { positions: number[]; indices: number[] } {
  const b = box(x0, y0, z0, x1, y1, z1);
  const positions = [...b.positions];
  const indices = b.indices.slice(0, 12); // bottom and top
  const zc = z0 + (z1 - z0) / 3;
  // corners counter-clockwise seen from above; each side's quad from outside: a, b (bottom), b', a' (top)
  const ring = [0, 1, 3, 2];
  for (let k = 0; k < 4; k++) {
    const a = ring[k]!;
    const c = ring[(k + 1) % 4]!;
    const mid = positions.length / 3;
    positions.push((positions[3 * a]! + positions[3 * c]!) / 2, (positions[3 * a + 1]! + positions[3 * c + 1]!) / 2, zc);
    indices.push(a, c, mid, c, c + 4, mid, c + 4, a + 4, mid, a + 4, a, mid);
  }
  return { positions, indices };
}

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
