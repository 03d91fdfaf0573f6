import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { initGeometry } from '../src/engine/geom/clipper.js';
import { sliceMesh, type SliceReport } from '../src/engine/layers/index.js';
import { simplifyLoop, SimplifyScratch } from '../src/engine/layers/simplify-loop.js';
import { parseModel, meshBounds } from '../src/engine/mesh/index.js';
import type { Mesh, Paths } from '../src/engine/types.js';
import { box, squareTube, merge, signedVolume, area, MODELS_DIR, type TestMesh } from './mesh-fixtures.js';

const MM = 1000;
const slice = (m: TestMesh, zs: number[], report?: SliceReport) =>
  sliceMesh(Float64Array.from(m.positions), Uint32Array.from(m.indices), zs, report);
const totalArea = (ps: Paths) => ps.reduce((s, p) => s + area(p), 0);
const cube = box(0, 0, 0, 20 * MM, 20 * MM, 20 * MM);

/** A placed mesh (µm, centred at 110, 110 mm, on z = 0) and the middle of each 0.2 mm layer. */
function placed(mesh: Mesh): { positions: Float64Array; zs: number[] } {
  const b = meshBounds(mesh);
  const positions = new Float64Array(mesh.positions.length);
  for (let i = 0; i < positions.length; i += 3) {
    positions[i] = (mesh.positions[i] - (b.min[0] + b.max[0]) / 2 + 110) * MM;
    positions[i + 1] = (mesh.positions[i + 1] - (b.min[1] + b.max[1]) / 2 + 110) * MM;
    positions[i + 2] = (mesh.positions[i + 2] - b.min[2]) * MM;
  }
  const zs: number[] = [];
  for (let z = 100; z < (b.max[2] - b.min[2]) * MM; z += 200) zs.push(z);
  return { positions, zs };
}
const readModel = (f: string) => parseModel(new Uint8Array(readFileSync(path.join(MODELS_DIR!, f))), f).mesh;

test('fixtures are wound outwards', () => {
  assert.equal(signedVolume(cube), 8e12);
  assert.equal(signedVolume(squareTube(20 * MM, 10 * MM, 5 * MM)), 300e6 * 5 * MM);
});

test('a cube: one counter-clockwise 20 mm square at every height, integer µm', async () => {
  await initGeometry();
  const zs = [1, 100, 7777.5, 10000, 19999];
  const layers = slice(cube, zs);
  assert.equal(layers.length, zs.length);
  for (const l of layers) {
    assert.equal(l.length, 1);
    assert.equal(l[0].length, 8, 'four corners, nothing else');
    assert.equal(area(l[0]), 400e6);
    assert.ok(l[0].every(Number.isInteger));
  }
});

test('planes through vertices: the plane counts as nudged downwards, never a duplicate', async () => {
  await initGeometry();
  const layers = slice(cube, [0, 20 * MM, 25 * MM, -5]);
  assert.deepEqual(layers[0], [], 'z = bottom: nothing below it');
  assert.equal(totalArea(layers[1]), 400e6, 'z = top: the section just below it');
  assert.deepEqual(layers[2], []);
  assert.deepEqual(layers[3], []);
  // side faces split at mid-height: vertices lie exactly on the plane z = 10 mm
  const lower = box(0, 0, 0, 20 * MM, 20 * MM, 10 * MM);
  const upper = box(0, 0, 10 * MM, 20 * MM, 20 * MM, 20 * MM);
  const stacked = merge(lower, upper);
  for (const z of [10 * MM, 10 * MM - 1, 10 * MM + 1]) {
    const [l] = slice(stacked, [z]);
    assert.equal(l.length, 1, `z = ${z}`);
    assert.equal(area(l[0]), 400e6);
  }
});

test('a cube with a square hole through it: outer contour CCW, hole CW', async () => {
  await initGeometry();
  const [l] = slice(squareTube(20 * MM, 10 * MM, 10 * MM), [5 * MM]);
  assert.equal(l.length, 2);
  const areas = l.map(area).sort((a, b) => a - b);
  assert.deepEqual(areas, [-100e6, 400e6]);
});

test('two overlapping cubes give one outline, their union', async () => {
  await initGeometry();
  const two = merge(cube, box(10 * MM, 5 * MM, 0, 30 * MM, 25 * MM, 20 * MM));
  const [l] = slice(two, [10 * MM]);
  assert.equal(l.length, 1);
  assert.equal(area(l[0]), 400e6 + 400e6 - 10 * MM * 15 * MM);
  // the same cube twice (duplicated shell) is still one cube
  const [d] = slice(merge(cube, cube), [10 * MM]);
  assert.equal(d.length, 1);
  assert.equal(area(d[0]), 400e6);
});

