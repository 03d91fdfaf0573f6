// Combing: keeping a travel inside the comb region (the part shrunk to the middle of its innermost
// wall, minus the skin for combing mode `noskin`) so that the nozzle neither strings across holes
// nor drags over walls. A straight move is kept when it stays inside; otherwise the move follows
// the boundary of the region (a little inside it) around whatever it would have crossed.
import type { EdgeIndex } from './edge-index.js';
import { hyp } from './length.js';

export interface CombRegion {
  /** boundary of the region where travel is free (even-odd) */
  comb: EdgeIndex;
  /** how far an endpoint may lie outside the region (endpoints on the outer wall do), µm */
  allowance: number;
  /** outside stretches shorter than this in the middle of a move only graze the boundary, µm */
  graze: number;
  /** how far inside the boundary a combed route runs, µm */
  inset: number;
}

function sortedTs(raw: number[]): number[] {
  const ts: number[] = [];
  for (let i = 0; i < raw.length; i += 2) ts.push(raw[i]);
  return ts.sort((a, b) => a - b);
}

/**
 * True when the straight move a→b stays in the region apart from short stretches: at either end
 * (an endpoint on a wall lies outside the region; its way in must be shorter than `allowance`)
 * and in between (shorter than `graze`: a move along the boundary that wanders across it).
 */
export function straightInRegion(r: CombRegion, ax: number, ay: number, bx: number, by: number): boolean {
  const d = hyp(bx - ax, by - ay);
  const raw: number[] = [];
  r.comb.crossings(ax, ay, bx, by, raw);
  let inside = r.comb.contains(ax, ay);
  if (raw.length === 0) return inside || d <= r.allowance || alongBoundary(r, ax, ay, bx, by);
  const ts = sortedTs(raw);
  let last = 0;
  for (let i = 0; i <= ts.length; i++) {
    const t = i < ts.length ? ts[i] : 1;
    if (!inside) {
      const limit = i === 0 || i === ts.length ? r.allowance : r.graze;
      if ((t - last) * d > limit) return false;
    }
    inside = !inside;
    last = t;
  }
  return true;
}

/**
 * A move wholly outside the region but hugging its boundary: both ends and the middle within `graze`
 * / 4 of it (from one infill line's end to the next, when the ends lie a hair outside).
 */
function alongBoundary(r: CombRegion, ax: number, ay: number, bx: number, by: number): boolean {
  const near = r.graze / 4;
  return (
    r.comb.nearest(ax, ay, near) !== null &&
    r.comb.nearest(bx, by, near) !== null &&
    r.comb.nearest((ax + bx) / 2, (ay + by) / 2, near) !== null
  );
}

/** Unit normal of edge e pointing into the region. */
function inwardNormal(idx: EdgeIndex, e: number): [number, number] {
  const [x1, y1, x2, y2] = idx.edge(e);
  const len = hyp(x2 - x1, y2 - y1) || 1;
  const side = idx.inwardSide(idx.edgePoly[e]);
  return [(-(y2 - y1) / len) * side, ((x2 - x1) / len) * side];
}

/**
 * Vertex v of polygon p moved `inset` into the region along the bisector (miter capped at 2×),
 * pushed onto `out`. Written out longhand: long walks call it for every vertex.
 */
function pushInsetVertex(idx: EdgeIndex, p: number, v: number, inset: number, out: number[]): void {
  const poly = idx.polys[p];
  const k = poly.length >> 1;
  const side = idx.inwardSide(p);
  const u = v === 0 ? k - 1 : v - 1, w = v + 1 === k ? 0 : v + 1;
  const x = poly[2 * v], y = poly[2 * v + 1];
  let ax = x - poly[2 * u], ay = y - poly[2 * u + 1];
  let bx = poly[2 * w] - x, by = poly[2 * w + 1] - y;
  const la = hyp(ax, ay) || 1, lb = hyp(bx, by) || 1;
  ax /= la;
  ay /= la;
  bx /= lb;
  by /= lb;
  // inward normals of the incoming and outgoing edges
  const n1x = -ay * side, n1y = ax * side, n2x = -by * side, n2y = bx * side;
  let mx = n1x + n2x, my = n1y + n2y;
  const ml = hyp(mx, my);
  if (ml < 1e-9) {
    mx = n1x;
    my = n1y;
  } else {
    mx /= ml;
    my /= ml;
  }
  const cos = Math.max(0.5, mx * n1x + my * n1y);
  out.push(x + (mx * inset) / cos, y + (my * inset) / cos);
}

/** The point itself when inside the region, else the nearest boundary point moved inside, or null. */
function moveInside(r: CombRegion, x: number, y: number): [number, number] | null {
  if (r.comb.contains(x, y)) return [x, y];
  const nb = r.comb.nearest(x, y, r.allowance);
  if (!nb) return null;
  // keep going the way in (at a corner that is the diagonal, where an edge normal would land on
  // the neighbouring edge)
  let [nx, ny] = nb.dist > 1 ? [(nb.x - x) / nb.dist, (nb.y - y) / nb.dist] : inwardNormal(r.comb, nb.edge);
  for (const k of [1, 2]) {
    const px = nb.x + nx * r.inset * k, py = nb.y + ny * r.inset * k;
    if (r.comb.contains(px, py)) return [px, py];
    [nx, ny] = inwardNormal(r.comb, nb.edge);
  }
  return null;
}

