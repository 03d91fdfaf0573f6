// Chaining a layer's segments into polylines by their edge keys: two segment ends with the same key
// are the same point of the cross-section. Walks are undirected (a flipped triangle's segment still
// joins its neighbours); each chain is then oriented by the length-weighted majority of its
// segments, so one flipped triangle cannot turn an outline into a hole. Where more than two ends
// share a key (non-manifold edges), a partner that keeps the direction consistent is preferred.
import type { SegmentBuffer } from './segments.js';
import { firstOfEqual, probeBudget } from '../mesh/first-of-equal.js';

/** A chain that could not be closed through shared edges, oriented like the loops. */
export interface OpenChain {
  /** flat [x0, y0, …] in µm */
  points: number[];
  /** edge keys (vertex indices, lower first) of its first and last point */
  headLo: number;
  headHi: number;
  tailLo: number;
  tailHi: number;
}

/**
 * The chains of one layer. Closed loops are stored back to back in `points` (flat x, y in µm, not
 * rounded; the first point is not repeated): loop i spans points[loopStart[i] .. loopStart[i + 1]).
 */
export interface Chains {
  points: Float64Array;
  loopStart: number[];
  open: OpenChain[];
  /**
   * true when every edge key had exactly one segment starting and one ending there: the layer's
   * loops then follow the mesh's own orientation with no repair (see geom/simple-area.ts)
   */
  clean: boolean;
}

/** Per-layer scratch space, reused to avoid allocating for every layer. */
export class ChainScratch {
  /** per table slot (an edge key): the first endpoint of each side's list, [starts, ends] */
  heads = new Int32Array(0);
  next = new Int32Array(0);
  slotOf = new Int32Array(0);
  used = new Uint8Array(0);
  points = new Float64Array(0);

  prepare(endpoints: number): number {
    let size = 64;
    while (size < endpoints * 2) size <<= 1;
    if (this.heads.length < 2 * size) this.heads = new Int32Array(2 * size);
    this.heads.fill(-1, 0, 2 * size);
    if (this.next.length < endpoints) {
      this.next = new Int32Array(endpoints * 2);
      this.slotOf = new Int32Array(endpoints * 2);
      this.used = new Uint8Array(endpoints);
      // each segment adds at most one point (x, y), each chain one more
      this.points = new Float64Array(this.next.length * 2);
    }
    this.used.fill(0, 0, endpoints >> 1);
    return size - 1;
  }
}

/**
 * Groups endpoints by edge key, in two lists per key: segment starts (even endpoints) and ends
 * (odd), each newest first: heads[2·slot + side] → first endpoint, next[e] → the following one.
 * Returns false when some key gathers more than two endpoints (a non-manifold edge).
 */
function indexEndpoints(keys: Int32Array, endpoints: number, mask: number, s: ChainScratch): boolean {
  const { heads, next, slotOf } = s;
  let manifold = true;
  let probes = probeBudget(endpoints);
  for (let e = 0; e < endpoints; e++) {
    const lo = keys[2 * e];
    const hi = keys[2 * e + 1];
    let h = (Math.imul(lo, 0x9e3779b1) ^ Math.imul(hi, 0x85ebca77)) >>> 0;
    h = (h ^ (h >>> 15)) & mask;
    for (;;) {
      if (--probes < 0) return indexEndpointsSorted(keys, endpoints, mask, s);
      const s0 = heads[2 * h];
      const s1 = heads[2 * h + 1];
      const any = s0 >= 0 ? s0 : s1;
      if (any < 0 || (keys[2 * any] === lo && keys[2 * any + 1] === hi)) {
        // two endpoints there already: this one is a third
        if ((s0 >= 0 && (s1 >= 0 || next[s0] >= 0)) || (s1 >= 0 && next[s1] >= 0)) manifold = false;
        const side = 2 * h + (e & 1);
        next[e] = heads[side];
        heads[side] = e;
        slotOf[e] = h;
        break;
      }
      h = (h + 1) & mask;
    }
  }
  return manifold;
}

/**
 * indexEndpoints by sorting, for keys that collide in the table: an endpoint's slot is the first
 * endpoint with its key (below the table's size, one per key), and the lists come out the same.
 */
function indexEndpointsSorted(keys: Int32Array, endpoints: number, mask: number, s: ChainScratch): boolean {
  const { heads, next, slotOf } = s;
  heads.fill(-1, 0, 2 * (mask + 1));
  const first = firstOfEqual(endpoints, (a, b) => keys[2 * a] - keys[2 * b] || keys[2 * a + 1] - keys[2 * b + 1]);
  let manifold = true;
  for (let e = 0; e < endpoints; e++) {
    const h = first[e];
    const s0 = heads[2 * h];
    const s1 = heads[2 * h + 1];
    if ((s0 >= 0 && (s1 >= 0 || next[s0] >= 0)) || (s1 >= 0 && next[s1] >= 0)) manifold = false;
    const side = 2 * h + (e & 1);
    next[e] = heads[side];
    heads[side] = e;
    slotOf[e] = h;
  }
  return manifold;
}

