import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nestCleanLoops } from '../src/engine/geom/loop-nesting.js';
import { isCleanArea } from '../src/engine/geom/simple-area.js';
import { cleanIslands, initGeometry, islands } from '../src/engine/geom/clipper.js';
import { rng } from './mesh-fixtures.js';

type Loop = number[];

/** A regular polygon of n corners, counter-clockwise unless `cw`, on whole µm. */
function polygon(cx: number, cy: number, r: number, n: number, cw = false, turn = 0): Loop {
  const p: Loop = [];
  for (let i = 0; i < n; i++) {
    const a = turn + ((cw ? -1 : 1) * 2 * Math.PI * i) / n;
    p.push(Math.round(cx + r * Math.cos(a)), Math.round(cy + r * Math.sin(a)));
  }
  return p;
}

const square = (x: number, y: number, s: number, cw = false): Loop => (cw ? [x, y, x, y + s, x + s, y + s, x + s, y] : [x, y, x + s, y, x + s, y + s, x, y + s]);

function area(p: Loop): number {
  let a = 0;
  for (let i = 0; i < p.length; i += 2) {
    const j = (i + 2) % p.length;
    a += p[i] * p[j + 1] - p[j] * p[i + 1];
  }
  return a / 2;
}

/** Even-odd point-in-polygon (the point on no edge). */
function inside(x: number, y: number, p: Loop): boolean {
  let c = false;
  for (let i = 0, j = p.length - 2; i < p.length; j = i, i += 2) {
    if (p[i + 1] > y !== p[j + 1] > y && x < ((p[j] - p[i]) * (y - p[i + 1])) / (p[j + 1] - p[i + 1]) + p[i]) c = !c;
  }
  return c;
}

/** Loops of a random scene: polygons that may overlap, nest or touch, mostly wound by their depth. */
function scene(seed: number, count: number, lattice: boolean): Loop[] {
  const r = rng(seed);
  const loops: Loop[] = [];
  for (let k = 0; k < count; k++) {
    if (lattice) {
      // squares on a coarse lattice: shared corners and edges happen
      loops.push(square(Math.floor(r() * 12) * 1000, Math.floor(r() * 12) * 1000, (1 + Math.floor(r() * 3)) * 1000));
    } else {
      loops.push(polygon(r() * 100_000, r() * 100_000, 500 + r() * 8000, 3 + Math.floor(r() * 30), false, r() * 6));
    }
  }
  // wind each loop by its depth among the others (a hole clockwise), with a few left wrong
  return loops.map((p, k) => {
    const depth = loops.filter((q, j) => j !== k && inside(p[0], p[1], q)).length;
    const wantCcw = r() < 0.95 ? depth % 2 === 0 : r() < 0.5;
    return wantCcw === area(p) > 0 ? p : reverse(p);
  });
}

function reverse(p: Loop): Loop {
  const q: Loop = [];
  for (let i = p.length - 2; i >= 0; i -= 2) q.push(p[i], p[i + 1]);
  return q;
}

test('the grid test agrees with the pairwise one on random scenes, touching and crossing ones included', () => {
  let clean = 0, total = 0;
  for (let seed = 1; seed <= 300; seed++) {
    const loops = scene(seed, 2 + (seed % 40), seed % 3 === 0);
    const grid = nestCleanLoops(loops);
    assert.equal(grid !== null, isCleanArea(loops), `seed ${seed}`);
    total++;
    if (grid === null) continue;
    clean++;
    // depths and parents as counted by brute force
    loops.forEach((p, k) => {
      const holders = loops.map((q, j) => j).filter((j) => j !== k && inside(p[0], p[1], loops[j]));
      assert.equal(grid.depth[k], holders.length, `seed ${seed} loop ${k}`);
      const innermost = holders.length ? holders.reduce((a, b) => (grid.depth[b] > grid.depth[a] ? b : a)) : -1;
      assert.equal(grid.parent[k], innermost, `seed ${seed} loop ${k}`);
    });
  }
  // both answers occur often enough for the comparison to mean something
  assert.ok(clean > 40 && total - clean > 40, `${clean} clean of ${total}`);
});

