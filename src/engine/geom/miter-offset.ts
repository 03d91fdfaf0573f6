// Miter offsets of clean areas without a polygon union, for the common case.
//
// Clipper2 offsets a closed path edge by edge and then unions the raw result. Wherever two offset
// edges overlap (every convex corner of a shrinking area, every reflex corner of a growing one) it
// routes the raw path through the corner's own vertex, so that each such corner leaves a small
// negative loop for the union to remove. On a layer's curved outlines that is nearly every vertex:
// shrinking a 400-gon circle took 536 µs there against 107 µs for growing it, and offsets were about
// 30 % of a warm slice (calibration cube, bridging plate, 3DBenchy).
//
// Here the offset is traced directly. Each edge moves out along its normal; where two moved edges
// overlap, their corner is the point where the two lines meet (for unit normals a and b and distance
// d: corner + (a + b)·d / (1 + a·b), the miter point), which is where the union would cut them.
// An edge whose two corners cut it away entirely before the full distance is reached (a short edge
// between sharp corners, every edge of a loop shrunk past its own width) drops out at the distance
// where its length reaches zero, and its neighbours meet from there on: the edges are followed as
// they shrink, in the order they vanish, as a straight skeleton's edge events are.
// A corner too sharp for a miter (past the miter limit, or a spike) that opens a gap gets a square
// join: it is cut square to its bisector, |d| from the corner, as Clipper2 cuts it. That cut is the
// moved line of an edge of no length at the corner whose normal is the bisector, so the corner
// becomes two milder ones around such an edge, and the rest follows as before.
// The result is taken only when it is plainly the offset: no corner where the moved edges overlap
// turns back on itself, no edge vanishes within 0.5 µm of the full distance, no two edges of the
// result meet, and each loop's orientation matches its nesting (isCleanArea), so no loops overlap or
// swallow each other. Anything else returns null and the caller offsets with Clipper2, as before.
import type { Paths } from '../types.js';
import { EventQueue } from './event-queue.js';
import { CleanAreaScratch, isCleanArea } from './simple-area.js';

/** Clipper2's threshold for a straight-through join (about 2.5°), kept so the two agree on which corners are mitred. */
const NEAR_STRAIGHT_COS = 0.999;
/** Two lines meeting at a smaller angle's sine give no trustworthy crossing point. */
const MIN_CROSSING_SIN = 1e-3;
/**
 * An edge that vanishes within this distance (µm) of the full offset is too close to call: whether it
 * survives as a point-short edge or a sliver is Clipper2's rounding to decide.
 */
const TOO_CLOSE_UM = 0.5;
/**
 * A loop of the result thinner than this on average (2·area / perimeter, µm) is left to Clipper2,
 * whose rounding to whole µm decides whether such a sliver survives.
 */
const MIN_MEAN_WIDTH_UM = 2;

let scratch: CleanAreaScratch | null = null;

/** Per-edge working arrays, grown as needed and reused from call to call. */
class Edges {
  cap = 0;
  sx = new Float64Array(0); // start point (an input point; a square join's edge starts and ends at its corner)
  sy = new Float64Array(0);
  dx = new Float64Array(0); // unit direction
  dy = new Float64Array(0);
  len = new Float64Array(0); // length at distance `at`
  at = new Float64Array(0);
  sin = new Float64Array(0); // the input corner at the edge's start: sine and cosine of its turn
  cos = new Float64Array(0);
  turn = new Float64Array(0); // signed turn at the start corner once it is a merged one (radians)
  cut = new Float64Array(0); // how fast the start corner shortens the edge: tan(|turn| / 2), negative where it lengthens it
  prev = new Int32Array(0);
  next = new Int32Array(0);
  stamp = new Int32Array(0); // changes each time the edge's vanishing distance does (stale queue entries)
  original = new Uint8Array(0); // the start corner is still the input's vertex
  /** edges by the distance they vanish at */
  readonly events = new EventQueue();
  /** what the loop being traced turned out to be: how many edges it has now (square joins add some) */
  count = 0;
  /** every corner cuts (or is straight): the offset is the intersection of the edges' half-planes */
  convex = true;
  /** every turn is to the left ... */
  allLeft = true;
  /** ... and the edge direction passes east (dy from < 0 to ≥ 0) this often: once for a convex counter-clockwise loop */
  eastward = 0;

