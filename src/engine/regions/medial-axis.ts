// The centre lines of a thin area, with the area's width along them: its medial axis, approximated
// from a Delaunay triangulation of points sampled densely along its outline (delaunator does the
// triangulation). Inside a thin strip, the triangles span from one side to the other; an edge that
// joins two points far apart along the outline (or on two different loops) is a "chord" across the
// strip. Its midpoint lies on the centre line and its length is the local width. A triangle with two
// chords carries the line from one to the other, one with three is a junction, one with a single
// chord ends a branch. Unlike offsetting the area until it nearly vanishes, which finds only the
// widest spot, this follows a strip whose width changes: tapers, crossings, bends.
import Delaunator from 'delaunator';
import type { Paths } from '../types.js';

/** A centre line: flat µm points and the area's width at each. */
export interface AxisLine {
  points: number[];
  widths: number[];
  closed: boolean;
}

interface Samples {
  coords: Float64Array;
  /** loop of each sample */
  loop: Int32Array;
  /** distance along its loop from the loop's first point, µm */
  along: Float64Array;
  /** perimeter of each loop, µm */
  perimeter: number[];
}

/** Points every `spacing` µm or closer along each loop, its vertices included. */
function sampleOutline(island: Paths, spacing: number): Samples {
  const xs: number[] = [];
  const loops: number[] = [];
  const along: number[] = [];
  const perimeter: number[] = [];
  island.forEach((ring, li) => {
    const n = ring.length >> 1;
    let s = 0;
    for (let i = 0; i < n; i++) {
      const ax = ring[2 * i], ay = ring[2 * i + 1];
      const j = (i + 1) % n;
      const bx = ring[2 * j], by = ring[2 * j + 1];
      const len = Math.hypot(bx - ax, by - ay);
      const steps = Math.max(1, Math.ceil(len / spacing));
      for (let k = 0; k < steps; k++) {
        const t = k / steps;
        xs.push(ax + (bx - ax) * t, ay + (by - ay) * t);
        loops.push(li);
        along.push(s + len * t);
      }
      s += len;
    }
    perimeter.push(s);
  });
  return { coords: Float64Array.from(xs), loop: Int32Array.from(loops), along: Float64Array.from(along), perimeter };
}

/**
 * Even-odd point-in-area test for many points: the area's edges sorted into horizontal bands, so a
 * point is tested against the edges of its own band only.
 */
class AreaIndex {
  private minY: number;
  private bandH: number;
  private bands: number[][];
  private e: Float64Array;
  constructor(island: Paths) {
    let edges = 0;
    let minY = Infinity, maxY = -Infinity;
    for (const ring of island) {
      edges += ring.length >> 1;
      for (let i = 1; i < ring.length; i += 2) {
        minY = Math.min(minY, ring[i]);
        maxY = Math.max(maxY, ring[i]);
      }
    }
    const count = Math.max(1, Math.min(4096, Math.ceil(Math.sqrt(edges) * 2)));
    this.minY = minY;
    this.bandH = Math.max(1, (maxY - minY) / count);
    this.bands = Array.from({ length: count }, () => []);
    this.e = new Float64Array(edges * 4);
    let k = 0;
    for (const ring of island) {
      const n = ring.length >> 1;
      for (let i = 0, j = n - 1; i < n; j = i++, k++) {
        const x0 = ring[2 * j], y0 = ring[2 * j + 1], x1 = ring[2 * i], y1 = ring[2 * i + 1];
        this.e.set([x0, y0, x1, y1], 4 * k);
        const b0 = this.band(Math.min(y0, y1)), b1 = this.band(Math.max(y0, y1));
        for (let b = b0; b <= b1; b++) this.bands[b].push(k);
      }
    }
  }
  private band(y: number): number {
    return Math.max(0, Math.min(this.bands.length - 1, Math.floor((y - this.minY) / this.bandH)));
  }
  contains(x: number, y: number): boolean {
    let odd = false;
    const e = this.e;
    for (const k of this.bands[this.band(y)]) {
      const y0 = e[4 * k + 1], y1 = e[4 * k + 3];
      if (y0 > y !== y1 > y) {
        const x0 = e[4 * k], x1 = e[4 * k + 2];
        if (x < x0 + ((y - y0) * (x1 - x0)) / (y1 - y0)) odd = !odd;
      }
    }
    return odd;
  }
}

