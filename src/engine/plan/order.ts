// The order paths are printed in, and where each one starts.
import type { ExtrusionPath } from '../types.js';
import { chooseSeam, type SeamContext } from './seam.js';
import { hyp } from './length.js';
import { BoxGrid, type Box } from './box-grid.js';

/** One path to print: closed loops start at vertex `start`; open paths run backwards when `reverse`. */
export interface Visit {
  path: ExtrusionPath;
  start: number;
  reverse: boolean;
}

/** The point a visit ends at. */
export function visitEnd(v: Visit): [number, number] {
  const p = v.path.points;
  if (v.path.closed) return [p[2 * v.start], p[2 * v.start + 1]];
  const i = v.reverse ? 0 : (p.length >> 1) - 1;
  return [p[2 * i], p[2 * i + 1]];
}

/** The point a visit starts at. */
export function visitStart(v: Visit): [number, number] {
  const p = v.path.points;
  return [p[2 * v.start], p[2 * v.start + 1]];
}

function nearestVertex(p: number[], x: number, y: number): number {
  let best = 0, bd = Infinity;
  for (let i = 0; i < p.length; i += 2) {
    const d = (p[i] - x) ** 2 + (p[i + 1] - y) ** 2;
    if (d < bd) {
      bd = d;
      best = i >> 1;
    }
  }
  return best;
}

/** Below this many paths the plain search over every end is faster than building a grid. */
const PLAIN_ORDER_MAX = 64;

/**
 * Nearest-neighbour order of paths from (x, y): open paths enter at either end, closed ones at
 * their nearest vertex (infill and gap fill may hold closed loops too). The next path is the one
 * with the nearest end (a closed path's end is its first vertex); ties go to the path listed
 * first, and within a path to its start.
 */
export function orderNearest(paths: ExtrusionPath[], x: number, y: number): Visit[] {
  return paths.length <= PLAIN_ORDER_MAX ? orderNearestPlain(paths, x, y) : orderNearestGrid(paths, x, y);
}

/** The visit of `path` entered at its start, or at its end when `reverse`, from (x, y). */
function enter(path: ExtrusionPath, reverse: boolean, x: number, y: number): Visit {
  if (path.closed) return { path, start: nearestVertex(path.points, x, y), reverse: false };
  return { path, start: reverse ? (path.points.length >> 1) - 1 : 0, reverse };
}

function orderNearestPlain(paths: ExtrusionPath[], x: number, y: number): Visit[] {
  const n = paths.length;
  const out: Visit[] = [];
  const done = new Uint8Array(n);
  for (let step = 0; step < n; step++) {
    let best = -1, bestD = Infinity, bestRev = false;
    for (let i = 0; i < n; i++) {
      if (done[i]) continue;
      const p = paths[i].points, k = p.length;
      const d0 = (p[0] - x) ** 2 + (p[1] - y) ** 2;
      const d1 = paths[i].closed ? Infinity : (p[k - 2] - x) ** 2 + (p[k - 1] - y) ** 2;
      if (d0 < bestD) {
        bestD = d0;
        best = i;
        bestRev = false;
      }
      if (d1 < bestD) {
        bestD = d1;
        best = i;
        bestRev = true;
      }
    }
    done[best] = 1;
    const v = enter(paths[best], bestRev, x, y);
    out.push(v);
    [x, y] = visitEnd(v);
  }
  return out;
}

/**
 * The same order over a grid of path ends, so a layer of thousands of gap-fill or infill lines is
 * not quadratic (a plate with 2,000 holes spent 0.6 s here searching every end on every step).
 * End 2i is path i's start, 2i + 1 its end; the grid's ties (squared distance, then the lower
 * entry) give exactly the plain search's choice.
 */
function orderNearestGrid(paths: ExtrusionPath[], x: number, y: number): Visit[] {
  const n = paths.length;
  const ends = new Float64Array(n * 4);
  const boxes: Box[] = [];
  for (let i = 0; i < n; i++) {
    const p = paths[i].points, k = p.length;
    ends[4 * i] = p[0];
    ends[4 * i + 1] = p[1];
    ends[4 * i + 2] = p[k - 2];
    ends[4 * i + 3] = p[k - 1];
    boxes.push([p[0], p[1], p[0], p[1]], [p[k - 2], p[k - 1], p[k - 2], p[k - 1]]);
  }
  const grid = new BoxGrid(boxes);
  for (let i = 0; i < n; i++) if (paths[i].closed) grid.remove(2 * i + 1);
  let qx = x, qy = y;
  const squared = (e: number) => (ends[2 * e] - qx) ** 2 + (ends[2 * e + 1] - qy) ** 2;
  const out: Visit[] = [];
  for (let step = 0; step < n; step++) {
    const e = grid.nearest(qx, qy, (k) => Math.sqrt(squared(k)), 1, squared);
    const i = e >> 1;
    grid.remove(2 * i);
    grid.remove(2 * i + 1);
    const v = enter(paths[i], (e & 1) === 1, qx, qy);
    out.push(v);
    [qx, qy] = visitEnd(v);
  }
  return out;
}

/**
 * Monotonic order of parallel skin lines: a line is printed only after every line beside it on
 * the lower-offset side that it overlaps, so neighbouring beads always overlap the same way and
 * the surface looks even. Among the lines free to go, the nearest end is taken next.
 */