test('flipped triangles change nothing; a fully inverted mesh still slices', async () => {
  await initGeometry();
  const zs = [3 * MM, 10 * MM, 17 * MM];
  const ref = slice(cube, zs);
  for (const t of [4, 5, 8]) {
    const flipped = { positions: cube.positions, indices: cube.indices.slice() };
    [flipped.indices[3 * t + 1], flipped.indices[3 * t + 2]] = [flipped.indices[3 * t + 2], flipped.indices[3 * t + 1]];
    assert.deepEqual(slice(flipped, zs).map(totalArea), ref.map(totalArea), `triangle ${t} flipped`);
  }
  const inverted = { positions: cube.positions, indices: cube.indices.map((_v, i, a) => a[i - (i % 3) + [0, 2, 1][i % 3]]) };
  assert.ok(signedVolume(inverted) < 0);
  assert.deepEqual(slice(inverted, zs).map(totalArea), ref.map(totalArea));
  const tube = squareTube(20 * MM, 10 * MM, 10 * MM);
  const invTube = { positions: tube.positions, indices: tube.indices.map((_v, i, a) => a[i - (i % 3) + [0, 2, 1][i % 3]]) };
  assert.deepEqual(slice(invTube, [5 * MM]).map(totalArea), [300e6]);
});

test('a missing triangle: the open chain is stitched into a closed loop of the right area', async () => {
  await initGeometry();
  for (const missing of [4, 6, 10]) {
    const holed = { positions: cube.positions, indices: cube.indices.filter((_v, i) => Math.floor(i / 3) !== missing) };
    const report: SliceReport = { stitchedLayers: 0, droppedChains: 0 };
    const layers = slice(holed, [2 * MM, 10 * MM, 18 * MM], report);
    for (const l of layers) {
      assert.equal(l.length, 1);
      assert.ok(Math.abs(area(l[0]) - 400e6) <= 400e6 * 1e-6, `area ${area(l[0])}`);
    }
    assert.equal(report.stitchedLayers, 3);
    assert.equal(report.droppedChains, 0);
  }
});

test('planes in any order come back in the caller\'s order', async () => {
  await initGeometry();
  const tall = box(0, 0, 0, 10 * MM, 10 * MM, 30 * MM);
  const narrow = box(0, 0, 0, 5 * MM, 5 * MM, 10 * MM);
  const layers = slice(merge(tall, box(20 * MM, 0, 0, 25 * MM, 5 * MM, 10 * MM), narrow), [25 * MM, 5 * MM, 15 * MM]);
  assert.deepEqual(layers.map(totalArea), [100e6, 125e6, 100e6]);
});

test('XYZ calibration cube: 20 mm square minus engraved letters', { skip: !MODELS_DIR }, async () => {
  await initGeometry();
  const { positions, zs } = placed(readModel('xyz_calibration_cube.stl'));
  const layers = sliceMesh(positions, readModel('xyz_calibration_cube.stl').indices, zs);
  assert.equal(layers.length, 100);
  const areas = layers.map((l) => totalArea(l) / 1e6);
  for (const a of areas) assert.ok(a > 370 && a <= 400.001, `area ${a}`);
  const engraved = areas.filter((a) => a < 399.9).length;
  assert.ok(engraved > 20 && engraved < 100, `${engraved} layers cut through letters`);
  assert.ok(areas.some((a) => Math.abs(a - 400) < 0.01), 'layers above and below the letters are full squares');
  for (const l of layers) assert.equal(l.filter((p) => area(p) > 0).length, 1, 'one outer contour');
});

