// A large mesh's triangles shared out among layer ranges, so each layer batch cuts only its own
// share: without it every batch bucketed the whole mesh (a 2-million-triangle scan: 16 passes over
// 2 M triangles and 16 sets of per-triangle arrays, where the batches' slicing work is one pass).
import { PlaneLookup, setTrianglePlanes } from './buckets.js';

/**
 * For each range [lo, hi) of plane indices: the ids (ascending) of the triangles that meet at least
 * one of the planes zs[lo..hi), by the rule bucketTriangles uses (zmin < z ≤ zmax). `zs` (µm) must
 * not decrease, and the ranges must be ordered: lo and hi both non-decreasing from one to the next.
 */
export function trianglesPerRange(positions: Float64Array, indices: Uint32Array, zs: readonly number[], ranges: ReadonlyArray<readonly [number, number]>): Uint32Array[] {
  const nT = (indices.length / 3) | 0;
  const nR = ranges.length;
  const lookup = new PlaneLookup(Float64Array.from(zs));
  // each triangle's first and last plane, kept between the counting pass and the filling one
  const first = new Int32Array(nT);
  const last = new Int32Array(nT);
  const count = new Int32Array(nR);
  for (let t = 0; t < nT; t++) {
    setTrianglePlanes(positions, indices, lookup, t, first, last);
    const f = first[t];
    const l = last[t];
    if (f > l) continue;
    for (let k = firstRangeEndingAfter(ranges, f); k < nR && ranges[k][0] <= l; k++) count[k]++;
  }
  const out = Array.from(count, (c) => new Uint32Array(c));
  const fill = new Int32Array(nR);
  for (let t = 0; t < nT; t++) {
    const f = first[t];
    const l = last[t];
    if (f > l) continue;
    for (let k = firstRangeEndingAfter(ranges, f); k < nR && ranges[k][0] <= l; k++) out[k][fill[k]++] = t;
  }
  return out;
}

/** The first range whose end is past plane f (binary search: the ends do not decrease). */
function firstRangeEndingAfter(ranges: ReadonlyArray<readonly [number, number]>, f: number): number {
  let a = 0;
  let b = ranges.length;
  while (a < b) {
    const m = (a + b) >> 1;
    if (ranges[m][1] <= f) a = m + 1;
    else b = m;
  }
  return a;
}
