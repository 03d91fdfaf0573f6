// Varying infill density (issue 4): modifiers and density fields, measured on the produced G-code
// as the deposited-area share (filament volume ÷ layer height ÷ window area) inside windows that
// stay clear of walls and top/bottom skin.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { slice } from '../src/engine/pipeline.js';
import { parseModel, meshBounds } from '../src/engine/mesh/index.js';
import { defaultSettings } from '../src/profiles/defaults.js';
import type { Mesh, ModelInput } from '../src/engine/types.js';
import type { LayerExecutor } from '../src/engine/index.js';
import { fieldAreas, densityRegions, quantiseDensity } from '../src/engine/regions/density.js';
import { coarsenField, minFieldCellUm } from '../src/engine/regions/coarsen-field.js';
import { initGeometry } from '../src/engine/geom/clipper.js';
import { box, MODELS_DIR } from './mesh-fixtures.js';

const s = defaultSettings(); // 20 % lines infill, 0.2 mm layers, 220 × 220 bed (centre 110, 110)
const FIL_AREA = Math.PI * (s.filamentDiameter / 2) ** 2;

function meshOf(t: { positions: number[]; indices: number[] }): Mesh {
  return { positions: Float32Array.from(t.positions), indices: Uint32Array.from(t.indices) };
}