test('a plate of 2,000 holes and 100 concentric rings are clean and split into the islands Clipper2 finds', async () => {
  await initGeometry();
  const plate: Loop[] = [square(0, 0, 100_000)];
  for (let i = 0; i < 45; i++) for (let j = 0; j < 45; j++) if (plate.length <= 2000) plate.push(polygon(1100 + i * 2200, 1100 + j * 2200, 700, 24, true));
  const rings: Loop[] = [];
  for (let k = 0; k < 100; k++) rings.push(polygon(0, 0, 2000 + 1600 * k + 800, 64 + 4 * k), polygon(0, 0, 2000 + 1600 * k, 64 + 4 * k, true));
  for (const [name, loops] of [['plate', plate], ['rings', rings]] as const) {
    assert.ok(nestCleanLoops(loops), name);
    const ours = cleanIslands(loops);
    const clipper = islands(loops);
    const key = (isl: Loop[]) => `${isl.length}:${Math.round(isl.reduce((s, p) => s + area(p), 0))}`;
    assert.deepEqual(ours.map(key).sort(), clipper.map(key).sort(), name);
  }
});

test('many loops that touch, cross or are wound wrong are not clean, and a crowded layer gives up quickly', () => {
  const holes = (): Loop[] => {
    const loops: Loop[] = [square(0, 0, 100_000)];
    for (let i = 0; i < 10; i++) for (let j = 0; j < 10; j++) loops.push(square(1000 + i * 9000, 1000 + j * 9000, 5000, true));
    return loops;
  };
  assert.ok(nestCleanLoops(holes()));
  const touching = holes();
  touching.push(square(6000, 1000, 3000, true)); // shares an edge with the first hole
  assert.equal(nestCleanLoops(touching), null);
  const crossing = holes();
  crossing.push(square(5000, 5000, 3000, true)); // overlaps two holes
  assert.equal(nestCleanLoops(crossing), null);
  const wrong = holes();
  wrong[50] = reverse(wrong[50]); // a hole wound as an outline
  assert.equal(nestCleanLoops(wrong), null);
  const island = holes();
  island.push(square(2000, 2000, 1000)); // an island in a hole, counter-clockwise: clean, depth 2
  const n = nestCleanLoops(island);
  assert.ok(n);
  assert.equal(n.depth[101], 2);
  assert.equal(n.parent[101], 1);
  // 100 polygons of 2,000 corners over each other: crowded, so "not clean" (a union decides)
  const fans: Loop[] = [];
  for (let k = 0; k < 100; k++) fans.push(polygon(50_000, 50_000, 40_000, 2000, k % 2 === 1, k * 1e-4));
  assert.equal(nestCleanLoops(fans), null);
});

test('a few loops too crowded for the pairwise sweep (a spiral strip of 40 turns) are tested on the grid', () => {
  const inner: Loop = [], outer: Loop = [];
  for (let i = 0; i <= 40 * 96; i++) {
    const a = (2 * Math.PI * i) / 96, r = 2000 + (2800 * a) / (2 * Math.PI);
    inner.push(Math.round(r * Math.cos(a)), Math.round(r * Math.sin(a)));
    outer.push(Math.round((r + 2000) * Math.cos(a)), Math.round((r + 2000) * Math.sin(a)));
  }
  const spiral = [...inner, ...reverse(outer)];
  const loop = area(spiral) > 0 ? spiral : reverse(spiral);
  assert.equal(isCleanArea([loop]), true);
  assert.equal(isCleanArea([reverse(loop)]), false, 'wound the wrong way');
  // pushed onto itself: the strip's last turn overlaps the one before
  const squeezed = loop.map((v, i) => (i < 2 * 96 ? v * 1.9 : v));
  assert.equal(isCleanArea([squeezed]), false);
});

test('degenerate loops (repeated points, spikes folding back, a loop touching itself) get the pairwise answer', () => {
  const r = rng(77);
  const cases: Loop[][] = [];
  for (let k = 0; k < 200; k++) {
    // a clean scene to spoil (few loops, so most scenes are)
    let loops = scene(1000 + k, 3 + (k % 5), false);
    for (let s = 1; !isCleanArea(loops); s++) loops = scene(1000 + k + 7919 * s, 3 + (k % 5), false);
    const l = loops[k % loops.length];
    const v = 2 * Math.floor(r() * (l.length / 2));
    const kind = k % 4;
    if (kind === 0) l.splice(v, 0, l[v], l[v + 1]); // a repeated point
    if (kind === 1) l.splice(v + 2, 0, l[v] + 700, l[v + 1], l[v], l[v + 1]); // a spike out and back
    if (kind === 2) l.splice(v + 2, 0, ...l.slice(0, 2)); // back to the first point: the loop touches itself
    cases.push(loops);
  }
  let clean = 0;
  for (const [k, loops] of cases.entries()) {
    const ok = isCleanArea(loops);
    assert.equal(nestCleanLoops(loops) !== null, ok, `case ${k}`);
    if (ok) clean++;
  }
  // both answers occur
  assert.ok(clean > 20 && clean < 180, `${clean} of ${cases.length} clean`);
});
