// Chaining a layer's segments into polylines by their edge keys: two segment ends with the same key
// are the same point of the cross-section. Walks are undirected (a flipped triangle's segment still
// joins its neighbours); each chain is then oriented by the length-weighted majority of its
// segments, so one flipped triangle cannot turn an outline into a hole. Where more than two ends
// share a key (non-manifold edges), a partner that keeps the direction consistent is preferred.
import type { SegmentBuffer } from './segments.js';

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

export interface Chains {
  /** closed loops, flat [x0, y0, x1, y1, …] in µm (not rounded); the first point is not repeated */
  loops: number[][];
  open: OpenChain[];
}

/** Per-layer scratch space, reused to avoid allocating for every layer. */
export class ChainScratch {
  table = new Int32Array(0);
  next = new Int32Array(0);
  slotOf = new Int32Array(0);
  used = new Uint8Array(0);

  prepare(endpoints: number): number {
    let size = 64;
    while (size < endpoints * 2) size <<= 1;
    if (this.table.length < size) this.table = new Int32Array(size);
    this.table.fill(-1, 0, size);
    if (this.next.length < endpoints) {
      this.next = new Int32Array(endpoints * 2);
      this.slotOf = new Int32Array(endpoints * 2);
      this.used = new Uint8Array(endpoints);
    }
    this.used.fill(0, 0, endpoints >> 1);
    return size - 1;
  }
}

/** Groups endpoints by edge key: table[slot] → first endpoint, next[e] → the following one. */
function indexEndpoints(keys: Int32Array, endpoints: number, mask: number, s: ChainScratch): void {
  const { table, next, slotOf } = s;
  for (let e = 0; e < endpoints; e++) {
    const lo = keys[2 * e];
    const hi = keys[2 * e + 1];
    let h = (Math.imul(lo, 0x9e3779b1) ^ Math.imul(hi, 0x85ebca77)) >>> 0;
    h = (h ^ (h >>> 15)) & mask;
    for (;;) {
      const head = table[h];
      if (head < 0 || (keys[2 * head] === lo && keys[2 * head + 1] === hi)) {
        next[e] = head;
        table[h] = e;
        slotOf[e] = h;
        break;
      }
      h = (h + 1) & mask;
    }
  }
}

/** An unused endpoint sharing e's key, preferring one of the other side (start meets end); -1 if none. */
function partner(e: number, s: ChainScratch): number {
  let fallback = -1;
  for (let o = s.table[s.slotOf[e]]; o >= 0; o = s.next[o]) {
    if (s.used[o >> 1]) continue;
    if ((o & 1) !== (e & 1)) return o;
    if (fallback < 0) fallback = o;
  }
  return fallback;
}

function segLength(xy: Float64Array, seg: number): number {
  return Math.hypot(xy[4 * seg + 2] - xy[4 * seg], xy[4 * seg + 3] - xy[4 * seg + 1]);
}

export function chainSegments(buf: SegmentBuffer, scratch: ChainScratch): Chains {
  const n = buf.count;
  const endpoints = 2 * n;
  const mask = scratch.prepare(endpoints);
  const { xy, keys } = buf;
  indexEndpoints(keys, endpoints, mask, scratch);
  const used = scratch.used;
  const loops: number[][] = [];
  const open: OpenChain[] = [];
  for (let s0 = 0; s0 < n; s0++) {
    if (used[s0]) continue;
    used[s0] = 1;
    const first = 2 * s0; // the chain's first endpoint (start of s0)
    const pts: number[] = [xy[4 * s0], xy[4 * s0 + 1], xy[4 * s0 + 2], xy[4 * s0 + 3]];
    let votes = segLength(xy, s0);
    let x = first + 1; // current exit endpoint
    let closed = false;
    for (;;) {
      if (scratch.slotOf[x] === scratch.slotOf[first]) {
        closed = true;
        break;
      }
      const p = partner(x, scratch);
      if (p < 0) break;
      const seg = p >> 1;
      used[seg] = 1;
      x = p ^ 1;
      pts.push(xy[2 * x], xy[2 * x + 1]);
      votes += (p & 1) === 0 ? segLength(xy, seg) : -segLength(xy, seg);
    }
    if (closed) {
      pts.length -= 2; // the last point is the first one again
      if (votes < 0) reversePoints(pts);
      loops.push(pts);
      continue;
    }
    // open: extend backwards from the first endpoint as far as the edges go
    const back: number[] = [];
    let y = first;
    for (;;) {
      const p = partner(y, scratch);
      if (p < 0) break;
      const seg = p >> 1;
      used[seg] = 1;
      y = p ^ 1;
      back.push(xy[2 * y], xy[2 * y + 1]);
      votes += (p & 1) === 1 ? segLength(xy, seg) : -segLength(xy, seg);
    }
    let chain = pts;
    if (back.length > 0) {
      reversePoints(back);
      chain = back.concat(pts);
    }
    // x: the endpoint at the tail, y: at the head
    const [h, t] = votes < 0 ? [x, y] : [y, x];
    if (votes < 0) reversePoints(chain);
    open.push({ points: chain, headLo: keys[2 * h], headHi: keys[2 * h + 1], tailLo: keys[2 * t], tailHi: keys[2 * t + 1] });
  }
  return { loops, open };
}

/** Reverses the order of the points of a flat [x, y, …] list in place. */
export function reversePoints(p: number[]): void {
  for (let i = 0, j = p.length - 2; i < j; i += 2, j -= 2) {
    const x = p[i];
    const y = p[i + 1];
    p[i] = p[j];
    p[i + 1] = p[j + 1];
    p[j] = x;
    p[j + 1] = y;
  }
}