export function orderMonotonic(lines: ExtrusionPath[], x: number, y: number): Visit[] {
  const n = lines.length;
  if (n <= 1) return orderNearest(lines, x, y);
  // the common direction, from the longest line
  let dx = 0, dy = 0, bestLen = -1;
  for (const l of lines) {
    const p = l.points, k = p.length;
    const len = hyp(p[k - 2] - p[0], p[k - 1] - p[1]);
    if (len > bestLen) {
      bestLen = len;
      dx = p[k - 2] - p[0];
      dy = p[k - 1] - p[1];
    }
  }
  if (bestLen <= 0 || lines.some((l) => l.closed)) return orderNearest(lines, x, y);
  dx /= bestLen;
  dy /= bestLen;
  const off = new Float64Array(n), lo = new Float64Array(n), hi = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const p = lines[i].points, k = p.length;
    off[i] = (((p[0] + p[k - 2]) / 2) * -dy) + ((p[1] + p[k - 1]) / 2) * dx;
    const a = p[0] * dx + p[1] * dy, b = p[k - 2] * dx + p[k - 1] * dy;
    lo[i] = Math.min(a, b);
    hi[i] = Math.max(a, b);
  }
  const byOff = Array.from({ length: n }, (_, i) => i).sort((a, b) => off[a] - off[b]);
  // neighbours: a line and the overlapping lines one spacing to either side (within 1.5 widths);
  // going up, a line waits for its lower neighbours, going down for its upper ones
  const waitUp = new Int32Array(n), waitDown = new Int32Array(n);
  const above: number[][] = Array.from({ length: n }, () => []);
  const below: number[][] = Array.from({ length: n }, () => []);
  for (let bi = 0; bi < n; bi++) {
    const b = byOff[bi];
    const w = lines[b].width;
    for (let ai = bi - 1; ai >= 0; ai--) {
      const a = byOff[ai];
      const gap = off[b] - off[a];
      if (gap > 1.5 * w) break;
      if (gap < 0.5 * w) continue;
      if (Math.min(hi[a], hi[b]) - Math.max(lo[a], lo[b]) > 0) {
        waitUp[b]++;
        waitDown[a]++;
        above[a].push(b);
        below[b].push(a);
      }
    }
  }
  // either direction across the lines is monotonic: take the one whose first line is nearer
  const firstGap = (wait: Int32Array) => {
    let best = Infinity;
    for (let i = 0; i < n; i++) {
      if (wait[i] > 0) continue;
      const p = lines[i].points, k = p.length;
      best = Math.min(best, (p[0] - x) ** 2 + (p[1] - y) ** 2, (p[k - 2] - x) ** 2 + (p[k - 1] - y) ** 2);
    }
    return best;
  };
  const up = firstGap(waitUp) <= firstGap(waitDown);
  const blockers = up ? waitUp : waitDown;
  const blocks = up ? above : below;
  // the lines free to go (nothing left to wait for): a small frontier, so the search stays cheap
  const free: number[] = [];
  for (let i = 0; i < n; i++) if (blockers[i] === 0) free.push(i);
  const out: Visit[] = [];
  for (let step = 0; step < n; step++) {
    if (free.length === 0) {
      // a waiting cycle cannot happen for offsets that strictly increase, but never loop forever:
      // release the line waiting for the fewest
      let j = -1;
      for (let i = 0; i < n; i++) if (blockers[i] > 0 && (j < 0 || blockers[i] < blockers[j])) j = i;
      blockers[j] = 0;
      free.push(j);
    }
    let bestK = 0, bestD = Infinity, bestRev = false;
    for (let k = 0; k < free.length; k++) {
      const p = lines[free[k]].points, m = p.length;
      const d0 = (p[0] - x) ** 2 + (p[1] - y) ** 2;
      const d1 = (p[m - 2] - x) ** 2 + (p[m - 1] - y) ** 2;
      if (d0 < bestD) {
        bestD = d0;
        bestK = k;
        bestRev = false;
      }
      if (d1 < bestD) {
        bestD = d1;
        bestK = k;
        bestRev = true;
      }
    }
    const best = free[bestK];
    free[bestK] = free[free.length - 1];
    free.pop();
    blockers[best] = -1; // done (later decrements only take it further below zero)
    for (const b of blocks[best]) if (--blockers[b] === 0) free.push(b);
    const path = lines[best];
    const v: Visit = { path, start: bestRev ? (path.points.length >> 1) - 1 : 0, reverse: bestRev };
    out.push(v);
    [x, y] = visitEnd(v);
  }
  return out;
}

/**
 * Closed loops (or any paths) in nearest-neighbour order, each starting at its seam. Seams that do
 * not depend on the nozzle position are chosen once per loop.
 */
export function orderLoops(loops: ExtrusionPath[], seam: SeamContext, x: number, y: number): Visit[] {
  const out: Visit[] = [];
  const fixed = seam.mode !== 'shortest';
  const left = loops.map((path) => ({ path, seam: fixed && path.closed ? chooseSeam(path.points, seam, x, y) : -1 }));
  while (left.length) {
    let best = 0, bestD = Infinity, bestStart = 0;
    for (let i = 0; i < left.length; i++) {
      const { path, seam: fixedSeam } = left[i];
      const p = path.points;
      let s: number;
      let d: number;
      if (!path.closed) {
        const k = p.length;
        d = Math.min((p[0] - x) ** 2 + (p[1] - y) ** 2, (p[k - 2] - x) ** 2 + (p[k - 1] - y) ** 2);
        s = 0;
      } else {
        s = fixedSeam >= 0 ? fixedSeam : chooseSeam(p, seam, x, y);
        d = (p[2 * s] - x) ** 2 + (p[2 * s + 1] - y) ** 2;
      }
      if (d < bestD) {
        bestD = d;
        best = i;
        bestStart = s;
      }
    }
    const path = left.splice(best, 1)[0].path;
    out.push(path.closed ? { path, start: bestStart, reverse: false } : orderNearest([path], x, y)[0]);
    [x, y] = visitEnd(out[out.length - 1]);
  }
  return out;
}