  ensure(n: number): void {
    if (this.cap >= n) return;
    const c = Math.max(n, 2 * this.cap, 64);
    this.cap = c;
    this.sx = new Float64Array(c);
    this.sy = new Float64Array(c);
    this.dx = new Float64Array(c);
    this.dy = new Float64Array(c);
    this.len = new Float64Array(c);
    this.at = new Float64Array(c);
    this.sin = new Float64Array(c);
    this.cos = new Float64Array(c);
    this.turn = new Float64Array(c);
    this.cut = new Float64Array(c);
    this.prev = new Int32Array(c);
    this.next = new Int32Array(c);
    this.stamp = new Int32Array(c);
    this.original = new Uint8Array(c);
  }

  /** The distance at which edge e vanishes, given its corners now (Infinity if it never does). */
  vanishesAt(e: number): number {
    const rate = this.cut[e] + this.cut[this.next[e]];
    return rate > 0 ? this.at[e] + this.len[e] / rate : Infinity;
  }
}

const edges = new Edges();

/**
 * The miter offset of closed, positive-oriented areas by `delta` µm (negative shrinks), or null when
 * it is not plainly the union-free offset (see above). Points are rounded to whole µm, collinear
 * ones dropped, as in Clipper2's own result.
 */
export function miterOffsetWithoutUnion(paths: Paths, delta: number, miterLimit: number): Paths | null {
  if (!Number.isFinite(delta) || !(miterLimit > 0)) return null;
  // a corner is mitred while cos(angle between normals) > 2/limit² − 1, else Clipper2 squares it
  const minCos = miterLimit <= 1 ? 1 : 2 / (miterLimit * miterLimit) - 1;
  const out: Paths = [];
  let counted = 0;
  for (const p of paths) {
    const n = p.length >> 1;
    if (n < 3) continue;
    counted++;
    const loop = offsetLoop(p, n, delta, minCos);
    if (loop === null) return null;
    if (loop !== VANISHED) out.push(loop);
  }
  if (out.length === 0) return out;
  // a lone convex outline's offset is convex too, so it cannot cross itself
  if (out.length === 1 && counted === 1 && edges.allLeft && edges.eastward === 1) return out;
  scratch ??= new CleanAreaScratch();
  return isCleanArea(out, scratch) ? out : null;
}

const VANISHED: number[] = [];

/** The signed turn at the start corner of edge k, radians. */
function turnAt(k: number): number {
  return edges.original[k] ? Math.atan2(edges.sin[k], edges.cos[k]) : edges.turn[k];
}

/** Edge k's corners changed: its old queue entry goes stale, and a new one is pushed if it still vanishes in time. */
function requeue(k: number, dist: number): void {
  edges.stamp[k]++;
  const t = edges.vanishesAt(k);
  if (t < dist + TOO_CLOSE_UM) edges.events.push(t, k, edges.stamp[k]);
}

/** One loop's offset: its points, VANISHED when the loop shrinks away, null when a union must decide. */
function offsetLoop(p: number[], n: number, delta: number, minCos: number): number[] | null {
  const queued = setUpCorners(p, n, delta, minCos);
  if (queued < 0) return null;
  let start = 0;
  if (queued > 0) {
    start = collapseEdges(p, delta);
    if (start === GONE) return VANISHED;
    if (start < 0) return null;
  }
  const pts = tracePoints(start, delta);
  return pts === null ? null : dropCollinear(pts);
}

/**
 * Fills the edge arrays for one loop and sorts out its corners: −1 when a corner folds straight back or
 * fewer than three distinct points remain; else how many edges vanish before the full distance (queued).
 */