/**
 * Medial axis of a thin area (outer loop first, then holes), as lines with widths. `spacing` is the
 * sampling step along the outline (µm): it must be well under the narrowest width to be followed.
 */
export function medialAxis(island: Paths, spacing: number): AxisLine[] {
  const sm = sampleOutline(island, spacing);
  const n = sm.coords.length >> 1;
  if (n < 3) return [];
  const d = new Delaunator(sm.coords);
  const tri = d.triangles;
  const half = d.halfedges;
  const c = sm.coords;
  const triCount = tri.length / 3;
  const isIn = new Uint8Array(triCount);
  const area = new AreaIndex(island);
  for (let t = 0; t < triCount; t++) {
    const a = tri[3 * t], b = tri[3 * t + 1], e = tri[3 * t + 2];
    isIn[t] = area.contains((c[2 * a] + c[2 * b] + c[2 * e]) / 3, (c[2 * a + 1] + c[2 * b + 1] + c[2 * e + 1]) / 3) ? 1 : 0;
  }
  // an edge across the area: between two loops, or between points much farther apart along the
  // outline than in a straight line (neighbouring samples are as far apart both ways)
  const isChord = (h: number): boolean => {
    const o = half[h];
    if (o < 0 || !isIn[Math.floor(h / 3)] || !isIn[Math.floor(o / 3)]) return false;
    const p = tri[h], q = tri[h % 3 === 2 ? h - 2 : h + 1];
    if (sm.loop[p] !== sm.loop[q]) return true;
    const per = sm.perimeter[sm.loop[p]];
    const gap = Math.abs(sm.along[p] - sm.along[q]);
    const arc = Math.min(gap, per - gap);
    const dist = Math.hypot(c[2 * p] - c[2 * q], c[2 * p + 1] - c[2 * q + 1]);
    return arc > 2.5 * dist;
  };

  // graph nodes: one per chord (its midpoint), and one per junction triangle (its centroid); each
  // has at most three neighbours
  // at most one node per edge (chords) and one per triangle (junctions)
  const g = new AxisGraph(tri.length / 2 + triCount);
  const chordNode = new Int32Array(tri.length).fill(-1);
  const nodeOfChord = (h: number): number => {
    const k = Math.min(h, half[h]);
    if (chordNode[k] < 0) {
      const p = tri[h], q = tri[h % 3 === 2 ? h - 2 : h + 1];
      const w = Math.hypot(c[2 * p] - c[2 * q], c[2 * p + 1] - c[2 * q + 1]);
      chordNode[k] = g.add((c[2 * p] + c[2 * q]) / 2, (c[2 * p + 1] + c[2 * q + 1]) / 2, w);
    }
    return chordNode[k];
  };
  const chords = [0, 0, 0];
  for (let t = 0; t < triCount; t++) {
    if (!isIn[t]) continue;
    let k = 0;
    for (let e = 0; e < 3; e++) if (isChord(3 * t + e)) chords[k++] = 3 * t + e;
    if (k === 2) g.link(nodeOfChord(chords[0]), nodeOfChord(chords[1]));
    else if (k === 3) {
      const a = nodeOfChord(chords[0]), b = nodeOfChord(chords[1]), e = nodeOfChord(chords[2]);
      const ta = tri[3 * t], tb = tri[3 * t + 1], tc = tri[3 * t + 2];
      const j = g.add((c[2 * ta] + c[2 * tb] + c[2 * tc]) / 3, (c[2 * ta + 1] + c[2 * tb + 1] + c[2 * tc + 1]) / 3, Math.max(g.w[a], g.w[b], g.w[e]));
      g.link(a, j);
      g.link(b, j);
      g.link(e, j);
    } else if (k === 1) nodeOfChord(chords[0]);
  }
  return g.trace();
}