test('broken meshes: extra internal surface is ignored, a missing triangle is closed', { skip: !MODELS_DIR }, async () => {
  await initGeometry();
  const extra = readModel('broken_extra_surface.stl');
  const pe = placed(extra);
  const le = sliceMesh(pe.positions, extra.indices, pe.zs);
  assert.ok(le.every((l) => l.length > 0), 'every layer has a section');
  // a 40 mm disc up to z = 5 mm, then a tube (r ≈ 8–10 mm); the stray sheet at r = 20 mm adds nothing
  assert.ok(Math.abs(totalArea(le[10]) / 1e6 - Math.PI * 400) < 2);
  assert.ok(Math.abs(totalArea(le[100]) / 1e6 - 113.06) < 0.5, `${totalArea(le[100]) / 1e6}`);

  const holed = readModel('broken_missing_triangle.stl');
  const ph = placed(holed);
  const report: SliceReport = { stitchedLayers: 0, droppedChains: 0 };
  const lh = sliceMesh(ph.positions, holed.indices, ph.zs, report);
  // fill the hole (its three open edges) and compare with the repaired mesh
  const edges = new Map<string, number[]>();
  for (let t = 0; t < holed.indices.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const a = holed.indices[t + k];
      const b = holed.indices[t + ((k + 1) % 3)];
      const key = a < b ? `${a},${b}` : `${b},${a}`;
      const e = edges.get(key);
      if (e) e.push(a);
      else edges.set(key, [a, b]);
    }
  }
  const open = [...edges.values()].filter((e) => e.length === 2);
  assert.equal(open.length, 3);
  // open edges run a→b in the existing triangles; the patch runs the other way round
  const patch = [open[0][1], open[0][0]];
  const third = open.find((e) => e[1] === open[0][0])!;
  patch.push(third[0]);
  const repaired = Uint32Array.from([...holed.indices, ...patch]);
  const lr = sliceMesh(ph.positions, repaired, ph.zs);
  assert.ok(report.stitchedLayers > 0 && report.droppedChains === 0);
  for (let i = 0; i < lh.length; i++) {
    assert.equal(lh[i].length, lr[i].length);
    const a = totalArea(lh[i]);
    const b = totalArea(lr[i]);
    assert.ok(Math.abs(a - b) <= b * 1e-3, `layer ${i}: ${a} vs ${b}`);
  }
});

test('3DBenchy: 240 layers, none empty, in well under a second', { skip: !MODELS_DIR }, async () => {
  await initGeometry();
  const mesh = readModel('3dbenchy.stl');
  const { positions, zs } = placed(mesh);
  const t0 = performance.now();
  const layers = sliceMesh(positions, mesh.indices, zs);
  const ms = performance.now() - t0;
  assert.equal(layers.length, 240);
  assert.ok(layers.every((l) => l.length > 0));
  // the hull's first layer is about 18.7 mm² (keel strips), the widest about 1076 mm²
  const areas = layers.map((l) => totalArea(l) / 1e6);
  assert.ok(Math.max(...areas) > 1000 && Math.max(...areas) < 1100);
  console.log(`3DBenchy: 240 layers sliced in ${ms.toFixed(0)} ms`);
});

/** A prism over the counter-clockwise polygon `ring` (µm), from z = 0 to h. */
function prism(ring: [number, number][], h: number): TestMesh {
  const n = ring.length;
  const positions: number[] = [];
  for (const z of [0, h]) for (const [x, y] of ring) positions.push(x, y, z);
  const cx = ring.reduce((s, p) => s + p[0], 0) / n;
  const cy = ring.reduce((s, p) => s + p[1], 0) / n;
  positions.push(cx, cy, 0, cx, cy, h); // fan centres: 2n (bottom), 2n + 1 (top)
  const indices: number[] = [];
  for (let k = 0; k < n; k++) {
    const j = (k + 1) % n;
    indices.push(k, j, n + j, k, n + j, n + k); // side
    indices.push(2 * n, j, k); // bottom, facing down
    indices.push(2 * n + 1, n + k, n + j); // top
  }
  return { positions, indices };
}

