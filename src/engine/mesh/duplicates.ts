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

/**
 * Whether some two triangles may have the same vertices: one pass that stores a 32-bit fingerprint
 * of each triangle's sorted vertices, never reading a stored triangle back (3DBenchy's 225,000
 * triangles: about 3.5 ms, 8 ms in a fresh process). A false alarm (two fingerprints equal by
 * chance) only costs the exact pass.
 */
function mayHaveDuplicates(tris: Uint32Array, count: number): boolean {
  let size = 1024;
  while (size < 2 * count) size <<= 1;
  const mask = size - 1;
  const table = new Int32Array(size); // fingerprints, never 0 (0 = empty)
  let probes = probeBudget(count);
  for (let t = 0; t < count; t++) {
    const i0 = tris[3 * t], i1 = tris[3 * t + 1], i2 = tris[3 * t + 2];
    const a = i0 < i1 ? (i0 < i2 ? i0 : i2) : i1 < i2 ? i1 : i2;
    const c = i0 > i1 ? (i0 > i2 ? i0 : i2) : i1 > i2 ? i1 : i2;
    const b = i0 + i1 + i2 - a - c;
    const x = Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca77) ^ Math.imul(c, 0xc2b2ae3d);
    let h = (x ^ (x >>> 15)) & mask;
    // a second hash, not one of x: among 225,000 triangles some x are bound to be equal
    const y = Math.imul(a, 0x27d4eb2f) ^ Math.imul(b, 0x165667b1) ^ Math.imul(c, 0x61c88647);
    const f = (y ^ (y >>> 16)) | 1;
    for (;;) {
      const v = table[h];
      if (v === 0) {
        table[h] = f;
        break;
      }
      if (v === f) return true;
      h = (h + 1) & mask;
      if (--probes < 0) return true; // colliding keys: let the exact pass decide
    }
  }
  return false;
}

/**
 * Drops duplicate triangles from the first `count` triangles of `tris` (three vertex indices each,
 * no two of a triangle equal), keeping per set of copies the first one wound as the net winding.
 */
export function dropDuplicateTriangles(tris: Uint32Array, count: number): Deduplicated {
  // almost every file has none, which one cheap pass shows; only then is the exact work done
  if (!mayHaveDuplicates(tris, count)) return { count, repeated: 0, cancelled: 0 };
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