/** Nodes with a position, a width and up to three neighbours, walked into lines. */
class AxisGraph {
  x: Float64Array;
  y: Float64Array;
  w: Float64Array;
  /** neighbours, three slots a node (-1: none) */
  nb: Int32Array;
  deg: Uint8Array;
  /** a slot's edge already walked */
  walked: Uint8Array;
  n = 0;
  constructor(capacity: number) {
    this.x = new Float64Array(capacity);
    this.y = new Float64Array(capacity);
    this.w = new Float64Array(capacity);
    this.nb = new Int32Array(capacity * 3).fill(-1);
    this.deg = new Uint8Array(capacity);
    this.walked = new Uint8Array(capacity * 3);
  }
  add(x: number, y: number, w: number): number {
    const i = this.n++;
    this.x[i] = x;
    this.y[i] = y;
    this.w[i] = w;
    return i;
  }
  link(u: number, v: number): void {
    // a chord has two triangles, so a node never has more than three neighbours
    if (this.deg[u] >= 3 || this.deg[v] >= 3) return;
    this.nb[3 * u + this.deg[u]++] = v;
    this.nb[3 * v + this.deg[v]++] = u;
  }
  /** marks the edge u–v walked from both ends */
  private mark(u: number, v: number): void {
    for (let k = 0; k < this.deg[u]; k++) if (this.nb[3 * u + k] === v) this.walked[3 * u + k] = 1;
    for (let k = 0; k < this.deg[v]; k++) if (this.nb[3 * v + k] === u) this.walked[3 * v + k] = 1;
  }
  private walk(start: number, slot: number): AxisLine {
    const points = [this.x[start], this.y[start]];
    const widths = [this.w[start]];
    let prev = start;
    let cur = this.nb[3 * start + slot];
    for (;;) {
      this.mark(prev, cur);
      points.push(this.x[cur], this.y[cur]);
      widths.push(this.w[cur]);
      if (this.deg[cur] !== 2 || cur === start) break;
      const k = this.nb[3 * cur] === prev ? 1 : 0;
      if (this.walked[3 * cur + k]) break;
      prev = cur;
      cur = this.nb[3 * cur + k];
    }
    return { points, widths, closed: false };
  }
  /** lines between ends and junctions, then what is left: closed loops */
  trace(): AxisLine[] {
    const lines: AxisLine[] = [];
    for (let u = 0; u < this.n; u++) {
      if (this.deg[u] === 2) continue;
      for (let k = 0; k < this.deg[u]; k++) if (!this.walked[3 * u + k]) lines.push(this.walk(u, k));
    }
    for (let u = 0; u < this.n; u++) {
      for (let k = 0; k < this.deg[u]; k++) {
        if (this.walked[3 * u + k]) continue;
        const loop = this.walk(u, k);
        // back at the start: drop the repeated point
        loop.points.length -= 2;
        loop.widths.length -= 1;
        loop.closed = true;
        lines.push(loop);
      }
    }
    return lines;
  }
}

/**
 * Douglas–Peucker on a line with widths: keeps points off the line by more than `epsilon` µm, and
 * points whose width is off the straight change between the kept ends by more than `widthEpsilon` µm
 * (a straight strip that tapers to both ends must keep its wide middle, or it is printed as thin as
 * its ends).
 */
export function simplifyAxis(line: AxisLine, epsilon: number, widthEpsilon = Infinity): AxisLine {
  const n = line.points.length >> 1;
  if (n <= 2) return line;
  const keep = new Uint8Array(n);
  keep[0] = keep[n - 1] = 1;
  const p = line.points;
  const w = line.widths;
  const stack: Array<[number, number]> = [[0, n - 1]];
  while (stack.length > 0) {
    const [a, b] = stack.pop()!;
    const ax = p[2 * a], ay = p[2 * a + 1], bx = p[2 * b], by = p[2 * b + 1];
    const len = Math.hypot(bx - ax, by - ay);
    let far = -1, fd = 1;
    const wa = w[a], wb = w[b];
    for (let i = a + 1; i < b; i++) {
      const dist = len > 0
        ? Math.abs((bx - ax) * (ay - p[2 * i + 1]) - (ax - p[2 * i]) * (by - ay)) / len
        : Math.hypot(p[2 * i] - ax, p[2 * i + 1] - ay);
      // the width the kept ends would give this point, by its place between them (index share: the
      // samples are about evenly spaced)
      const t = (i - a) / (b - a);
      const off = Math.max(dist / epsilon, Math.abs(w[i] - (wa + (wb - wa) * t)) / widthEpsilon);
      if (off > fd) {
        fd = off;
        far = i;
      }
    }
    if (far >= 0) {
      keep[far] = 1;
      stack.push([a, far], [far, b]);
    }
  }
  const points: number[] = [];
  const widths: number[] = [];
  // each kept point keeps its own width; between two, the width is taken to change linearly
  for (let i = 0; i < n; i++) {
    if (!keep[i]) continue;
    points.push(p[2 * i], p[2 * i + 1]);
    widths.push(line.widths[i]);
  }
  return { points, widths, closed: line.closed };
}
