// A tube too thin for both walls from both sides (3DBenchy's chimney: 1.38 mm across, two walls of
// 0.4 mm each side): the two inner loops lay 0.18 mm apart, overlapping by more than half a line,
// and the walls carried 16 % more plastic than the ring holds. The inner loops give way to one wall
// loop along the middle, as wide as the space between the outer loops, printed with the walls.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initGeometry, offset } from '../src/engine/geom/clipper.js';
import { areaOf, pathLength } from '../src/engine/geom/path-math.js';
import { gapFillLines } from '../src/engine/regions/gap-fill.js';
import { computeWalls, type WallResult } from '../src/engine/regions/walls.js';

function circle(r: number, n: number, clockwise = false): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const a = ((clockwise ? -2 : 2) * Math.PI * i) / n;
    out.push(Math.round(r * Math.cos(a)), Math.round(r * Math.sin(a)));
  }
  return out;
}

interface Tube {
  r: WallResult;
  /** plastic per unit of layer height (bead length × width over walls and gap fill) over the ring's area */
  ratio: number;
}

function tube(outer: number, inner: number): Tube {
  const p = { width: 400, wallCount: 2, model: 0, minGapWidth: 100, gapFill: true };
  const r = computeWalls([circle(outer, 96), circle(inner, 96, true)], p);
  const beads = [...r.walls.flat(), ...gapFillLines(r.gaps, { width: 400, minWidth: 100, model: 0 })];
  const carried = beads.reduce((s, b) => s + pathLength(b.points, b.closed) * b.width, 0);
  // the 96-gons' area
  const area = 48 * Math.sin((2 * Math.PI) / 96) * (outer * outer - inner * inner);
  return { r, ratio: carried / area };
}

test('a tube 1.38 mm across: outer loops and one wall loop between them as wide as the space, no plastic laid twice', async () => {
  await initGeometry();
  const t = tube(2900, 1520);
  assert.ok(t.ratio > 0.95 && t.ratio < 1.03, `beads carry ${t.ratio.toFixed(3)} × the ring's area`);
  const inner = t.r.walls[1] ?? [];
  assert.equal(inner.length, 1, 'one inner loop in place of two 0.18 mm apart');
  assert.equal(inner[0].closed, true);
  assert.equal(inner[0].type, 'WALL-INNER');
  // 1.38 mm less the two outer loops' 0.8
  assert.ok(Math.abs(inner[0].width - 580) <= 15, `inner loop ${inner[0].width} µm wide`);
  assert.equal(inner[0].freeSides, 0, 'walls lie on both sides of it');
  // printed with the walls, not as gap fill afterwards (a travel there and back per tube)
  assert.equal(t.r.gaps.length, 0);
});

test('a tube 1.5 mm across: two inner loops, each half the space between the outer loops wide', async () => {
  await initGeometry();
  const t = tube(2900, 1400);
  assert.ok(t.ratio > 0.97 && t.ratio < 1.03, `beads carry ${t.ratio.toFixed(3)} × the ring's area`);
  const inner = t.r.walls[1] ?? [];
  assert.equal(inner.length, 2);
  // 1.5 mm less the outer loops' 0.8, shared by two: 0.35 mm each (at 0.4 mm they overlapped by 0.1)
  for (const l of inner) assert.ok(l.closed && Math.abs(l.width - 350) <= 10, `inner loop ${l.width} µm wide`);
  // they meet edge to edge: no free side (a free side's bead carries 6 % less here)
  assert.ok(inner.every((l) => l.freeSides === 0));
});

test('a tube 1.7 mm across keeps both inner loops as they are (0.1 mm apart, not overlapping)', async () => {
  await initGeometry();
  const t = tube(3000, 1300);
  assert.equal(t.r.walls[1]?.length, 2);
  assert.ok(t.r.walls[1].every((l) => l.closed && l.width === 400));
});

test('a plate whose two holes come within 1.3 mm keeps its inner loops as they are (a line wide elsewhere)', async () => {
  await initGeometry();
  const square = [-10000, -10000, 10000, -10000, 10000, 10000, -10000, 10000];
  const hole = (cx: number) => circle(3000, 96, true).map((v, i) => (i % 2 === 0 ? v + cx : v));
  const outline = [square, hole(-3650), hole(3650)];
  const p = { width: 400, wallCount: 2, model: 0, minGapWidth: 100, gapFill: true };
  const inner = computeWalls(outline, p).walls[1];
  // narrowing them only between the holes would cut them into pieces: travels and seams
  assert.deepEqual(
    inner.map((l) => l.points),
    offset(outline, -600, 'miter', 3).filter((l) => Math.abs(areaOf([l])) > 0.25 * 400 * 400),
  );
  assert.ok(inner.every((l) => l.closed && l.width === 400));
});