/**
 * Route along polygon boundary from an exit point (on edge eOut) to an entry point (on edge eIn) of
 * the same polygon, the shorter way round, as inset points (exit and entry included).
 */
function walkBoundary(
  r: CombRegion,
  ex: number,
  ey: number,
  eOut: number,
  nx: number,
  ny: number,
  eIn: number,
  maxLen: number,
): number[] | null {
  const idx = r.comb;
  const p = idx.edgePoly[eOut];
  const start = idx.polyStart[p];
  const k = idx.polyStart[p + 1] - start;
  const poly = idx.polys[p];
  const li = eOut - start, lj = eIn - start;
  const [o1x, o1y] = inwardNormal(idx, eOut);
  const [o2x, o2y] = inwardNormal(idx, eIn);
  const out = [ex + o1x * r.inset, ey + o1y * r.inset];
  if (li !== lj) {
    // forward: vertices li+1 … lj; backward: vertices li … lj+1
    const cum = idx.perimeterAt(p);
    const perim = cum[k];
    // boundary length walking forward from vertex i to vertex j
    const along = (i: number, j: number) => (((cum[j] - cum[i]) % perim) + perim) % perim;
    const gap = (i: number, x: number, y: number) => hyp(poly[2 * i] - x, poly[2 * i + 1] - y);
    const a = (li + 1) % k, b = (lj + 1) % k;
    const pathLen = (step: 1 | -1): number =>
      step === 1 ? gap(a, ex, ey) + along(a, lj) + gap(lj, nx, ny) : gap(li, ex, ey) + along(b, li) + gap(b, nx, ny);
    const fwd = pathLen(1), bwd = pathLen(-1);
    // too long a detour is refused before any point is made
    if (Math.min(fwd, bwd) > maxLen) return null;
    const step: 1 | -1 = fwd <= bwd ? 1 : -1;
    let i = step === 1 ? (li + 1) % k : li;
    const stop = step === 1 ? lj : (lj + 1) % k;
    for (;;) {
      pushInsetVertex(idx, p, i, r.inset, out);
      if (i === stop) break;
      i = (i + step + k) % k;
    }
  }
  out.push(nx + o2x * r.inset, ny + o2y * r.inset);
  return out;
}

/** Drops route points while the shortcut stays clear of the boundary; null when a leg crosses it. */
function pullTight(idx: EdgeIndex, pts: number[]): number[] | null {
  const n = pts.length >> 1;
  const out = [pts[0], pts[1]];
  let i = 0;
  while (i < n - 1) {
    let j = i + 1;
    while (j + 1 < n && idx.clear(pts[2 * i], pts[2 * i + 1], pts[2 * (j + 1)], pts[2 * (j + 1) + 1])) j++;
    if (j === i + 1 && !idx.clear(pts[2 * i], pts[2 * i + 1], pts[2 * j], pts[2 * j + 1])) return null;
    out.push(pts[2 * j], pts[2 * j + 1]);
    i = j;
  }
  return out;
}

/**
 * A combed route from a to b inside the region: the points to visit after a, ending with b
 * (flat µm, rounded), or null when there is none (an endpoint too far outside, the way leaves
 * through one boundary and comes back through another, or it would be longer than `maxLen`).
 */
export function combRoute(r: CombRegion, ax: number, ay: number, bx: number, by: number, maxLen = Infinity): number[] | null {
  const a2 = moveInside(r, ax, ay);
  const b2 = moveInside(r, bx, by);
  if (!a2 || !b2) return null;
  const raw: number[] = [];
  r.comb.crossings(a2[0], a2[1], b2[0], b2[1], raw);
  if ((raw.length >> 1) % 2 !== 0) return null;
  const pairs: Array<[number, number]> = [];
  for (let i = 0; i < raw.length; i += 2) pairs.push([raw[i], raw[i + 1]]);
  pairs.sort((u, v) => u[0] - v[0]);
  const dx = b2[0] - a2[0], dy = b2[1] - a2[1];
  const pts = [a2[0], a2[1]];
  for (let i = 0; i < pairs.length; i += 2) {
    const [t0, e0] = pairs[i];
    const [t1, e1] = pairs[i + 1];
    if (r.comb.edgePoly[e0] !== r.comb.edgePoly[e1]) return null;
    const walk = walkBoundary(r, a2[0] + t0 * dx, a2[1] + t0 * dy, e0, a2[0] + t1 * dx, a2[1] + t1 * dy, e1, maxLen);
    if (!walk) return null;
    for (const v of walk) pts.push(v);
  }
  pts.push(b2[0], b2[1]);
  const tight = pullTight(r.comb, pts);
  if (!tight) return null;
  const route: number[] = [];
  const push = (x: number, y: number) => {
    const rx = Math.round(x), ry = Math.round(y);
    const n = route.length;
    const lx = n ? route[n - 2] : Math.round(ax), ly = n ? route[n - 1] : Math.round(ay);
    if (rx !== lx || ry !== ly) route.push(rx, ry);
  };
  for (let i = 0; i < tight.length; i += 2) push(tight[i], tight[i + 1]);
  push(bx, by);
  return route;
}

/** Length of a route starting at (x, y). */
export function routeLength(x: number, y: number, route: number[]): number {
  let len = 0;
  for (let i = 0; i < route.length; i += 2) {
    len += hyp(route[i] - x, route[i + 1] - y);
    x = route[i];
    y = route[i + 1];
  }
  return len;
}