/**
 * The first unused endpoint in the list heads[at], or -1. Used endpoints at the front are unlinked
 * for good (a segment, once used, stays used): each is passed over once however often its key is
 * asked for, so a key shared by many segments (copies of one triangle edge) costs no more than one
 * with two; walking past them on every call made chaining quadratic in the copies.
 */
function firstUnused(at: number, heads: Int32Array, next: Int32Array, used: Uint8Array): number {
  let o = heads[at];
  while (o >= 0 && used[o >> 1]) o = next[o];
  heads[at] = o;
  return o;
}

/** An unused endpoint sharing e's key, preferring one of the other side (start meets end); -1 if none. */
function partner(e: number, heads: Int32Array, next: Int32Array, slotOf: Int32Array, used: Uint8Array): number {
  const at = 2 * slotOf[e];
  const other = firstUnused(at + ((e & 1) ^ 1), heads, next, used);
  return other >= 0 ? other : firstUnused(at + (e & 1), heads, next, used);
}

function segLen(xy: Float64Array, seg: number): number {
  const dx = xy[4 * seg + 2] - xy[4 * seg];
  const dy = xy[4 * seg + 3] - xy[4 * seg + 1];
  return Math.sqrt(dx * dx + dy * dy);
}

/** Reverses the points [from, to) of a flat [x, y, …] array in place. */
function reverseRange(p: Float64Array | number[], from: number, to: number): void {
  for (let i = from, j = to - 2; i < j; i += 2, j -= 2) {
    const x = p[i];
    const y = p[i + 1];
    p[i] = p[j];
    p[i + 1] = p[j + 1];
    p[j] = x;
    p[j + 1] = y;
  }
}

/** Walks backwards from the chain's first endpoint; returns the points met (head first) and the votes. */
function extendBackwards(xy: Float64Array, first: number, s: ChainScratch): { back: number[]; votes: number; head: number } {
  const back: number[] = [];
  let votes = 0;
  let y = first;
  for (;;) {
    const p = partner(y, s.heads, s.next, s.slotOf, s.used);
    if (p < 0) break;
    const seg = p >> 1;
    s.used[seg] = 1;
    y = p ^ 1;
    back.push(xy[2 * y], xy[2 * y + 1]);
    const len = segLen(xy, seg);
    votes += (p & 1) === 1 ? len : -len;
  }
  reverseRange(back, 0, back.length);
  return { back, votes, head: y };
}

export function chainSegments(buf: SegmentBuffer, scratch: ChainScratch): Chains {
  const n = buf.count;
  const endpoints = 2 * n;
  const mask = scratch.prepare(endpoints);
  const { xy, keys } = buf;
  let clean = indexEndpoints(keys, endpoints, mask, scratch);
  const { heads, next, slotOf, used, points } = scratch;
  const loopStart: number[] = [0];
  const open: OpenChain[] = [];
  let w = 0; // write position in points
  for (let s0 = 0; s0 < n; s0++) {
    if (used[s0]) continue;
    used[s0] = 1;
    const start = w;
    const first = 2 * s0; // the chain's first endpoint (start of s0)
    points[w++] = xy[4 * s0];
    points[w++] = xy[4 * s0 + 1];
    let votes = segLen(xy, s0);
    let x = first + 1; // current exit endpoint
    let closed = false;
    for (;;) {
      if (slotOf[x] === slotOf[first]) {
        closed = true;
        break;
      }
      // the exit point (not yet written: for a closed loop it is the first point again)
      points[w++] = xy[2 * x];
      points[w++] = xy[2 * x + 1];
      const p = partner(x, heads, next, slotOf, used);
      if (p < 0) break;
      const seg = p >> 1;
      used[seg] = 1;
      const forward = (p & 1) === 0;
      if (!forward) clean = false; // start met start or end met end: a flipped triangle
      x = p ^ 1;
      const len = segLen(xy, seg);
      votes += forward ? len : -len;
    }
    if (closed) {
      if (votes < 0) reverseRange(points, start, w);
      loopStart.push(w);
      continue;
    }
    // open: extend backwards from the first endpoint as far as the edges go
    const ext = extendBackwards(xy, first, scratch);
    const chain = ext.back.concat(Array.from(points.subarray(start, w)));
    w = start;
    votes += ext.votes;
    // x: the endpoint at the tail, ext.head: at the head
    const [h, t] = votes < 0 ? [x, ext.head] : [ext.head, x];
    if (votes < 0) reverseRange(chain, 0, chain.length);
    open.push({ points: chain, headLo: keys[2 * h], headHi: keys[2 * h + 1], tailLo: keys[2 * t], tailHi: keys[2 * t + 1] });
  }
  return { points, loopStart, open, clean: clean && open.length === 0 };
}
