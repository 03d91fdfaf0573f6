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
    // count the triangles on each edge (key lo·nV + hi: exact below 2^53 for any allowed mesh)
    const uses = new Map<number, number>();
    for (let t = 0; t < indices.length; t += 3) {
      for (let k = 0; k < 3; k++) {
        const a = indices[t + k];
        const b = indices[t + (k === 2 ? 0 : k + 1)];
        const key = a < b ? a * nV + b : b * nV + a;
        uses.set(key, (uses.get(key) ?? 0) + 1);
      }
    }
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
    const boundary: number[] = [];
    for (const [key, n] of uses) {
      if (n !== 1) continue;
      boundary.push(key);
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
