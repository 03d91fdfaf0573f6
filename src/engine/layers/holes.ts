// The holes of an open mesh: its boundary edges (used by one triangle) grouped into connected
// loops. A plane through a hole cuts its outline into chains whose loose ends lie on boundary
// edges of that same hole, so those ends belong together however far apart they are (a large
// missing triangle, the open base of a scan). Boundary edges that do not form closed loops (the
// free edge of a stray internal sheet) are no hole and get no such licence.
// Built only when a layer actually has open chains, so closed meshes never pay for it.

export class MeshHoles {
  private readonly edgeHole = new Map<number, number>();
  private readonly nV: number;

  constructor(indices: Uint32Array) {
    let maxV = 0;
    for (let i = 0; i < indices.length; i++) if (indices[i] > maxV) maxV = indices[i];
    this.nV = maxV + 1;
    const nV = this.nV;
    const boundary = boundaryEdges(indices, nV);
    // union-find over the vertices of boundary edges; a group is a hole when each vertex has an
    // even number of boundary edges (the edges close into loops)
    const parent = new Map<number, number>();
    const degree = new Map<number, number>();
    const find = (v: number): number => {
      let r = v;
      while (parent.get(r) !== r) r = parent.get(r)!;
      while (parent.get(v) !== r) {
        const n = parent.get(v)!;
        parent.set(v, r);
        v = n;
      }
      return r;
    };
    for (const key of boundary) {
      const a = Math.floor(key / nV);
      const b = key - a * nV;
      for (const v of [a, b]) {
        if (!parent.has(v)) parent.set(v, v);
        degree.set(v, (degree.get(v) ?? 0) + 1);
      }
      const ra = find(a);
      const rb = find(b);
      if (ra !== rb) parent.set(ra, rb);
    }
    const open = new Set<number>();
    for (const [v, d] of degree) if (d % 2 === 1) open.add(find(v));
    for (const key of boundary) {
      const root = find(Math.floor(key / nV));
      if (!open.has(root)) this.edgeHole.set(key, root);
    }
  }

  /** The hole whose boundary contains edge (lo, hi), or -1. */
  holeOf(lo: number, hi: number): number {
    return this.edgeHole.get(lo * this.nV + hi) ?? -1;
  }
}

/**
 * The edges used by exactly one triangle, as keys lo·nV + hi (exact below 2^53 for any allowed mesh).
 * Typed arrays, not a map keyed by edge: a 2-million-triangle scan has 3 million edges, which a map
 * counted in about 2 s, and a slice on layer threads builds this once per batch that meets the hole.
 * The edges are grouped by their lower vertex (counting sort); within a group, uses are counted per
 * upper vertex in an array stamped with the group, so nothing is cleared between groups.
 */
export function boundaryEdges(indices: Uint32Array, nV: number): number[] {
  const nE = indices.length;
  const start = new Int32Array(nV + 1);
  for (let t = 0; t < nE; t += 3) {
    for (let k = 0; k < 3; k++) {
      const a = indices[t + k];
      const b = indices[k === 2 ? t : t + k + 1];
      start[(a < b ? a : b) + 1]++;
    }
  }
  for (let v = 0; v < nV; v++) start[v + 1] += start[v];
  const fill = start.slice(0, nV);
  const upper = new Uint32Array(nE);
  for (let t = 0; t < nE; t += 3) {
    for (let k = 0; k < 3; k++) {
      const a = indices[t + k];
      const b = indices[k === 2 ? t : t + k + 1];
      if (a < b) upper[fill[a]++] = b;
      else upper[fill[b]++] = a;
    }
  }
  const stamp = new Int32Array(nV).fill(-1);
  const uses = new Int32Array(nV);
  const out: number[] = [];
  for (let lo = 0; lo < nV; lo++) {
    const from = start[lo];
    const to = start[lo + 1];
    for (let i = from; i < to; i++) {
      const hi = upper[i];
      if (stamp[hi] !== lo) {
        stamp[hi] = lo;
        uses[hi] = 0;
      }
      uses[hi]++;
    }
    for (let i = from; i < to; i++) if (uses[upper[i]] === 1) out.push(lo * nV + upper[i]);
  }
  return out;
}