function setUpCorners(p: number[], n: number, delta: number, minCos: number): number {
  const E = edges;
  E.ensure(2 * n);
  // the edge into corner 0 (the closing edge; repeated points, as Clipper2 drops them, are skipped)
  let last = n - 1;
  while (last > 0 && p[2 * last] === p[0] && p[2 * last + 1] === p[1]) last--;
  let hx = p[0] - p[2 * last], hy = p[1] - p[2 * last + 1];
  const hl = Math.sqrt(hx * hx + hy * hy);
  if (hl === 0) return -1;
  hx /= hl;
  hy /= hl;
  E.convex = true;
  E.allLeft = true;
  E.eastward = 0;
  let m = 0;
  for (let i = 0; i < n; i++) {
    const j = i + 1 < n ? i + 1 : 0;
    const fx = p[2 * j] - p[2 * i], fy = p[2 * j + 1] - p[2 * i + 1];
    const l = Math.sqrt(fx * fx + fy * fy);
    if (l === 0) continue; // a repeated point: the corner is the next point's
    const ux = fx / l, uy = fy / l;
    const sin = hx * uy - hy * ux;
    const cos = hx * ux + hy * uy;
    const gap = sin * delta >= 0;
    if (cos <= -NEAR_STRAIGHT_COS && sin === 0) return -1; // a fold
    if (gap && cos <= NEAR_STRAIGHT_COS && cos <= minCos) {
      // a square join: an edge of no length whose normal is the corner's bisector, on the gap's side
      let vx = hx - ux, vy = hy - uy;
      const vl = Math.sqrt(vx * vx + vy * vy);
      vx /= vl;
      vy /= vl;
      if (delta < 0) {
        vx = -vx;
        vy = -vy;
      }
      // the edge's direction is its normal turned a quarter to the left
      addEdge(m++, p[2 * i], p[2 * i + 1], -vy, vx, 0, hx, hy, delta);
      addEdge(m++, p[2 * i], p[2 * i + 1], ux, uy, l, -vy, vx, delta);
    } else {
      addEdge(m++, p[2 * i], p[2 * i + 1], ux, uy, l, hx, hy, delta);
    }
    hx = ux;
    hy = uy;
  }
  if (m < 3) return -1;
  const { prev, next } = E;
  for (let k = 0; k < m; k++) {
    prev[k] = k === 0 ? m - 1 : k - 1;
    next[k] = k + 1 < m ? k + 1 : 0;
  }
  E.count = m;
  // edges that vanish before the full distance drop out, earliest first
  const dist = Math.abs(delta);
  // each edge is queued once here and at most twice per vanished neighbour
  E.events.reset(3 * m);
  for (let k = 0; k < m; k++) {
    const t = E.vanishesAt(k);
    if (t < dist + TOO_CLOSE_UM) E.events.push(t, k, 0);
  }
  return E.events.size;
}

/** Stores edge k (start point, unit direction, length) and its start corner, coming from direction (hx, hy). */
function addEdge(k: number, x: number, y: number, ux: number, uy: number, l: number, hx: number, hy: number, delta: number): void {
  const E = edges;
  E.sx[k] = x;
  E.sy[k] = y;
  E.dx[k] = ux;
  E.dy[k] = uy;
  E.len[k] = l;
  E.at[k] = 0;
  E.stamp[k] = 0;
  E.original[k] = 1;
  const sin = hx * uy - hy * ux;
  const cos = hx * ux + hy * uy;
  E.sin[k] = sin;
  E.cos[k] = cos;
  // the moved edges overlap (the corner cuts both) when the turn is against the offset's side
  const overlapping = sin * delta < 0;
  const cut = Math.abs(sin) / (1 + cos); // tan(|turn| / 2)
  E.cut[k] = overlapping ? cut : -cut;
  if (!overlapping && sin !== 0) E.convex = false;
  if (sin < 0) E.allLeft = false;
  if (hy < 0 && uy >= 0) E.eastward++;
}

/** collapseEdges' answer when the whole loop shrinks away. */
const GONE = -2;

/**
 * Drops the queued edges in the order they vanish, joining their neighbours: an edge still there
 * (to start the trace from), GONE, or −1 when a union must decide.
 */
function collapseEdges(p: number[], delta: number): number {
  const E = edges;
  const { len, at, turn, cut, prev, next, stamp, original, events } = E;
  const dist = Math.abs(delta);
  let alive = E.count;
  let start = 0;
  while (events.size > 0) {
    events.pop();
    const { t, edge: e } = events.popped;
    if (events.popped.stamp !== stamp[e] || prev[e] < 0) continue;
    if (t > dist - TOO_CLOSE_UM) return -1;
    if (alive <= 3) return shrinksAway(p, delta) ? GONE : -1;
    const a = prev[e], b = next[e];
    // bring both neighbours to distance t with their old corners, then join them
    len[a] -= (t - at[a]) * (cut[a] + cut[e]);
    at[a] = t;
    len[b] -= (t - at[b]) * (cut[b] + cut[next[b]]);
    at[b] = t;
    const merged = turnAt(e) + turnAt(b);
    if (Math.abs(merged) >= Math.PI) {
      // the two edges have turned past facing each other: a convex loop is gone; anywhere else a
      // part of the loop pinches off, which a union must settle
      return E.convex && shrinksAway(p, delta) ? GONE : -1;
    }
    if (!(merged * delta < 0)) return -1; // the joined corner opens a gap: a miter join, not a cut
    turn[b] = merged;
    cut[b] = Math.tan(Math.abs(merged) / 2);
    original[b] = 0;
    next[a] = b;
    prev[b] = a;
    prev[e] = -1;
    alive--;
    start = b;
    requeue(a, dist);
    requeue(b, dist);
  }
  E.count = alive;
  return start;
}

