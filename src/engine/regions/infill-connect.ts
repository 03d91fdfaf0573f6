// Sparse infill lines end on the edge of their area. Here neighbouring ends are joined by
// connectors that run along that edge (not straight across), and the ends left free get a short
// anchor along the edge. The infill then prints in long chains, each tied to the walls around it,
// with fewer travels and without the blobs of many separate line starts.
import type { Path, Paths } from '../types.js';
import { EdgeIndex } from '../plan/edge-index.js';

export interface ConnectParams {
  /** longest connector along the edge, µm */
  maxConnect: number;
  /** anchor along the edge at a chain's free end, µm (0: none) */
  anchor: number;
  /** a line end within this distance of the edge counts as on it, µm */
  tolerance: number;
}

/** A line end on the edge: which line, which end, which contour, and where along it (µm). */
interface End {
  line: number;
  /** 0: the line's first point, 1: its last */
  side: 0 | 1;
  poly: number;
  t: number;
  /** neighbours along the contour: forward and backward distance to the next end, µm */
  ahead: number;
  behind: number;
}

/** A line joined to a chain: the contour points leading to it, and whether it is entered at its last point. */
interface Step {
  line: number;
  fromEnd: boolean;
  via: Path;
}

/**
 * Joins infill `lines` (open polylines clipped to `area`) into chains by connectors along the area's
 * edge, each at most `maxConnect` long and to the nearest free neighbouring end; then anchors the
 * chains' free ends along the edge (at most `anchor`, and at most half the way to the next end).
 */
export function connectAlongEdge(lines: Paths, area: Paths, p: ConnectParams): Paths {
  const usable = lines.filter((l) => l.length >= 4);
  if (usable.length === 0 || area.length === 0) return usable;
  const index = new EdgeIndex(area);
  const ends: Array<End | undefined> = new Array(usable.length * 2);
  const byPoly = new Map<number, End[]>();
  usable.forEach((l, i) => {
    for (const side of [0, 1] as const) {
      const k = side === 0 ? 0 : l.length - 2;
      const b = index.nearest(l[k], l[k + 1], p.tolerance);
      if (!b) continue;
      const poly = index.edgePoly[b.edge];
      const local = b.edge - index.polyStart[poly];
      const [x1, y1] = index.edge(b.edge);
      const t = index.perimeterAt(poly)[local] + Math.hypot(b.x - x1, b.y - y1);
      const end: End = { line: i, side, poly, t, ahead: Infinity, behind: Infinity };
      ends[2 * i + side] = end;
      const group = byPoly.get(poly);
      if (group) group.push(end);
      else byPoly.set(poly, [end]);
    }
  });

  // neighbours along each contour, and the distance to them
  const groups: End[][] = [];
  const slot = new Map<End, { group: number; at: number }>();
  for (const [poly, group] of byPoly) {
    const cum = index.perimeterAt(poly);
    const perimeter = cum[cum.length - 1];
    group.sort((u, v) => u.t - v.t);
    group.forEach((e, at) => slot.set(e, { group: groups.length, at }));
    groups.push(group);
    for (let k = 0; k < group.length && group.length > 1; k++) {
      const a = group[k];
      const b = group[(k + 1) % group.length];
      const len = (((b.t - a.t) % perimeter) + perimeter) % perimeter;
      a.ahead = len;
      b.behind = len;
    }
  }
  const used = new Uint8Array(usable.length);
  /** The neighbouring end a connector from `e` may go to (nearest along the edge, line not used yet). */
  const nextEnd = (e: End): { to: End; forward: boolean } | null => {
    const { group, at } = slot.get(e)!;
    const g = groups[group];
    if (g.length < 2) return null;
    let best: { to: End; forward: boolean; len: number } | null = null;
    for (const forward of [true, false]) {
      const to = g[(at + (forward ? 1 : g.length - 1)) % g.length];
      const len = forward ? e.ahead : e.behind;
      if (to.line === e.line || used[to.line] || len > p.maxConnect) continue;
      if (!best || len < best.len) best = { to, forward, len };
    }
    return best;
  };
  const options = (key: number): number => {
    const e = ends[key];
    if (!e) return 0;
    const { group, at } = slot.get(e)!;
    const g = groups[group];
    let n = 0;
    if (g.length > 1 && e.ahead <= p.maxConnect && g[(at + 1) % g.length].line !== e.line) n++;
    if (g.length > 1 && e.behind <= p.maxConnect && g[(at + g.length - 1) % g.length].line !== e.line) n++;
    return n;
  };
  /** From the end `key` (where the chain stands), joins line after line along the edge. */
  const walk = (key: number): Step[] => {
    const steps: Step[] = [];
    for (;;) {
      const e = ends[key];
      const next = e ? nextEnd(e) : null;
      if (!e || !next) return steps;
      const { to, forward } = next;
      used[to.line] = 1;
      const via = forward ? contourBetween(index, e.poly, e.t, to.t) : reversed(contourBetween(index, e.poly, to.t, e.t));
      steps.push({ line: to.line, fromEnd: to.side === 1, via });
      key = 2 * to.line + (1 - to.side);
    }
  };

  // chains start at the lines with the fewest ways on (a corner's short line, a line whose end no
  // connector reaches), from their end with the fewest: walking on from there makes the zigzag
  const starts = usable.map((_, i) => ({ i, a: options(2 * i), b: options(2 * i + 1) }));
  starts.sort((u, v) => Math.min(u.a, u.b) - Math.min(v.a, v.b) || u.a + u.b - (v.a + v.b) || u.i - v.i);
  const out: Paths = [];
  for (const { i, a, b } of starts) {
    if (used[i]) continue;
    used[i] = 1;
    const side = a <= b ? 0 : 1; // printed from this end
    const after = walk(2 * i + (1 - side));
    const before = walk(2 * i + side);
    const chain: Path = [];
    for (let k = before.length - 1; k >= 0; k--) {
      appendLine(chain, usable[before[k].line], !before[k].fromEnd);
      chain.push(...reversed(before[k].via));
    }
    appendLine(chain, usable[i], side === 1);
    for (const st of after) {
      chain.push(...st.via);
      appendLine(chain, usable[st.line], st.fromEnd);
    }
    if (p.anchor > 0) {
      const firstKey = before.length ? 2 * before[before.length - 1].line + (before[before.length - 1].fromEnd ? 0 : 1) : 2 * i + side;
      const lastKey = after.length ? 2 * after[after.length - 1].line + (after[after.length - 1].fromEnd ? 0 : 1) : 2 * i + (1 - side);
      const head = ends[firstKey];
      const tail = ends[lastKey];
      if (head) chain.unshift(...reversed(anchorFrom(index, head, p.anchor)));
      if (tail) chain.push(...anchorFrom(index, tail, p.anchor));
    }
    out.push(chain);
  }
  return out;
}

