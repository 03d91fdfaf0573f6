// Which planes each triangle meets, and the triangles grouped by the first of them, so the sweep
// up the planes adds each triangle once and drops it after its last plane.

/**
 * upperBound over ascending plane heights in O(1): a grid over the z range remembers, for each
 * cell, the first plane at or above the cell's bottom; a query starts there and steps over the
 * few planes inside its cell.
 */
export class PlaneLookup {
  private readonly z0: number;
  private readonly scale: number;
  private readonly cellFirst: Int32Array;

  constructor(private readonly zs: Float64Array) {
    const n = zs.length;
    const cells = Math.max(1, 4 * n);
    this.z0 = n > 0 ? zs[0] : 0;
    const span = n > 1 ? zs[n - 1] - zs[0] : 0;
    this.scale = span > 0 ? cells / span : 0;
    this.cellFirst = new Int32Array(cells + 1);
    let i = 0;
    for (let c = 0; c <= cells; c++) {
      const bottom = this.z0 + c / (this.scale || 1);
      while (i < n && zs[i] < bottom) i++;
      this.cellFirst[c] = i;
    }
  }

  /** The first index i with zs[i] > v (zs.length if none). */
  upperBound(v: number): number {
    const zs = this.zs;
    if (!(v >= this.z0)) return 0; // also NaN-safe
    let c = Math.floor((v - this.z0) * this.scale);
    if (c >= this.cellFirst.length) c = this.cellFirst.length - 1;
    let i = this.cellFirst[c];
    while (i < zs.length && zs[i] <= v) i++;
    while (i > 0 && zs[i - 1] > v) i--; // v rounded into the cell above its own
    return i;
  }
}

export interface Buckets {
  /** triangle ids ordered by first plane */
  order: Int32Array;
  /** order[start[l] .. start[l + 1]) enter at plane l */
  start: Int32Array;
  /** last plane each triangle reaches */
  last: Int32Array;
}

/**
 * A triangle meets plane z when zmin < z ≤ zmax (vertices on the plane count as above), i.e. the
 * planes from upperBound(zmin) to upperBound(zmax) − 1. Counting sort by the first of them;
 * triangles meeting no plane go to an extra bucket at the end, never visited.
 * `triangles`, ascending ids: only these are looked at (a layer batch's share of a large mesh); it
 * must hold every triangle that meets a plane of `zs`, and then the buckets are the same as the
 * whole mesh's, less triangles never visited.
 */
export function bucketTriangles(positions: Float64Array, indices: Uint32Array, zs: Float64Array, triangles?: Uint32Array): Buckets {
  const nT = (indices.length / 3) | 0;
  const nS = triangles ? triangles.length : nT;
  const nL = zs.length;
  const lookup = new PlaneLookup(zs);
  const first = new Int32Array(nT);
  const last = new Int32Array(nT);
  const count = new Int32Array(nL + 1);
  for (let i = 0; i < nS; i++) {
    const t = triangles ? triangles[i] : i;
    setTrianglePlanes(positions, indices, lookup, t, first, last);
    if (first[t] > last[t]) first[t] = nL;
    count[first[t]]++;
  }
  const start = new Int32Array(nL + 2);
  for (let l = 0; l <= nL; l++) start[l + 1] = start[l] + count[l];
  const fill = start.slice(0, nL + 1);
  const order = new Int32Array(nS);
  for (let i = 0; i < nS; i++) {
    const t = triangles ? triangles[i] : i;
    order[fill[first[t]]++] = t;
  }
  return { order, start, last };
}

/**
 * The planes triangle t meets, first[t] to last[t] (first > last: none): zmin < z ≤ zmax, so a vertex on
 * a plane counts as above it.
 */
export function setTrianglePlanes(positions: Float64Array, indices: Uint32Array, lookup: PlaneLookup, t: number, first: Int32Array, last: Int32Array): void {
  const z0 = positions[3 * indices[3 * t] + 2];
  const z1 = positions[3 * indices[3 * t + 1] + 2];
  const z2 = positions[3 * indices[3 * t + 2] + 2];
  const lo = z0 < z1 ? (z0 < z2 ? z0 : z2) : z1 < z2 ? z1 : z2;
  const hi = z0 > z1 ? (z0 > z2 ? z0 : z2) : z1 > z2 ? z1 : z2;
  first[t] = lookup.upperBound(lo);
  last[t] = lookup.upperBound(hi) - 1;
}

/**
 * Adds the triangles entering at plane l to the active list (room for them at its end); returns the
 * new length. The list stays in ascending id order, so a plane's segments come in the same order
 * whichever planes were cut before it: a layer batch, which cuts from its own first plane, gets the
 * whole job's sweep's cross-sections point for point (appended, the order followed the entering
 * plane, the chains started elsewhere, and the reduced outlines differed by a few µm).
 */
export function addEntering(active: Int32Array, n: number, b: Buckets, l: number): number {
  const from = b.start[l];
  let j = b.start[l + 1] - 1;
  if (j < from) return n;
  const order = b.order;
  // merged from the back, in place: only the active ids above the smallest entering one move
  let i = n - 1;
  let k = n + j - from;
  const end = k + 1;
  while (j >= from) {
    if (i >= 0 && active[i] > order[j]) active[k--] = active[i--];
    else active[k--] = order[j--];
  }
  return end;
}
