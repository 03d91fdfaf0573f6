// Horizontal faces on a slicing plane. With 0.2 mm layers the planes are at 0.1, 0.3, … 5.1, 5.3 mm,
// so a face drawn at 5.1 mm lies on one; a model file holds it as float32, a few nm above or below.
// Which side it fell on must not decide its layer: one rule for every such face.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { box, type TestMesh } from './mesh-fixtures.js';
import { sliceMeshes, type Extrusion } from './support-gcode.js';

/** Layer tops (mm) that extrude with their middle inside x0..x1 (bed mm; the 20 mm parts span 100..120). */
function layersIn(moves: Extrusion[], x0: number, x1: number): number[] {
  const zs = new Set<number>();
  for (const m of moves) {
    const x = (m.x0 + m.x1) / 2;
    const y = (m.y0 + m.y1) / 2;
    if (x >= x0 && x <= x1 && y >= 102 && y <= 118) zs.add(Math.round(m.z * 1000) / 1000);
  }
  return [...zs].sort((a, b) => a - b);
}

const top = (zs: number[]) => zs[zs.length - 1];

/** A 20 × 20 mm block up to s, its left half on up to 10 mm: the right half's top face is at s. */
const step = (s: number): TestMesh[] => [box(0, 0, 0, 20, 20, s), box(0, 0, 0, 10, 20, 10)];
/** A 0.2 mm plate from s to s + 0.2 on a 4 mm pillar. */
const plate = (s: number): TestMesh[] => [box(0, 0, 0, 4, 20, 10), box(0, 0, s, 20, 20, s + 0.2)];
/** A block up to s and a 2 mm lid from s + 0.2, joined by a 4 mm pillar: a 0.2 mm slot. */
const slot = (s: number): TestMesh[] => [box(0, 0, 0, 20, 20, s), box(0, 0, s, 4, 20, s + 0.2), box(0, 0, s + 0.2, 20, 20, s + 2.2)];

// float32(5.1) is 5.0999999 mm, float32(5.3) is 5.3000002 mm, float32(5.5) is exact
test('steps at 5.1 and 5.3 mm: both printed half a layer from the face, to the same side', async () => {
  const shift: number[] = [];
  for (const s of [5.1, 5.3]) {
    const { moves } = await sliceMeshes(step(s), {});
    shift.push(Math.round((top(layersIn(moves, 112, 118)) - s) * 1000));
  }
  assert.equal(Math.abs(shift[0]), 100, `step at 5.1: printed top ${shift[0]} µm from the face`);
  assert.deepEqual(shift, [shift[0], shift[0]], 'the same side for 5.1 and 5.3');
});

test('a 0.2 mm plate from a slicing plane is one layer, wherever float32 put its faces', async () => {
  for (const s of [5.1, 5.3]) {
    const { moves } = await sliceMeshes(plate(s), {});
    assert.equal(layersIn(moves, 108, 118).filter((z) => z > 4 && z < 7).length, 1, `plate from ${s} mm`);
  }
});

test('a 0.2 mm slot between slicing planes leaves one empty layer: not closed, not doubled', async () => {
  for (const s of [5.1, 5.3]) {
    const { moves } = await sliceMeshes(slot(s), {});
    const zs = layersIn(moves, 108, 118).filter((z) => z > 4 && z < 8);
    // µm without extrusion between consecutive printed layers (a layer is 200 µm)
    const empty = zs.slice(1).map((z, i) => Math.round((z - zs[i]) * 1000) - 200).filter((d) => d > 0);
    assert.deepEqual(empty, [200], `slot from ${s} mm: layers ${zs.join(' ')}`);
  }
});

test('a face on a plane with its corners a float32 step either side is whole on one layer', async () => {
  const parts = step(5.1);
  const { moves: flat } = await sliceMeshes(parts, {});
  // the step's far edge (x = 20) one float32 step higher than 5.1: a face tilted by 0.5 nm
  const up = new Float32Array([5.1]);
  const bits = new Uint32Array(up.buffer);
  bits[0]++;
  const p = parts[0].positions;
  for (let i = 0; i < p.length; i += 3) if (p[i] === 20 && p[i + 2] === 5.1) p[i + 2] = up[0];
  const { moves: tilted } = await sliceMeshes(parts, {});
  // the right half's top, in bands across it: all at the flat face's layer (not a strip a layer higher)
  const bands = [[110.6, 112], [112, 114], [114, 116], [116, 119.4]].map(([a, b]) => top(layersIn(tilted, a, b)));
  const flatTop = top(layersIn(flat, 112, 118));
  assert.deepEqual(bands, [flatTop, flatTop, flatTop, flatTop]);
});

// Half a layer off either way; above, as CuraEngine 4.13 and PrusaSlicer 2.5 print such faces.
test('a face on a plane belongs to the solid below it: tops print up to half a layer above, undersides from there', async () => {
  for (const s of [5.1, 5.3]) {
    const { moves } = await sliceMeshes(step(s), {});
    assert.equal(top(layersIn(moves, 112, 118)), Math.round((s + 0.1) * 10) / 10, `step at ${s} mm`);
    const { moves: p } = await sliceMeshes(plate(s), {});
    assert.deepEqual(layersIn(p, 108, 118).filter((z) => z > 4 && z < 7), [Math.round((s + 0.3) * 10) / 10], `plate from ${s} mm`);
  }
  // 0.25 mm layers: planes at 5.125 mm and 10.125 mm, exact in float32
  const l25 = { layerHeight: 0.25, firstLayerHeight: 0.25 };
  const { moves } = await sliceMeshes(step(5.125), l25);
  assert.equal(top(layersIn(moves, 112, 118)), 5.25);
  const { moves: b } = await sliceMeshes([box(0, 0, 0, 20, 20, 10.125)], l25);
  assert.equal(top(layersIn(b, 102, 118)), 10.25, 'the model top on the last plane: that layer prints');
});
