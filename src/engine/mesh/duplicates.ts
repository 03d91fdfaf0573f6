// Duplicate triangles: after welding, triangles with the same three vertices (in any order). Files
// hold them where a shell was exported twice or two bodies share a face; the slicer would cut every
// copy, and where many copies meet at one edge chaining their segments grows with the square of the
// copies (4,000 stacked cubes took 47 s to slice).
//
// The copies are counted as a solid's surface counts them, by winding: two copies wound the same way
// are the same surface, and a copy wound the other way cancels one of them (the shared face of two
// bodies that touch, or a shell and its inside-out copy, which together enclose nothing). What is
// left of each set of copies is one triangle wound as the majority, or none when they cancel out.

import { firstOfEqual, probeBudget } from './first-of-equal.js';

export interface Deduplicated {
  /** the triangles kept, in their order (a prefix of the array passed in, rewritten in place) */
  count: number;
  /** copies dropped because another copy is wound the same way */
  repeated: number;
  /** copies dropped because they cancel each other in pairs (wound opposite ways) */
  cancelled: number;
}

/** Table slot of a sorted triple (a < b < c). */
function slotOf(a: number, b: number, c: number, mask: number): number {
  const h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca77) ^ Math.imul(c, 0xc2b2ae3d);
  return (h ^ (h >>> 15)) & mask;
}

/** Probes left before the tables give up on hashing (see first-of-equal.ts). */
interface Budget {
  probes: number;
}

/**
 * The first triangle with t's vertices, inserting t if none; reads the sorted triple of each
 * candidate. −1 when the probe budget runs out.
 */
function firstWithSameVertices(tris: Uint32Array, t: number, table: Int32Array, mask: number, budget: Budget): number {
  const i0 = tris[3 * t], i1 = tris[3 * t + 1], i2 = tris[3 * t + 2];
  const a = Math.min(i0, i1, i2);
  const c = Math.max(i0, i1, i2);
  const b = i0 + i1 + i2 - a - c;
  let h = slotOf(a, b, c, mask);
  for (;;) {
    const u = table[h];
    if (u < 0) {
      table[h] = t;
      return t;
    }
    const u0 = tris[3 * u], u1 = tris[3 * u + 1], u2 = tris[3 * u + 2];
    if (Math.min(u0, u1, u2) === a && Math.max(u0, u1, u2) === c && u0 + u1 + u2 === a + b + c) return u;
    h = (h + 1) & mask;
    if (--budget.probes < 0) return -1;
  }
}

/** Per triangle, the first with the same three vertices, by sorting (for colliding hash keys). */
function firstWithSameVerticesSorted(tris: Uint32Array, count: number): Uint32Array {
  const sorted = new Uint32Array(3 * count);
  for (let t = 0; t < count; t++) {
    const i0 = tris[3 * t], i1 = tris[3 * t + 1], i2 = tris[3 * t + 2];
    const a = Math.min(i0, i1, i2), c = Math.max(i0, i1, i2);
    sorted.set([a, i0 + i1 + i2 - a - c, c], 3 * t);
  }
  return firstOfEqual(count, (p, q) => sorted[3 * p] - sorted[3 * q] || sorted[3 * p + 1] - sorted[3 * q + 1] || sorted[3 * p + 2] - sorted[3 * q + 2]);
}

/**
 * +1 when (i0, i1, i2) is an even rotation of the other triangle's corners, −1 when it runs the
 * other way round. Both triangles have the same three distinct vertices.
 */
function sameWinding(tris: Uint32Array, t: number, u: number): number {
  const i0 = tris[3 * t], i1 = tris[3 * t + 1];
  const u0 = tris[3 * u], u1 = tris[3 * u + 1], u2 = tris[3 * u + 2];
  // the corner after i0 in u's order
  const next = i0 === u0 ? u1 : i0 === u1 ? u2 : u0;
  return next === i1 ? 1 : -1;
}

/** Above this many vertices the keys b · n + c of hasDuplicates would pass 2^53 (not exact). */
const MAX_KEYED_VERTICES = 1 << 26;
/** Groups up to this size are compared pair by pair; larger ones (a fan's apex) are sorted. */
const PAIRWISE_GROUP = 8;

