// A grid index over the edges of a set of closed polygons, read as an even-odd area. The planner
// asks it, for every travel, where a segment crosses the boundary, whether a point is inside and
// where the nearest boundary point is. Plain TS on purpose: a WASM clip per travel would cost
// more than planning the whole layer.
import type { Paths } from '../types.js';
import { hyp } from './length.js';

/** The closest boundary point to a query point. */
export interface BoundaryPoint {
  x: number;
  y: number;
  /** global edge id */
  edge: number;
  dist: number;
}

const MAX_CELLS_PER_AXIS = 128;
const MIN_CELL = 500; // µm

export class EdgeIndex {
  readonly polys: Paths;
  /** x1, y1, x2, y2 per edge */
  private readonly seg: Float64Array;
  /** polygon of each edge */
  readonly edgePoly: Int32Array;
  /** first edge id of each polygon (edge k of polygon p goes from vertex k to k+1) */
  readonly polyStart: Int32Array;
  readonly edgeCount: number;
  readonly minX: number;
  readonly minY: number;
  readonly maxX: number;
  readonly maxY: number;
  private readonly cell: number;
  private readonly nx: number;
  private readonly ny: number;
  private readonly cellStart: Int32Array;
  private readonly cellEdges: Int32Array;
  private readonly stamp: Int32Array;
  private stampNo = 0;
  private inward: Int8Array | null = null;
  private perimeter: Array<Float64Array | undefined> = [];
  private readonly scratch: number[] = [];
  private readonly cand: Int32Array;
  private readonly all: Int32Array;
  private hits: Int32Array;

  constructor(polys: Paths) {
    this.polys = polys.filter((p) => p.length >= 6);
    let n = 0;
    for (const p of this.polys) n += p.length >> 1;
    this.edgeCount = n;
    this.seg = new Float64Array(n * 4);
    this.edgePoly = new Int32Array(n);
    this.polyStart = new Int32Array(this.polys.length + 1);
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    let e = 0;
    for (let pi = 0; pi < this.polys.length; pi++) {
      const p = this.polys[pi];
      this.polyStart[pi] = e;
      const k = p.length >> 1;
      for (let i = 0; i < k; i++, e++) {
        const j = i + 1 === k ? 0 : i + 1;
        const x1 = p[2 * i], y1 = p[2 * i + 1];
        this.seg[4 * e] = x1;
        this.seg[4 * e + 1] = y1;
        this.seg[4 * e + 2] = p[2 * j];
        this.seg[4 * e + 3] = p[2 * j + 1];
        this.edgePoly[e] = pi;
        if (x1 < minX) minX = x1;
        if (x1 > maxX) maxX = x1;
        if (y1 < minY) minY = y1;
        if (y1 > maxY) maxY = y1;
      }
    }
    this.polyStart[this.polys.length] = e;
    if (n === 0) minX = minY = maxX = maxY = 0;
    this.minX = minX;
    this.minY = minY;
    this.maxX = maxX;
    this.maxY = maxY;
    const w = maxX - minX + 1, h = maxY - minY + 1;
    // about one edge per cell, within bounds
    let cell = Math.max(MIN_CELL, Math.sqrt((w * h) / Math.max(1, n)));
    cell = Math.max(cell, w / MAX_CELLS_PER_AXIS, h / MAX_CELLS_PER_AXIS);
    this.cell = cell;
    this.nx = Math.max(1, Math.ceil(w / cell));
    this.ny = Math.max(1, Math.ceil(h / cell));
    const counts = new Int32Array(this.nx * this.ny + 1);
    this.addEdgesToCells(counts, null);
    for (let i = 1; i < counts.length; i++) counts[i] += counts[i - 1];
    this.cellStart = counts.slice();
    const cellEdges = new Int32Array(counts[counts.length - 1]);
    this.addEdgesToCells(counts, cellEdges);
    this.cellEdges = cellEdges;
    this.stamp = new Int32Array(n);
    this.cand = new Int32Array(n);
    this.all = new Int32Array(n);
    for (let i = 0; i < n; i++) this.all[i] = i;
    this.hits = this.all;
  }