interface Win {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Part of the segment (ax,ay)→(bx,by) inside the window, as a fraction of its length (Liang–Barsky). */
function insideFraction(ax: number, ay: number, bx: number, by: number, w: Win): number {
  let t0 = 0, t1 = 1;
  const dx = bx - ax, dy = by - ay;
  const edges: Array<[number, number]> = [[-dx, ax - w.x0], [dx, w.x1 - ax], [-dy, ay - w.y0], [dy, w.y1 - ay]];
  for (const [p, q] of edges) {
    if (p === 0) {
      if (q < 0) return 0;
      continue;
    }
    const r = q / p;
    if (p < 0) t0 = Math.max(t0, r);
    else t1 = Math.min(t1, r);
    if (t0 >= t1) return 0;
  }
  return t1 - t0;
}

/** Deposited-area share per window over layers [from, to] of a G-code text. */
function depositedShare(gcode: string, windows: Win[], from: number, to: number): number[] {
  const mm2 = windows.map(() => 0);
  let x = 0, y = 0, e = 0, layer = -1, relE = false;
  for (const raw of gcode.split('\n')) {
    if (raw.startsWith(';LAYER:')) layer = Number(raw.slice(7));
    const line = raw.split(';')[0].trim();
    if (line === 'M83') relE = true;
    if (line === 'M82') relE = false;
    if (!/^G[01]\b/.test(line) && !line.startsWith('G92')) continue;
    let nx = x, ny = y, ne = e;
    for (const word of line.split(/\s+/).slice(1)) {
      const v = Number(word.slice(1));
      if (word[0] === 'X') nx = v;
      else if (word[0] === 'Y') ny = v;
      else if (word[0] === 'E') ne = relE && !line.startsWith('G92') ? e + v : v;
    }
    if (line.startsWith('G92')) {
      e = ne;
      continue;
    }
    const de = ne - e;
    if (de > 0 && layer >= from && layer <= to) {
      const area = (de * FIL_AREA) / s.layerHeight; // mm² of layer covered
      windows.forEach((w, i) => (mm2[i] += area * insideFraction(x, y, nx, ny, w)));
    }
    x = nx;
    y = ny;
    e = ne;
  }
  const layers = to - from + 1;
  return windows.map((w, i) => mm2[i] / layers / ((w.x1 - w.x0) * (w.y1 - w.y0)));
}

const cubeFile = MODELS_DIR ? path.join(MODELS_DIR, 'xyz_calibration_cube.stl') : null;

test('modifiers: solid left half, priority decides overlaps, right half unchanged', { skip: !cubeFile }, async () => {
  const cube = parseModel(readFileSync(cubeFile!), 'xyz_calibration_cube.stl').mesh;
  const b = meshBounds(cube);
  const midX = (b.min[0] + b.max[0]) / 2;
  const midY = (b.min[1] + b.max[1]) / 2;
  const lo = b.min.map((v) => v - 1);
  const hi = b.max.map((v) => v + 1);
  const model: ModelInput = { name: 'cube', mesh: cube };
  const modifier = (name: string, x1: number, y1: number, densityFactor: number, priority: number): ModelInput => ({
    name,
    mesh: meshOf(box(lo[0], lo[1], lo[2], x1, y1, hi[2])),
    role: 'modifier',
    modifier: { densityFactor, priority },
  });
  // the cube lands on 100…120 mm; walls are 0.8 mm, the letters 1 mm deep: windows keep 2.5 mm off
  // the faces and 1 mm off the middle
  const leftFront: Win = { x0: 102.5, y0: 102.5, x1: 109, y1: 109 };
  const leftBack: Win = { x0: 102.5, y0: 111, x1: 109, y1: 117.5 };
  const left: Win = { x0: 102.5, y0: 102.5, x1: 109, y1: 117.5 };
  const right: Win = { x0: 111, y0: 102.5, x1: 117.5, y1: 117.5 };
  const measure = async (models: ModelInput[]) => {
    const r = await slice(models, s);
    const text = new TextDecoder().decode(r.output);
    assert.ok(!text.includes(';MESH:half') && !text.includes(';MESH:corner'), 'a modifier is never printed');
    const [lf, lb, l, rt] = depositedShare(text, [leftFront, leftBack, left, right], 10, 80);
    if (process.env.DENSITY_REPORT) console.log(models.map((m) => m.name).join('+'), { lf, lb, l, rt });
    return { lf, lb, l, rt, bounds: r.stats.bounds };
  };

  const plain = await measure([model]);
  assert.ok(plain.l > 0.12 && plain.l < 0.3, `20 % infill measures ${plain.l.toFixed(3)}`);

  const half = await measure([model, modifier('half', midX, hi[1], 1, 0)]);
  assert.ok(half.l >= 0.95, `left half under a 1.0 modifier: ${half.l.toFixed(3)}`);
  assert.ok(Math.abs(half.rt - plain.rt) <= 0.05, `right half ${half.rt.toFixed(3)} vs ${plain.rt.toFixed(3)} without modifier`);
  // the modifier reaches 1 mm past the cube: still the cube's bounds
  assert.ok(Math.abs(half.bounds.min[0] - plain.bounds.min[0]) < 1e-6 && Math.abs(half.bounds.max[2] - plain.bounds.max[2]) < 1e-6);

  // a 0.0 modifier over the front-left quarter, listed first but of higher priority, wins there
  const both = await measure([modifier('corner', midX, midY, 0, 5), model, modifier('half', midX, hi[1], 1, 0)]);
  assert.ok(both.lf < 0.02, `front-left under the priority-5 0.0 modifier: ${both.lf.toFixed(3)}`);
  assert.ok(both.lb >= 0.95, `back-left keeps the 1.0 modifier: ${both.lb.toFixed(3)}`);
  assert.ok(Math.abs(both.rt - plain.rt) <= 0.05);

  // swap the priorities: now the 1.0 modifier applies last everywhere in the left half
  const swapped = await measure([modifier('corner', midX, midY, 0, 0), model, modifier('half', midX, hi[1], 1, 5)]);
  assert.ok(swapped.lf >= 0.95, `front-left when the 1.0 modifier has the higher priority: ${swapped.lf.toFixed(3)}`);
});

test('a density field rising along x gives infill rising along x, within 5 points', async () => {
  // a 60 × 20 × 12 mm block; the field's four 15 mm columns ask for 10, 30, 50 and 70 %
  const values = [10, 30, 50, 70];
  const nx = values.length, ny = 2, nz = 3;
  const density = new Float32Array(nx * ny * nz);
  for (let ix = 0; ix < nx; ix++) for (let k = 0; k < ny * nz; k++) density[ix * ny * nz + k] = values[ix];
  const block: ModelInput = {
    name: 'block',
    mesh: meshOf(box(0, 0, 0, 60, 20, 12)),
    densityField: { min: [0, 0, 0], max: [60, 20, 12], nx, ny, nz, density },
  };
  const r = await slice([block], s);
  const text = new TextDecoder().decode(r.output);
  // the block lands on 80…140 × 100…120; each column's window keeps 1.5 mm off its borders and 2 mm off the faces
  const wins = values.map((_, i) => ({ x0: 80 + 15 * i + 1.5, x1: 80 + 15 * (i + 1) - 1.5, y0: 102, y1: 118 }));
  const shares = depositedShare(text, wins, 10, 50);
  if (process.env.DENSITY_REPORT) console.log('field columns', shares);
  for (let i = 0; i < values.length; i++) {
    assert.ok(Math.abs(shares[i] * 100 - values[i]) <= 5, `column ${i}: ${(shares[i] * 100).toFixed(1)} % for ${values[i]} %`);
    if (i > 0) assert.ok(shares[i] > shares[i - 1], `rises along x: ${shares.map((v) => v.toFixed(3)).join(', ')}`);
  }
});

test('fieldAreas quantises voxels into steps and densityRegions lets the last override win', async () => {
  await initGeometry();
  assert.equal(quantiseDensity(12.4), 10);
  assert.equal(quantiseDensity(13), 15);
  assert.equal(quantiseDensity(140), 100);
  // 2 × 1 × 1 voxels over 0…2000 × 0…1000 µm: 21 % and 99 % → 20 and 100
  const f = { min: [0, 0, 0] as [number, number, number], max: [2000, 1000, 1000] as [number, number, number], nx: 2, ny: 1, nz: 1, density: Float32Array.from([21, 99]) };
  const areas = fieldAreas(f, 500);
  assert.deepEqual(areas.map((a) => a.density), [20, 100]);
  assert.deepEqual(fieldAreas(f, 1500), [], 'above the box: no field');
  const square = [[0, 0, 2000, 0, 2000, 2000, 0, 2000]];
  const regions = densityRegions(square, 15, areas);
  const byDensity = new Map(regions.map((rg) => [rg.density, rg.area]));
  const areaOf = (ps: number[][] | undefined) =>
    (ps ?? []).reduce((sum, p) => {
      let a = 0;
      for (let i = 0; i < p.length; i += 2) {
        const j = (i + 2) % p.length;
        a += p[i] * p[j + 1] - p[j] * p[i + 1];
      }
      return sum + a / 2;
    }, 0);
  assert.equal(areaOf(byDensity.get(20)), 1000 * 1000);
  assert.equal(areaOf(byDensity.get(100)), 1000 * 1000);
  assert.equal(areaOf(byDensity.get(15)), 2000 * 1000, 'the rest keeps the base density');
});

test('modifiers reach the layer threads (a job tall enough for the executor)', async () => {
  const { LayerPool } = await import('../src/runner/layer-pool.js');
  const pool = new LayerPool(2);
  try {
    // 20 × 10 × 62 mm: 310 layers, over the engine's threshold for threads; left half solid
    const block: ModelInput = { name: 'tall', mesh: meshOf(box(0, 0, 0, 20, 10, 62)) };
    const half: ModelInput = { name: 'half', mesh: meshOf(box(-1, -1, -1, 10, 11, 63)), role: 'modifier', modifier: { densityFactor: 1, priority: 0 } };
    let used = 0;
    const executor: LayerExecutor = (b, onLayer, signal) => {
      used++;
      return pool.executor(b, onLayer, signal);
    };
    // a box is little layer work: the threshold at 0 makes the engine use the threads all the same
    const r = await slice([block, half], s, { executor, minVerticesForThreads: 0 });
    assert.equal(used, 1);
    const text = new TextDecoder().decode(r.output);
    // the block lands on 100…120 × 105…115
    const [l, rt] = depositedShare(text, [{ x0: 102, y0: 107, x1: 109, y1: 113 }, { x0: 111, y0: 107, x1: 118, y1: 113 }], 10, 290);
    assert.ok(l >= 0.95, `left half through the threads: ${l.toFixed(3)}`);
    assert.ok(rt > 0.12 && rt < 0.3, `right half stays sparse: ${rt.toFixed(3)}`);
    assert.ok(!text.includes(';MESH:half'));
  } finally {
    pool.terminate();
  }
});

test('at 100 % base density a 0.0 modifier still empties its part; bad density inputs fail clearly', async () => {
  const block: ModelInput = { name: 'block', mesh: meshOf(box(0, 0, 0, 20, 10, 6)) };
  const empty: ModelInput = { name: 'empty', mesh: meshOf(box(-1, -1, -1, 10, 11, 7)), role: 'modifier', modifier: { densityFactor: 0, priority: 0 } };
  const solid = { ...s, infillDensity: 100 };
  const r = await slice([block, empty], solid);
  const text = new TextDecoder().decode(r.output);
  // the block lands on 100…120 × 105…115, 30 layers: 3 bottom and 3 top layers of skin
  const [l, rt] = depositedShare(text, [{ x0: 102, y0: 107, x1: 109, y1: 113 }, { x0: 111, y0: 107, x1: 118, y1: 113 }], 6, 23);
  assert.ok(l < 0.02, `left under the 0.0 modifier: ${l.toFixed(3)}`);
  assert.ok(rt >= 0.95, `right stays solid: ${rt.toFixed(3)}`);

  const field = { min: [0, 0, 0] as [number, number, number], max: [20, 10, 6] as [number, number, number], nx: 2, ny: 2, nz: 2, density: new Float32Array(7) };
  await assert.rejects(slice([{ ...block, densityField: field }], s), /7 values for 2 × 2 × 2 voxels/);
  await assert.rejects(slice([block, { ...empty, modifier: { densityFactor: 1.5, priority: 0 } }], s), /modifier 'empty': density factor 1.5/);
});

test('a fine radial field: no connectors along density borders, measured density follows the field', { skip: !cubeFile }, async () => {
  const cube = parseModel(readFileSync(cubeFile!), 'xyz_calibration_cube.stl').mesh;
  const b = meshBounds(cube);
  const n = 32; // 0.625 mm voxels, densities 10 % in the middle rising to 70 % at the corners
  const fieldAt = (ix: number, iy: number) => 10 + 60 * Math.min(1, Math.hypot(ix - n / 2, iy - n / 2) / (n / 2));
  const density = new Float32Array(n * n * n);
  for (let ix = 0; ix < n; ix++) for (let iy = 0; iy < n; iy++) density.fill(fieldAt(ix, iy), (ix * n + iy) * n, (ix * n + iy + 1) * n);
  const r = await slice([{ name: 'cube', mesh: cube, densityField: { min: b.min, max: b.max, nx: n, ny: n, nz: n, density } }], s);
  const text = new TextDecoder().decode(r.output);
  // the cube lands on 100…120: expected share = the quantised field averaged over the window
  const wins: Win[] = [{ x0: 104, y0: 109, x1: 106, y1: 111 }, { x0: 102, y0: 102, x1: 103.5, y1: 103.5 }, { x0: 108.5, y0: 108.5, x1: 111.5, y1: 111.5 }];
  const expected = wins.map((w) => {
    let sum = 0, count = 0;
    for (let x = w.x0 + 0.025; x < w.x1; x += 0.05) {
      for (let y = w.y0 + 0.025; y < w.y1; y += 0.05) {
        sum += quantiseDensity(fieldAt(Math.floor((x - 100) / 0.625), Math.floor((y - 100) / 0.625)));
        count++;
      }
    }
    return sum / count / 100;
  });
  const shares = depositedShare(text, wins, 20, 80);
  if (process.env.DENSITY_REPORT) console.log('radial field', { shares, expected });
  shares.forEach((v, i) => assert.ok(Math.abs(v - expected[i]) <= 0.05, `window ${i}: ${v.toFixed(3)} for ${expected[i].toFixed(3)}`));
});

test('a modifier larger than the bed is not checked against the build volume; placed models keep their place', async () => {
  const block: ModelInput = { name: 'block', mesh: meshOf(box(50, 60, 0, 70, 70, 4)), keepPosition: true };
  const huge: ModelInput = { name: 'huge', mesh: meshOf(box(-100, -100, -5, 400, 400, 300)), role: 'modifier', modifier: { densityFactor: 1, priority: 1 }, keepPosition: true };
  const r = await slice([block, huge], { ...s, adhesionType: 'none' });
  // printed bounds are bead centres: half a line inside the block's 50…70 mm
  const { min, max } = r.stats.bounds;
  assert.ok(min[0] >= 50 && min[0] <= 50.5 && max[0] >= 69.5 && max[0] <= 70, `x from ${min[0]} to ${max[0]}`);
  const [inside] = depositedShare(new TextDecoder().decode(r.output), [{ x0: 52, y0: 62, x1: 68, y1: 68 }], 4, 15);
  assert.ok(inside >= 0.95, `solid under the huge modifier: ${inside.toFixed(3)}`);
  await assert.rejects(slice([{ ...block, mesh: meshOf(box(210, 60, 0, 230, 70, 4)) }, huge], s), /model 'block'.*outside the build volume/);
});

test('coarsenField averages voxels finer than the cell (finite values only) and keeps the box; coarse fields pass unchanged', () => {
  // 4 × 2 × 1 voxels over 0…4 × 0…2 mm: 1 mm voxels, onto 2 mm cells → 2 × 1
  const f = { min: [0, 0, 0] as [number, number, number], max: [4000, 2000, 1000] as [number, number, number], nx: 4, ny: 2, nz: 1, density: Float32Array.from([10, 20, 30, NaN, 50, 60, NaN, NaN]) };
  const { field, merged } = coarsenField(f, 2000);
  assert.ok(merged);
  assert.deepEqual([field.nx, field.ny, field.nz], [2, 1, 1]);
  assert.deepEqual([field.min, field.max], [f.min, f.max]);
  assert.deepEqual([...field.density], [20, 55]); // (10+20+30)/3 and (50+60)/2
  const allNaN = coarsenField({ ...f, density: new Float32Array(8).fill(NaN) }, 2000).field.density;
  assert.ok([...allNaN].every(Number.isNaN), 'a cell of no finite value stays without one');
  const coarse = coarsenField(f, 1000);
  assert.equal(coarse.merged, false);
  assert.equal(coarse.field, f);
  assert.equal(minFieldCellUm(0.4), 2000);
  assert.equal(minFieldCellUm(0.8), 4000);
});

test('a field of 0.1 mm voxels: alternating 50/95 % still prints its infill, and scan noise slices in moments', async () => {
  const fieldModifier = (min: [number, number, number], max: [number, number, number], nx: number, ny: number, density: Float32Array): ModelInput => ({
    name: 'cloud',
    role: 'modifier',
    modifier: { densityFactor: 0.2, priority: 1 },
    mesh: meshOf(box(min[0], min[1], min[2], max[0], max[1], max[2])),
    densityField: { min, max, nx, ny, nz: 1, density },
  });
  // 200 voxels of 0.1 mm across a 20 mm cube, alternating: before, every region was too thin for a line
  const alternating = Float32Array.from({ length: 200 }, (_, i) => (i % 2 ? 95 : 50));
  const cube: ModelInput = { name: 'cube', mesh: meshOf(box(0, 0, 0, 20, 20, 20)) };
  const r = await slice([cube, fieldModifier([0, 0, -1], [20, 20, 21], 200, 1, alternating)], s);
  const text = new TextDecoder().decode(r.output);
  // the cube lands on 100…120; the middle keeps 2 mm off the walls
  const [share] = depositedShare(text, [{ x0: 103, y0: 103, x1: 117, y1: 117 }], 20, 80);
  assert.ok(Math.abs(share! - 0.725) <= 0.06, `infill share ${share!.toFixed(3)} for a mean of 72.5 %`);
  assert.ok(
    r.stats.warnings.some((w) => /^modifier 'cloud': its density field's voxels \(0\.10 × 20\.0 mm\) are finer than infill lines can follow; their densities are averaged over cells of 2\.0 × 20\.0 mm$/.test(w)),
    r.stats.warnings.join('; '),
  );
  // 500 × 500 voxels of noise (35 ± 7 %) over a 50 mm plate: before, hundreds of thousands of regions a layer
  let seed = 7;
  const noise = Float32Array.from({ length: 500 * 500 }, () => 35 + 14 * ((seed = (seed * 16807) % 2147483647) / 2147483647 - 0.5));
  const plate: ModelInput = { name: 'plate', mesh: meshOf(box(0, 0, 0, 50, 50, 3)) };
  // a minute at most; a plain timer, not AbortSignal.timeout, whose signals Node 20 keeps in a
  // FinalizationRegistry (test/exit-promptly.ts says what that did to Node 20.10 at exit)
  const limit = new AbortController();
  const timer = setTimeout(() => limit.abort(), 60_000);
  try {
    const noisy = await slice([plate, fieldModifier([-0.5, -0.5, -1], [50.5, 50.5, 4], 500, 500, noise)], s, { signal: limit.signal });
    assert.equal(noisy.stats.layerCount, 15);
  } finally {
    clearTimeout(timer);
  }
});