/**
 * Whether some two triangles have the same three vertices. The triangles are grouped by their lowest
 * vertex (a counting sort) and each group compares its other two vertices. The counting arrays are
 * visited nearly in order, since a file's neighbouring triangles share vertices and welding numbers
 * vertices as they first appear; a table of fingerprints probed at random slots (what this replaced)
 * waited on memory instead: 0.87 s on a 9-million-triangle scan, against 0.14 s. Almost every file
 * has no duplicates, which this shows before any exact work is done.
 */
function hasDuplicates(tris: Uint32Array, count: number): boolean {
  let n = 0;
  for (let i = 0; i < 3 * count; i++) if (tris[i] >= n) n = tris[i] + 1;
  if (n > MAX_KEYED_VERTICES) return true; // let the exact pass decide
  const start = new Int32Array(n + 1);
  for (let t = 0; t < count; t++) start[lowest(tris, t) + 1]++;
  for (let v = 0; v < n; v++) start[v + 1] += start[v];
  const fill = start.slice(0, n);
  // the other two vertices of each triangle, as one exact number, grouped by the lowest
  const rest = new Float64Array(count);
  for (let t = 0; t < count; t++) {
    const i0 = tris[3 * t], i1 = tris[3 * t + 1], i2 = tris[3 * t + 2];
    const a = lowest(tris, t);
    const c = i0 > i1 ? (i0 > i2 ? i0 : i2) : i1 > i2 ? i1 : i2;
    rest[fill[a]++] = (i0 + i1 + i2 - a - c) * n + c;
  }
  for (let v = 0; v < n; v++) {
    const from = start[v];
    const to = start[v + 1];
    if (to - from < 2) continue;
    if (to - from <= PAIRWISE_GROUP) {
      for (let i = from; i < to; i++) for (let j = i + 1; j < to; j++) if (rest[i] === rest[j]) return true;
      continue;
    }
    const group = rest.subarray(from, to).sort();
    for (let i = 1; i < group.length; i++) if (group[i] === group[i - 1]) return true;
  }
  return false;
}

function lowest(tris: Uint32Array, t: number): number {
  const i0 = tris[3 * t], i1 = tris[3 * t + 1], i2 = tris[3 * t + 2];
  return i0 < i1 ? (i0 < i2 ? i0 : i2) : i1 < i2 ? i1 : i2;
}

/**
 * Drops duplicate triangles from the first `count` triangles of `tris` (three vertex indices each,
 * no two of a triangle equal), keeping per set of copies the first one wound as the net winding.
 */
export function dropDuplicateTriangles(tris: Uint32Array, count: number): Deduplicated {
  if (!hasDuplicates(tris, count)) return { count, repeated: 0, cancelled: 0 };
  let size = 1024;
  while (size < 2 * count) size <<= 1;
  const mask = size - 1;
  const table = new Int32Array(size).fill(-1);
  // per triangle: the first with its vertices, and its winding relative to that one (±1)
  const first = new Int32Array(count);
  const wind = new Int8Array(count);
  // per first triangle: how many copies, and their windings summed
  const copies = new Int32Array(count);
  const net = new Int32Array(count);
  const budget: Budget = { probes: probeBudget(count) };
  let sortedFirst: Uint32Array | null = null;
  for (let t = 0; t < count; t++) {
    let f = sortedFirst ? sortedFirst[t] : firstWithSameVertices(tris, t, table, mask, budget);
    if (f < 0) {
      sortedFirst = firstWithSameVerticesSorted(tris, count);
      f = sortedFirst[t];
    }
    const w = f === t ? 1 : sameWinding(tris, t, f);
    first[t] = f;
    wind[t] = w;
    copies[f]++;
    net[f] += w;
  }
  let repeated = 0;
  let cancelled = 0;
  for (let t = 0; t < count; t++) {
    if (first[t] !== t) continue;
    const w = Math.abs(net[t]);
    cancelled += copies[t] - w; // the copies that pair off with one wound the other way
    if (w > 0) repeated += w - 1; // the rest, all wound alike, but the one kept
  }
  // keep, per set, the first copy wound as the net winding (none when it is 0); in place, in order
  const kept = new Uint8Array(count);
  let n = 0;
  for (let t = 0; t < count; t++) {
    const f = first[t];
    if (kept[f] || net[f] === 0 || wind[t] !== Math.sign(net[f])) continue;
    kept[f] = 1;
    tris[3 * n] = tris[3 * t];
    tris[3 * n + 1] = tris[3 * t + 1];
    tris[3 * n + 2] = tris[3 * t + 2];
    n++;
  }
  return { count: n, repeated, cancelled };
}
