// The clean-area test's sweep sorts its edges by merging monotone runs (run-sort.ts): checked
// against TypedArray.prototype.sort, and the whole test against a plain all-pairs check.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RunSortScratch, sortRuns } from '../src/engine/geom/run-sort.js';
import { isCleanArea } from '../src/engine/geom/simple-area.js';
import { loopArea, orient, segmentsMeet } from '../src/engine/geom/exact.js';
import { rng } from './mesh-fixtures.js';

test('sortRuns sorts like TypedArray sort, whatever the runs', () => {
  const rand = rng(7);
  const scratch = new RunSortScratch();
  for (let trial = 0; trial < 500; trial++) {
    const n = trial < 20 ? trial : 1 + Math.floor(rand() * (trial % 7 === 0 ? 5000 : 300));
    const a = new Float64Array(n);
    // a few rising and falling stretches, sometimes with repeated values and noise
    let v = rand() * 1e6;
    let step = 0;
    for (let i = 0; i < n; i++) {
      if (i === 0 || rand() < 0.05) step = (rand() - 0.5) * 1000 * (trial % 3 === 0 ? Math.round(rand()) : 1);
      v += step + (trial % 5 === 0 ? (rand() - 0.5) * 3000 : 0);
      a[i] = trial % 4 === 0 ? Math.round(v / 100) : v;
    }
    const want = Float64Array.from(a).sort();
    const keys = new Float64Array(n + 3).fill(-1);
    keys.set(a);
    const got = sortRuns(keys, n, scratch);
    assert.deepEqual(Array.from(got.subarray(0, n)), Array.from(want), `trial ${trial}`);
  }
});

/** The clean-area rule, pair by pair: no two edges meet except neighbours at their shared point (not folding back), nesting matches orientation. */
function cleanByPairs(loops: number[][]): boolean {
  const edges: Array<{ l: number; i: number; n: number; ax: number; ay: number; bx: number; by: number }> = [];
  loops.forEach((p, l) => {
    const n = p.length >> 1;
    for (let i = 0; i < n; i++) {
      const j = (i + 1) % n;
      edges.push({ l, i, n, ax: p[2 * i], ay: p[2 * i + 1], bx: p[2 * j], by: p[2 * j + 1] });
    }
  });
  for (let u = 0; u < edges.length; u++) {
    for (let v = u + 1; v < edges.length; v++) {
      const e = edges[u];
      const f = edges[v];
      const next = e.l === f.l && (e.i + 1) % e.n === f.i;
      const prev = e.l === f.l && (f.i + 1) % f.n === e.i;
      if (next && prev) return false; // a two-point loop
      if (next || prev) {
        // the shared point m, e's far end o and f's far end q: folding back when o, m, q are collinear with o and q on one side
        const [ox, oy, mx, my, qx, qy] = next ? [e.ax, e.ay, e.bx, e.by, f.bx, f.by] : [f.ax, f.ay, f.bx, f.by, e.bx, e.by];
        if (orient(ox, oy, mx, my, qx, qy) === 0 && (ox - mx) * (qx - mx) + (oy - my) * (qy - my) > 0) return false;
        continue;
      }
      if (segmentsMeet(e.ax, e.ay, e.bx, e.by, f.ax, f.ay, f.bx, f.by)) return false;
    }
  }
  for (let a = 0; a < loops.length; a++) {
    const [x, y] = loops[a];
    let depth = 0;
    for (let b = 0; b < loops.length; b++) {
      if (b === a) continue;
      const p = loops[b];
      let c = false;
      for (let i = 0, j = p.length - 2; i < p.length; j = i, i += 2) {
        if (p[i + 1] > y !== p[j + 1] > y && x < ((p[j] - p[i]) * (y - p[i + 1])) / (p[j + 1] - p[i + 1]) + p[i]) c = !c;
      }
      if (c) depth++;
    }
    if (loopArea(loops[a]) > 0 !== (depth % 2 === 0)) return false;
  }
  return true;
}

/** A wobbly loop around (cx, cy): radius r ± wobble, on a coarse grid so that edges often touch or overlap exactly. */
function wobbly(rand: () => number, cx: number, cy: number, r: number, n: number, wobble: number, grid: number, cw: boolean): number[] {
  const p: number[] = [];
  for (let k = 0; k < n; k++) {
    const t = ((cw ? -1 : 1) * 2 * Math.PI * k) / n;
    const rr = r + (rand() - 0.5) * 2 * wobble;
    p.push(Math.round((cx + rr * Math.cos(t)) / grid) * grid, Math.round((cy + rr * Math.sin(t)) / grid) * grid);
  }
  return p;
}

test('isCleanArea agrees with the all-pairs check on random loops, clean and not', () => {
  const rand = rng(11);
  let clean = 0;
  let dirty = 0;
  for (let trial = 0; trial < 1500; trial++) {
    const grid = trial % 3 === 0 ? 50 : 1;
    const loops: number[][] = [];
    const outer = 3 + Math.floor(rand() * 120);
    loops.push(wobbly(rand, 0, 0, 10_000, outer, trial % 2 === 0 ? 1_000 : 9_000, grid, false));
    const holes = Math.floor(rand() * 4);
    for (let h = 0; h < holes; h++) {
      const cx = (rand() - 0.5) * 10_000;
      const cy = (rand() - 0.5) * 10_000;
      loops.push(wobbly(rand, cx, cy, 500 + rand() * 3_000, 3 + Math.floor(rand() * 40), 300, grid, rand() < 0.9));
    }
    if (rand() < 0.2) loops.push(wobbly(rand, 30_000 * rand(), 0, 4_000, 12, 500, grid, false));
    const want = cleanByPairs(loops);
    assert.equal(isCleanArea(loops), want, `trial ${trial}`);
    if (want) clean++;
    else dirty++;
  }
  assert.ok(clean > 100 && dirty > 100, `both kinds tried: ${clean} clean, ${dirty} not`);
});