/** Appends a line's points (from its last point backwards when `fromEnd`), skipping a repeated join point. */
function appendLine(chain: Path, l: Path, fromEnd: boolean): void {
  const n = l.length >> 1;
  for (let k = 0; k < n; k++) {
    const i = fromEnd ? n - 1 - k : k;
    const x = l[2 * i], y = l[2 * i + 1];
    const m = chain.length;
    if (m >= 2 && chain[m - 2] === x && chain[m - 1] === y) continue;
    chain.push(x, y);
  }
}

/** The contour's vertices strictly between positions `from` and `to`, walking forwards. */
function contourBetween(index: EdgeIndex, poly: number, from: number, to: number): Path {
  const cum = index.perimeterAt(poly);
  const poly_ = index.polys[poly];
  const k = poly_.length >> 1;
  const perimeter = cum[k];
  const span = (((to - from) % perimeter) + perimeter) % perimeter;
  const out: Path = [];
  // first vertex after `from`
  let v = 0;
  while (v < k && cum[v] <= from) v++;
  for (let s = 0; s < k; s++) {
    const vi = (v + s) % k;
    const at = ((cum[vi] - from) % perimeter + perimeter) % perimeter;
    if (at <= 0 || at >= span) break;
    out.push(poly_[2 * vi], poly_[2 * vi + 1]);
  }
  return out;
}

/**
 * Points of an anchor from an end along the contour, into the larger free stretch beside it: at
 * most `anchor` long and at most half the way to the next end that way (whose anchor may come).
 */
function anchorFrom(index: EdgeIndex, end: End, anchor: number): Path {
  const forward = end.ahead >= end.behind;
  const len = Math.min(anchor, (forward ? end.ahead : end.behind) / 2);
  if (!(len > 0)) return [];
  const cum = index.perimeterAt(end.poly);
  const perimeter = cum[cum.length - 1];
  const target = ((((forward ? end.t + len : end.t - len) % perimeter) + perimeter) % perimeter);
  const via = forward ? contourBetween(index, end.poly, end.t, target) : reversed(contourBetween(index, end.poly, target, end.t));
  const [x, y] = pointAt(index, end.poly, target);
  return [...via, x, y];
}

/** The point at position t (0 ≤ t < perimeter) along contour `poly`. */
function pointAt(index: EdgeIndex, poly: number, t: number): [number, number] {
  const cum = index.perimeterAt(poly);
  const p = index.polys[poly];
  const k = p.length >> 1;
  let lo = 0, hi = k - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (cum[mid] <= t) lo = mid;
    else hi = mid - 1;
  }
  const j = lo + 1 === k ? 0 : lo + 1;
  const len = cum[lo + 1] - cum[lo];
  const f = len > 0 ? (t - cum[lo]) / len : 0;
  return [Math.round(p[2 * lo] + f * (p[2 * j] - p[2 * lo])), Math.round(p[2 * lo + 1] + f * (p[2 * j + 1] - p[2 * lo + 1]))];
}

/** A flat point list in reverse order. */
function reversed(p: Path): Path {
  const out: Path = new Array(p.length);
  for (let i = 0, j = p.length - 2; j >= 0; i += 2, j -= 2) {
    out[i] = p[j];
    out[i + 1] = p[j + 1];
  }
  return out;
}