test('finely tessellated outlines: whole-µm rounding makes no corners, real corners stay', async () => {
  await initGeometry();
  // a cylinder of 20,000 segments (3 µm each) off the µm grid: before corners were measured on the
  // unrounded points, rounding kept thousands of its points and its walls took a tenth of a second a layer
  const r = 10 * MM;
  const circle: [number, number][] = [];
  for (let k = 0; k < 20000; k++) {
    const a = (2 * Math.PI * k) / 20000;
    circle.push([110.0003 * MM + r * Math.cos(a), 109.9996 * MM + r * Math.sin(a)]);
  }
  const [cyl] = slice(prism(circle, 2 * MM), [1000]);
  assert.equal(cyl.length, 1);
  assert.ok(cyl[0].length / 2 < 1000, `${cyl[0].length / 2} points`);
  for (let i = 0; i < cyl[0].length; i += 2) {
    const d = Math.hypot(cyl[0][i] - 110.0003 * MM, cyl[0][i + 1] - 109.9996 * MM);
    assert.ok(Math.abs(d - r) <= 1, 'every kept point is on the circle');
  }
  // chords at most the tolerance (12 µm) from the arc they replace
  assert.ok(Math.abs(area(cyl[0]) / (Math.PI * r * r) - 1) < 0.003);
  // a 20 mm square turned by 30°, each side cut into 6,000 pieces of 3.3 µm: four points, its corners
  const square: [number, number][] = [];
  const c = Math.cos(Math.PI / 6);
  const s = Math.sin(Math.PI / 6);
  const corners = [[0, 0], [20, 0], [20, 20], [0, 20]].map(([x, y]) => [100.3 + (x * c - y * s), 95.7 + (x * s + y * c)]);
  for (let side = 0; side < 4; side++) {
    const [ax, ay] = corners[side];
    const [bx, by] = corners[(side + 1) % 4];
    for (let k = 0; k < 6000; k++) square.push([(ax + ((bx - ax) * k) / 6000) * MM, (ay + ((by - ay) * k) / 6000) * MM]);
  }
  const [sq] = slice(prism(square, 2 * MM), [1000]);
  assert.equal(sq.length, 1);
  assert.equal(sq[0].length, 8, `${sq[0].length / 2} points`);
  for (let i = 0; i < 4; i++) {
    const near = corners.some(([x, y]) => Math.hypot(sq[0][2 * i] - x * MM, sq[0][2 * i + 1] - y * MM) <= 1);
    assert.ok(near, `point ${i} is a corner`);
  }
});

test('straight walls: every layer of a prism gets the same points, wherever the planes cut its side faces', async () => {
  await initGeometry();
  // Each side quad is two triangles sharing a diagonal; a plane crosses the diagonal at a point on the
  // side, further along at each height. Such points lie on the outline's line, so they must not decide
  // which points the simplification keeps: else every layer comes out a few µm different, and nothing
  // that reuses a repeated layer (skin detection above all) ever sees one.
  const ring = (cx: number, cy: number, r: number, n: number, phase: number): [number, number][] =>
    Array.from({ length: n }, (_, k) => {
      const a = phase + (2 * Math.PI * k) / n;
      return [cx + r * Math.cos(a), cy + r * Math.sin(a)];
    });
  // a cylinder of 400 facets off the µm grid, and a plate with rounded corners of 24 facets each
  const plate: [number, number][] = [];
  const corner = [[1, 1], [-1, 1], [-1, -1], [1, -1]];
  for (let q = 0; q < 4; q++) {
    const [sx, sy] = corner[q];
    for (let k = 0; k <= 24; k++) {
      const a = (q * Math.PI) / 2 + (k * Math.PI) / 48;
      plate.push([(90.1234 + sx * 15) * MM + 3 * MM * Math.cos(a), (120.4321 + sy * 8) * MM + 3 * MM * Math.sin(a)]);
    }
  }
  const zs = Array.from({ length: 40 }, (_, k) => 100 + 200 * k + (k % 3) * 7.3);
  for (const [name, outline] of [['cylinder', ring(110.0007 * MM, 109.9993 * MM, 12 * MM, 400, 0.01)], ['plate', plate]] as const) {
    const layers = slice(prism(outline, 9 * MM), zs);
    const first = JSON.stringify(layers[0]);
    assert.equal(layers[0].length, 1, name);
    assert.ok(layers[0][0].length >= 24, `${name}: ${layers[0][0].length / 2} points`);
    const differing = layers.filter((l) => JSON.stringify(l) !== first).length;
    assert.equal(differing, 0, `${name}: ${differing} of ${layers.length} layers differ from the first`);
  }
});

test('a point on the line of its neighbours but beyond them (a spike folding back) is kept', () => {
  // (0,0) → (20,0) → (10,0) → (10,10) mm: the spike's tip lies on the line through its neighbours,
  // not between them; dropping it would cut the spike off
  const loop = Float64Array.from([0, 0, 20000, 0, 10000, 0, 10000, 10000]);
  const out = simplifyLoop(loop, 0, loop.length, 12, new SimplifyScratch());
  const points = new Set(Array.from({ length: out.length / 2 }, (_, i) => `${out[2 * i]},${out[2 * i + 1]}`));
  assert.ok(points.has('20000,0'), `the tip stays: ${[...points].join(' ')}`);
  // and a point between its neighbours on their line goes, however far from the simplification's reach
  const onSide = Float64Array.from([0, 0, 7000.25, 0, 20000, 0, 20000, 20000]);
  const kept = simplifyLoop(onSide, 0, onSide.length, 0.001, new SimplifyScratch());
  assert.equal(kept.length, 6, `${kept.join(' ')}`);
});

