// Deciding whether a layer's loops already form a clean area, so the polygon union can be skipped
// (it is the slicer's most expensive step, and a closed, well-formed mesh needs it only rarely).
// The loops qualify when no two edges cross or touch (except neighbours meeting at their shared
// point, and those must not fold back onto each other) and each loop's orientation matches its
// nesting depth: outer contours counter-clockwise, holes in them clockwise, islands in holes
// counter-clockwise again. Anything doubtful answers false and the caller unions.
import { loopArea, orient, segmentsMeet } from './exact.js';
import { nestCleanLoops } from './loop-nesting.js';
import { RunSortScratch, sortRuns } from './run-sort.js';

/** Above this many loops the pairwise nesting test (quadratic) gives way to loop-nesting.ts's grid. */
const MAX_LOOPS = 64;
/** Coordinates must stay within this range so that products of differences are exact doubles. */
const MAX_SPAN = 1 << 25;

/** Even-odd point-in-polygon for a point known not to lie on the polygon's boundary. */
function inside(x: number, y: number, p: number[]): boolean {
  let c = false;
  const n = p.length;
  for (let i = 0, j = n - 2; i < n; j = i, i += 2) {
    const yi = p[i + 1];
    const yj = p[j + 1];
    if (yi > y !== yj > y && x < ((p[j] - p[i]) * (y - yi)) / (yj - yi) + p[i]) c = !c;
  }
  return c;
}

/** Edges per layer fit in this many bits of a sort key (the left x fills the bits above). */
const INDEX_BITS = 2 ** 21;

/** Buffers reused from layer to layer. */
export class CleanAreaScratch {
  /** all points, flat; edge e runs from point e to point nxt[e] */
  P = new Float64Array(2048);
  nxt = new Int32Array(1024);
  sortKey = new Float64Array(1024);
  active = new Int32Array(1024);
  /** per edge: its right end's x and its y range, so the sweep's inner loop reads them in one place */
  xMax = new Float64Array(1024);
  yMin = new Float64Array(1024);
  yMax = new Float64Array(1024);
  runs = new RunSortScratch();
  /** per loop: min x, min y, max x, max y */
  box = new Float64Array(4 * MAX_LOOPS);

  ensure(total: number): void {
    if (this.nxt.length >= total) return;
    let cap = this.nxt.length;
    while (cap < total) cap *= 2;
    this.P = new Float64Array(2 * cap);
    this.nxt = new Int32Array(cap);
    this.sortKey = new Float64Array(cap);
    this.active = new Int32Array(cap);
    this.xMax = new Float64Array(cap);
    this.yMin = new Float64Array(cap);
    this.yMax = new Float64Array(cap);
  }
}

