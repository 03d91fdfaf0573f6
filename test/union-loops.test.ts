// A layer with many loops of one winding is united from halves: the same area as one Clipper2 union,
// in time near n log n where one union grows with n² (4,000 near-copies of a cube took 30 s).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initGeometry, union } from '../src/engine/geom/clipper.js';
import { unionLoops } from '../src/engine/layers/union-loops.js';
import { sliceMesh } from '../src/engine/layers/index.js';
import type { Paths } from '../src/engine/types.js';
import { area, box, merge, rng } from './mesh-fixtures.js';

const totalArea = (ps: Paths) => ps.reduce((s, p) => s + area(p), 0);
const rect = (x0: number, y0: number, x1: number, y1: number) => [x0, y0, x1, y0, x1, y1, x0, y1];
/** The same loop run the other way round. */
const reversed = (p: number[]) => p.flatMap((_, i) => (i % 2 ? [] : [p[p.length - 2 - i], p[p.length - 1 - i]]));

/** Even-odd inside test over all the paths (a united area's holes wind the other way). */
function covers(ps: Paths, x: number, y: number): boolean {
  let c = false;
  for (const p of ps) {
    for (let i = 0, j = p.length - 2; i < p.length; j = i, i += 2) {
      if (p[i + 1] > y !== p[j + 1] > y && x < ((p[j] - p[i]) * (y - p[i + 1])) / (p[j + 1] - p[i + 1]) + p[i]) c = !c;
    }
  }
  return c;
}

/** Distance from (x, y) to the nearest edge of the paths. */
function toBoundary(ps: Paths, x: number, y: number): number {
  let best = Infinity;
  for (const p of ps) {
    for (let i = 0, j = p.length - 2; i < p.length; j = i, i += 2) {
      const dx = p[i] - p[j], dy = p[i + 1] - p[j + 1];
      const t = Math.max(0, Math.min(1, ((x - p[j]) * dx + (y - p[j + 1]) * dy) / (dx * dx + dy * dy || 1)));
      best = Math.min(best, Math.hypot(x - p[j] - t * dx, y - p[j + 1] - t * dy));
    }
  }
  return best;
}

const perimeter = (ps: Paths) => ps.reduce((s, p) => s + p.reduce((t, _, i) => (i % 2 ? t : t + Math.hypot(p[(i + 2) % p.length] - p[i], p[(i + 3) % p.length] - p[i + 1])), 0), 0);

test('many loops of one winding: the area one union gives, point for point inside', async () => {
  await initGeometry();
  const random = rng(3);
  for (let round = 0; round < 30; round++) {
    const n = 65 + Math.floor(random() * 400);
    const at = () => Math.round(random() * 40_000);
    const loops: Paths = [];
    for (let k = 0; k < n; k++) {
      const x = at(), y = at(), w = 50 + Math.round(random() * 8000), h = 50 + Math.round(random() * 8000);
      if (random() < 0.15 && loops.length > 0) loops.push([...loops[Math.floor(random() * loops.length)]]); // a copy
      else if (random() < 0.3) loops.push([x, y, x + w, y, x, y + h]); // a triangle
      else loops.push(rect(x, y, x + w, y + h));
    }
    if (round % 2) loops.forEach((p, k) => (loops[k] = reversed(p))); // all clockwise
    const one = union(loops, 'nonzero');
    const halves = unionLoops(loops);
    // where edges cross, each union rounds the crossing to whole micrometres: within 1 µm along the outline
    assert.ok(Math.abs(totalArea(halves) - totalArea(one)) <= perimeter(one), `round ${round}`);
    for (let s = 0; s < 200; s++) {
      const x = at() + 0.5, y = at() + 0.5;
      if (toBoundary(one, x, y) > 2) assert.equal(covers(halves, x, y), covers(one, x, y), `round ${round}: (${x}, ${y})`);
    }
  }
});

test('loops of both windings (holes) get one union, as before', async () => {
  await initGeometry();
  const loops: Paths = Array.from({ length: 100 }, (_, k) => rect(k * 1000, 0, k * 1000 + 1500, 10_000));
  loops.push(reversed(rect(20_000, 2000, 60_000, 8000))); // a hole
  assert.deepEqual(unionLoops(loops), union(loops, 'nonzero'));
});

test('slicing 4,000 near-copies of a cube (each a hair higher) takes milliseconds a layer, not seconds', async () => {
  await initGeometry();
  const copies = Array.from({ length: 4000 }, (_, k) => box(0, 0, k * 0.1, 20_000, 20_000, 20_000 + k * 0.1));
  const m = merge(...copies);
  const started = performance.now();
  const zs = [1, 3, 5, 7, 9, 11, 13, 15].map((z) => z * 1000);
  const layers = sliceMesh(Float64Array.from(m.positions), Uint32Array.from(m.indices), zs);
  const ms = performance.now() - started;
  assert.deepEqual(layers.map(totalArea), zs.map(() => 400e6));
  // against the way it was, in the same run (a wall-clock bar failed on a loaded machine): one union
  // of a layer's 4,000 squares, which each of the 8 layers used to take (~0.35 s; the 8 layers now
  // ~0.2 s in all)
  const squares: Paths = Array.from({ length: 4000 }, () => rect(0, 0, 20_000, 20_000));
  const unionStarted = performance.now();
  union(squares, 'nonzero');
  const oneUnion = performance.now() - unionStarted;
  assert.ok(ms < 4 * oneUnion, `8 layers took ${ms.toFixed(0)} ms, one union of their squares ${oneUnion.toFixed(0)} ms`);
});