test('clean-area check: only non-crossing, correctly nested loops skip the union', async () => {
  const { isCleanArea } = await import('../src/engine/geom/simple-area.js');
  const sq = (x: number, y: number, s: number) => [x, y, x + s, y, x + s, y + s, x, y + s];
  const cw = (p: number[]) => {
    const out: number[] = [];
    for (let i = p.length - 2; i >= 0; i -= 2) out.push(p[i], p[i + 1]);
    return out;
  };
  assert.equal(isCleanArea([sq(0, 0, 100)]), true);
  assert.equal(isCleanArea([sq(0, 0, 100), cw(sq(10, 10, 20)), sq(15, 15, 5)]), true, 'island in a hole');
  assert.equal(isCleanArea([sq(0, 0, 100), sq(200, 0, 100)]), true, 'side by side');
  assert.equal(isCleanArea([cw(sq(0, 0, 100))]), false, 'a lone clockwise loop');
  assert.equal(isCleanArea([sq(0, 0, 100), sq(10, 10, 20)]), false, 'counter-clockwise inside counter-clockwise');
  assert.equal(isCleanArea([sq(0, 0, 100), sq(50, 50, 100)]), false, 'overlapping squares');
  assert.equal(isCleanArea([sq(0, 0, 100), sq(100, 0, 100)]), false, 'squares sharing an edge');
  assert.equal(isCleanArea([sq(0, 0, 100), cw(sq(0, 10, 20))]), false, 'hole touching the outline');
  assert.equal(isCleanArea([[0, 0, 100, 0, 100, 100, 50, 100, 50, 200, 50, 100, 0, 100]]), false, 'a spike folding back');
  assert.equal(isCleanArea([[0, 0, 100, 100, 100, 0, 0, 100]]), false, 'a bow tie');
});

test('plane lookup agrees with a plain search for uneven plane spacing and values on planes', async () => {
  const { PlaneLookup } = await import('../src/engine/layers/buckets.js');
  const zs = Float64Array.from([100, 300, 300.5, 301, 700, 2000, 2000.25, 2100, 9000]);
  const lookup = new PlaneLookup(zs);
  const plain = (v: number) => {
    let i = 0;
    while (i < zs.length && zs[i] <= v) i++;
    return i;
  };
  const probes = [-1e9, 0, 99.999, 100, 100.001, 300, 300.25, 300.5, 301, 699, 700, 1999.9999, 2000, 2000.25, 2050, 9000, 9000.001, 1e12];
  for (let k = 0; k < 2000; k++) probes.push(50 + k * 4.7, zs[k % zs.length] + (k % 3) - 1);
  for (const v of probes) assert.equal(lookup.upperBound(v), plain(v), `v = ${v}`);
  assert.equal(new PlaneLookup(new Float64Array([5])).upperBound(4), 0);
  assert.equal(new PlaneLookup(new Float64Array([5])).upperBound(5), 1);
  assert.equal(new PlaneLookup(new Float64Array([5, 5, 7])).upperBound(5), 2);
  assert.equal(new PlaneLookup(new Float64Array(0)).upperBound(6), 0);
});

test('open chains: a hole of the mesh is bridged however wide; a stray sheet is dropped', async () => {
  await initGeometry();
  // a 20 mm cube without one whole side face (two triangles): at every height the section's
  // chain ends on the two vertical edges of the missing face, 20 mm apart, beyond the 10 mm stitch
  const open = { positions: cube.positions, indices: cube.indices.filter((_v, i) => Math.floor(i / 3) !== 4 && Math.floor(i / 3) !== 5) };
  const report: SliceReport = { stitchedLayers: 0, droppedChains: 0 };
  const [l] = slice(open, [10 * MM], report);
  assert.equal(l.length, 1);
  assert.equal(area(l[0]), 400e6);
  // a lone vertical sheet (two triangles, no volume): nothing to print
  const sheet = { positions: [0, 0, 0, 20 * MM, 0, 0, 20 * MM, 0, 20 * MM, 0, 0, 20 * MM], indices: [0, 1, 2, 0, 2, 3] };
  const r2: SliceReport = { stitchedLayers: 0, droppedChains: 0 };
  assert.deepEqual(slice(sheet, [10 * MM], r2), [[]]);
  assert.equal(r2.droppedChains, 1);
});

test('degenerate input: no planes, no triangles, planes outside the mesh', async () => {
  await initGeometry();
  assert.deepEqual(slice(cube, []), []);
  assert.deepEqual(slice({ positions: [], indices: [] }, [1, 2]), [[], []]);
  assert.deepEqual(slice(cube, [-1e9, 1e12]), [[], []]);
});