  /** First pass (edges null): counts edges per cell into slot + 1. Second pass: fills cells from `fill`. */
  private addEdgesToCells(fill: Int32Array, edges: Int32Array | null): void {
    const s = this.seg;
    for (let e = 0; e < this.edgeCount; e++) {
      const ax = s[4 * e], ay = s[4 * e + 1], bx = s[4 * e + 2], by = s[4 * e + 3];
      const x0 = this.cx(ax < bx ? ax : bx), x1 = this.cx(ax < bx ? bx : ax);
      const y0 = this.cy(ay < by ? ay : by), y1 = this.cy(ay < by ? by : ay);
      for (let y = y0; y <= y1; y++) {
        for (let x = x0; x <= x1; x++) {
          const c = y * this.nx + x;
          if (edges) edges[fill[c]++] = e;
          else fill[c + 1]++;
        }
      }
    }
  }

  private cx(x: number): number {
    const c = Math.floor((x - this.minX) / this.cell);
    return c < 0 ? 0 : c >= this.nx ? this.nx - 1 : c;
  }
  private cy(y: number): number {
    const c = Math.floor((y - this.minY) / this.cell);
    return c < 0 ? 0 : c >= this.ny ? this.ny - 1 : c;
  }

  /**
   * The edges whose cells meet the box, each once: returns how many, and leaves them in
   * `this.hits` (no closures and no allocation: this runs for every travel).
   */
  private gather(x0: number, y0: number, x1: number, y1: number): number {
    if (this.edgeCount === 0 || x1 < this.minX || x0 > this.maxX || y1 < this.minY || y0 > this.maxY) return 0;
    const cx0 = this.cx(x0), cx1 = this.cx(x1), cy0 = this.cy(y0), cy1 = this.cy(y1);
    if ((cx1 - cx0 + 1) * (cy1 - cy0 + 1) * 2 > this.edgeCount) {
      this.hits = this.all;
      return this.edgeCount;
    }
    this.hits = this.cand;
    const stampNo = ++this.stampNo;
    let n = 0;
    for (let y = cy0; y <= cy1; y++) {
      for (let x = cx0; x <= cx1; x++) {
        const c = y * this.nx + x;
        for (let k = this.cellStart[c], end = this.cellStart[c + 1]; k < end; k++) {
          const e = this.cellEdges[k];
          if (this.stamp[e] === stampNo) continue;
          this.stamp[e] = stampNo;
          this.cand[n++] = e;
        }
      }
    }
    return n;
  }

  /**
   * Where segment a→b crosses the boundary: pushes (t, edge) pairs into `out` (t in [0, 1] along
   * a→b), unsorted. A point exactly on a line counts as lying on its left, so a segment through a
   * vertex crosses once, never twice.
   */
  crossings(ax: number, ay: number, bx: number, by: number, out: number[]): void {
    const s = this.seg;
    const dx = bx - ax, dy = by - ay;
    const n = this.gather(ax < bx ? ax : bx, ay < by ? ay : by, ax < bx ? bx : ax, ay < by ? by : ay);
    const hits = this.hits;
    for (let k = 0; k < n; k++) {
      const e = hits[k];
      const px = s[4 * e], py = s[4 * e + 1], qx = s[4 * e + 2], qy = s[4 * e + 3];
      const sp = dx * (py - ay) - dy * (px - ax);
      const sq = dx * (qy - ay) - dy * (qx - ax);
      if (sp >= 0 === sq >= 0) continue;
      const ex = qx - px, ey = qy - py;
      const sa = ex * (ay - py) - ey * (ax - px);
      const sb = ex * (by - py) - ey * (bx - px);
      if (sa >= 0 === sb >= 0) continue;
      out.push(sa / (sa - sb), e);
    }
  }

  /** True when the segment crosses no boundary edge. */
  clear(ax: number, ay: number, bx: number, by: number): boolean {
    const tmp = this.scratch;
    tmp.length = 0;
    this.crossings(ax, ay, bx, by, tmp);
    return tmp.length === 0;
  }