/** The corner at the start of each remaining edge, rounded; null where two moved lines barely cross. */
function tracePoints(start: number, delta: number): number[] | null {
  const { sx, sy, dx, dy, turn, prev, next, original, count } = edges;
  const pts: number[] = new Array(2 * count);
  let i = start;
  let o = 0;
  do {
    const h = prev[i];
    let x: number, y: number;
    if (original[i]) {
      // the miter point of two edges that meet at the input point
      const ax = dy[h], ay = -dx[h];
      const bx = dy[i], by = -dx[i];
      const f = delta / (1 + ax * bx + ay * by);
      x = sx[i] + (ax + bx) * f;
      y = sy[i] + (ay + by) * f;
    } else {
      if (Math.abs(Math.sin(turn[i])) < MIN_CROSSING_SIN) return null;
      // where the moved lines of edges h and i cross (each through its start point, moved out)
      const hx = sx[h] + dy[h] * delta, hy = sy[h] - dx[h] * delta;
      const ix = sx[i] + dy[i] * delta, iy = sy[i] - dx[i] * delta;
      const s = ((ix - hx) * dy[i] - (iy - hy) * dx[i]) / (dx[h] * dy[i] - dy[h] * dx[i]);
      x = hx + s * dx[h];
      y = hy + s * dy[h];
    }
    pts[o++] = Math.round(x);
    pts[o++] = Math.round(y);
    i = next[i];
  } while (i !== start);
  return pts;
}

/** Whether an offset by delta shrinks the loop (an outline shrinking, a hole closing up) rather than growing it. */
function shrinksAway(p: number[], delta: number): boolean {
  let a = 0;
  const n = p.length;
  for (let i = 0; i < n; i += 2) {
    const j = i + 2 === n ? 0 : i + 2;
    a += p[i] * p[j + 1] - p[j] * p[i + 1];
  }
  return a * delta < 0;
}

/** The points without repeated or collinear ones; null if the loop folds back on itself or too few remain. */
function dropCollinear(pts: number[]): number[] | null {
  const n = pts.length >> 1;
  const keep: number[] = [];
  let hx = pts[2 * n - 2], hy = pts[2 * n - 1];
  for (let i = 0; i < n; i++) {
    const j = i + 1 < n ? i + 1 : 0;
    const x = pts[2 * i], y = pts[2 * i + 1];
    const ux = x - hx, uy = y - hy;
    const vx = pts[2 * j] - x, vy = pts[2 * j + 1] - y;
    if ((ux === 0 && uy === 0) || (vx === 0 && vy === 0)) return null;
    if (ux * vy - uy * vx !== 0) {
      keep.push(x, y);
      hx = x;
      hy = y;
    } else if (ux * vx + uy * vy < 0) {
      return null; // folds back on itself
    }
  }
  return keep.length >= 6 && !isSliver(keep) ? keep : null;
}

function isSliver(p: number[]): boolean {
  // twice the area against the perimeter measured along x and y (no square roots, and never shorter
  // than the true perimeter): the exact test is needed only for loops this one cannot clear
  let area2 = 0;
  let manhattan = 0;
  const n = p.length;
  for (let i = 0; i < n; i += 2) {
    const j = i + 2 === n ? 0 : i + 2;
    area2 += p[i] * p[j + 1] - p[j] * p[i + 1];
    manhattan += Math.abs(p[j] - p[i]) + Math.abs(p[j + 1] - p[i + 1]);
  }
  if (Math.abs(area2) >= MIN_MEAN_WIDTH_UM * manhattan) return false;
  let perimeter = 0;
  for (let i = 0; i < n; i += 2) {
    const j = i + 2 === n ? 0 : i + 2;
    perimeter += Math.hypot(p[j] - p[i], p[j + 1] - p[i + 1]);
  }
  return Math.abs(area2) < MIN_MEAN_WIDTH_UM * perimeter;
}