/** Copies the loops into the scratch arrays; returns the coordinate range (max − min over x and y). */
function copyLoops(loops: number[][], s: CleanAreaScratch): { lo: number; span: number } {
  const { P, nxt, box } = s;
  let lo = Infinity;
  let hi = -Infinity;
  let e = 0;
  for (let l = 0; l < loops.length; l++) {
    const p = loops[l];
    const first = e;
    const n = p.length >> 1;
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (let k = 0; k < n; k++, e++) {
      const x = p[2 * k];
      const y = p[2 * k + 1];
      P[2 * e] = x;
      P[2 * e + 1] = y;
      nxt[e] = k + 1 < n ? e + 1 : first;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
    box[4 * l] = x0;
    box[4 * l + 1] = y0;
    box[4 * l + 2] = x1;
    box[4 * l + 3] = y1;
    lo = Math.min(lo, x0, y0);
    hi = Math.max(hi, x1, y1);
  }
  return { lo, span: hi - lo };
}

/**
 * Sweep over edges sorted by their left end: true if any two edges meet, other than neighbours at
 * their shared point (neighbours that fold back along each other do count); 'crowded' when the edges
 * beside each other across the sweep are too many to check this way.
 */
function anyEdgesMeet(total: number, lo: number, s: CleanAreaScratch): boolean | 'crowded' {
  const { P, nxt, sortKey, active, xMax, yMin, yMax } = s;
  for (let k = 0; k < total; k++) {
    const x0 = P[2 * k], y0 = P[2 * k + 1];
    const x1 = P[2 * nxt[k]], y1 = P[2 * nxt[k] + 1];
    sortKey[k] = ((x0 < x1 ? x0 : x1) - lo) * INDEX_BITS + k;
    xMax[k] = x0 < x1 ? x1 : x0;
    yMin[k] = y0 < y1 ? y0 : y1;
    yMax[k] = y0 < y1 ? y1 : y0;
  }
  // keys are distinct (the edge index is in their low bits), so the order is the same as any sort's
  const keys = sortRuns(sortKey, total, s.runs);
  let nActive = 0;
  let budget = 40 * total + 1000;
  for (let q = 0; q < total; q++) {
    const key = keys[q];
    const g = key - Math.floor(key / INDEX_BITS) * INDEX_BITS;
    const ax = P[2 * g], ay = P[2 * g + 1];
    const bx = P[2 * nxt[g]], by = P[2 * nxt[g] + 1];
    const sxmin = ax < bx ? ax : bx;
    const symin = yMin[g];
    const symax = yMax[g];
    let w = 0;
    for (let k = 0; k < nActive; k++) {
      const a = active[k];
      if (xMax[a] < sxmin) continue; // ends left of the sweep: retire it
      active[w++] = a;
      if (--budget < 0) return 'crowded'; // too many edges side by side for this sweep
      if (symax < yMin[a] || yMax[a] < symin) continue;
      const cx = P[2 * a], cy = P[2 * a + 1];
      const dx = P[2 * nxt[a]], dy = P[2 * nxt[a] + 1];
      if (nxt[a] === g || nxt[g] === a) {
        // neighbours share one point; they are fine unless they fold back along each other
        if (nxt[nxt[g]] === g) return true; // a two-point loop
        const shared = nxt[a] === g; // the shared point is g's start
        const ox = shared ? cx : dx; // the neighbour's far end
        const oy = shared ? cy : dy;
        const mx = shared ? ax : bx;
        const my = shared ? ay : by;
        const fx = shared ? bx : ax; // this edge's far end
        const fy = shared ? by : ay;
        if (orient(ox, oy, mx, my, fx, fy) === 0 && (ox - mx) * (fx - mx) + (oy - my) * (fy - my) > 0) return true;
        continue;
      }
      if (segmentsMeet(ax, ay, bx, by, cx, cy, dx, dy)) return true;
    }
    nActive = w;
    active[nActive++] = g;
  }
  return false;
}

/** True when `loops` (integer µm, closed) are a clean area as they are: no union needed. */
export function isCleanArea(loops: number[][], scratch: CleanAreaScratch = new CleanAreaScratch()): boolean {
  if (loops.length === 0) return true;
  if (loops.length > MAX_LOOPS) return nestCleanLoops(loops) !== null;
  let total = 0;
  for (const p of loops) total += p.length >> 1;
  if (total >= INDEX_BITS) return false;
  scratch.ensure(total);
  const { lo, span } = copyLoops(loops, scratch);
  if (!(span <= MAX_SPAN)) return false;
  const meet = anyEdgesMeet(total, lo, scratch);
  // many edges across the sweep (a spiral, rings): the grid test, which does not mind them
  if (meet === 'crowded') return nestCleanLoops(loops) !== null;
  if (meet) return false;
  // no edges meet, so each loop's first point is strictly inside or outside every other loop
  const box = scratch.box;
  for (let a = 0; a < loops.length; a++) {
    const x = loops[a][0];
    const y = loops[a][1];
    let depth = 0;
    for (let b = 0; b < loops.length; b++) {
      if (b === a || x < box[4 * b] || y < box[4 * b + 1] || x > box[4 * b + 2] || y > box[4 * b + 3]) continue;
      if (inside(x, y, loops[b])) depth++;
    }
    const ccw = loopArea(loops[a]) > 0;
    if (ccw !== (depth % 2 === 0)) return false;
  }
  return true;
}