  /** Even-odd point-in-area test (a ray towards +x). */
  contains(x: number, y: number): boolean {
    if (this.edgeCount === 0 || x > this.maxX || y < this.minY || y > this.maxY) return false;
    const s = this.seg;
    let inside = false;
    const n = this.gather(x, y, this.maxX, y);
    const hits = this.hits;
    for (let k = 0; k < n; k++) {
      const e = hits[k];
      const py = s[4 * e + 1], qy = s[4 * e + 3];
      if (py > y === qy > y) continue;
      const px = s[4 * e], qx = s[4 * e + 2];
      if (px + ((y - py) * (qx - px)) / (qy - py) > x) inside = !inside;
    }
    return inside;
  }

  /** The nearest boundary point within `maxDist`, or null. */
  nearest(x: number, y: number, maxDist: number): BoundaryPoint | null {
    const s = this.seg;
    let bestE = -1, bx = 0, by = 0;
    let bestD2 = maxDist * maxDist;
    const n = this.gather(x - maxDist, y - maxDist, x + maxDist, y + maxDist);
    const hits = this.hits;
    for (let k = 0; k < n; k++) {
      const e = hits[k];
      const px = s[4 * e], py = s[4 * e + 1], qx = s[4 * e + 2], qy = s[4 * e + 3];
      const ex = qx - px, ey = qy - py;
      const len2 = ex * ex + ey * ey;
      let t = len2 > 0 ? ((x - px) * ex + (y - py) * ey) / len2 : 0;
      t = t < 0 ? 0 : t > 1 ? 1 : t;
      const cx = px + t * ex, cy = py + t * ey;
      const d2 = (cx - x) * (cx - x) + (cy - y) * (cy - y);
      if (d2 <= bestD2) {
        bestD2 = d2;
        bestE = e;
        bx = cx;
        by = cy;
      }
    }
    return bestE < 0 ? null : { x: bx, y: by, edge: bestE, dist: Math.sqrt(bestD2) };
  }

  /** Cumulative boundary length of polygon p at each vertex (k + 1 entries, the last = perimeter). */
  perimeterAt(p: number): Float64Array {
    let cum = this.perimeter[p];
    if (cum) return cum;
    const poly = this.polys[p];
    const k = poly.length >> 1;
    cum = new Float64Array(k + 1);
    for (let i = 0; i < k; i++) {
      const j = i + 1 === k ? 0 : i + 1;
      cum[i + 1] = cum[i] + hyp(poly[2 * j] - poly[2 * i], poly[2 * j + 1] - poly[2 * i + 1]);
    }
    this.perimeter[p] = cum;
    return cum;
  }

  /** Edge endpoints: [x1, y1, x2, y2]. */
  edge(e: number): [number, number, number, number] {
    const s = this.seg;
    return [s[4 * e], s[4 * e + 1], s[4 * e + 2], s[4 * e + 3]];
  }

  /**
   * +1 when the area lies on the left of polygon `p`'s edges (walking its vertex order), −1 when
   * on the right. Found by probing, so it holds whatever orientation the polygons came in.
   */
  inwardSide(p: number): number {
    if (!this.inward) this.inward = new Int8Array(this.polys.length);
    if (this.inward[p] !== 0) return this.inward[p];
    const poly = this.polys[p];
    const k = poly.length >> 1;
    // probe beside the longest edge, where the probe cannot land across a narrow feature
    let bi = 0, bl = -1;
    for (let i = 0; i < k; i++) {
      const j = i + 1 === k ? 0 : i + 1;
      const l = hyp(poly[2 * j] - poly[2 * i], poly[2 * j + 1] - poly[2 * i + 1]);
      if (l > bl) {
        bl = l;
        bi = i;
      }
    }
    const bj = bi + 1 === k ? 0 : bi + 1;
    const x1 = poly[2 * bi], y1 = poly[2 * bi + 1], x2 = poly[2 * bj], y2 = poly[2 * bj + 1];
    const len = Math.max(1, bl);
    const probe = Math.min(5, len / 4);
    const mx = (x1 + x2) / 2 - ((y2 - y1) / len) * probe;
    const my = (y1 + y2) / 2 + ((x2 - x1) / len) * probe;
    const side = this.contains(mx, my) ? 1 : -1;
    this.inward[p] = side;
    return side;
  }
}
