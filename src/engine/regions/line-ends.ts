// Lines of skin are clipped inside their area so that a line running along the edge does not
// overlap the wall; their ends are then stretched back out towards the edge, so that lines meeting
// the wall still reach it (plus the configured overlap).
import type { Path, Paths } from '../types.js';
import { clipLines } from '../geom/clipper.js';

/** Moves the first and last point of each open polyline outwards along its end segment by `by` µm. */
export function extendEnds(lines: Paths, by: number): Paths {
  if (by <= 0) return lines;
  const out: Paths = [];
  for (const l of lines) {
    const n = l.length;
    if (n < 4) continue;
    const p: Path = l.slice();
    let dx = p[0] - p[2];
    let dy = p[1] - p[3];
    let len = Math.hypot(dx, dy);
    if (len > 0) {
      p[0] = Math.round(p[0] + (dx / len) * by);
      p[1] = Math.round(p[1] + (dy / len) * by);
    }
    dx = p[n - 2] - p[n - 4];
    dy = p[n - 1] - p[n - 3];
    len = Math.hypot(dx, dy);
    if (len > 0) {
      p[n - 2] = Math.round(p[n - 2] + (dx / len) * by);
      p[n - 1] = Math.round(p[n - 1] + (dy / len) * by);
    }
    out.push(p);
  }
  return out;
}

/** Collinear within this (µm): Clipper2 rounds the clipped pieces to whole µm. */
const TRACK_UM = 3;

interface Track {
  /** offset of the line's track along the common normal */
  off: number;
  /** its extent along the common direction */
  lo: number;
  hi: number;
  /** the first point is the low end */
  forward: boolean;
  /** how far it may reach: the pieces holding it, cut halfway to the next line on its track */
  from: number;
  to: number;
}

/**
 * Extends straight lines along `dir` (one skin angle: solidLines' two-point segments) at both ends
 * along themselves, up to `by`, as far as `limit` reaches without a break. A line meeting the wall
 * at a shallow angle needs a long stretch (0.14 mm across at 5° is 1.6 mm along): with the stretch
 * capped at two line widths such lines left a sawtooth of slits along chamfered edges (the bridging
 * plate's corners, 3DBenchy's bow: ~0.5 mm² each on first and top layers). A long stretch may cross
 * a hole or a gap and come back into `limit` further on, on a track another line prints: only the
 * piece holding the line itself is kept, and lines on one track meet halfway between them.
 */
export function reachEdge(lines: Paths, by: number, limit: Paths, dir: { dx: number; dy: number }, shortBy: number): Paths {
  if (lines.length === 0) return [];
  const ux = dir.dx;
  const uy = dir.dy;
  const offOf = (x: number, y: number) => y * ux - x * uy;
  // lines on the skin direction (rounded to whole µm: both ends on one track); any other line is
  // stretched as before, by `shortBy`, with no track to check a long stretch against
  const straight: Paths = [];
  const other: Paths = [];
  for (const l of lines) {
    const onTrack = l.length === 4 && (l[0] !== l[2] || l[1] !== l[3]) && Math.abs(offOf(l[0], l[1]) - offOf(l[2], l[3])) <= TRACK_UM;
    (onTrack ? straight : other).push(l);
  }
  const rest = other.length > 0 ? clipLines(extendEnds(other, shortBy), limit, true).filter((l) => l.length >= 4) : [];
  if (straight.length === 0) return rest;
  const tracks: Track[] = straight.map((l) => {
    const a = l[0] * ux + l[1] * uy;
    const b = l[2] * ux + l[3] * uy;
    return { off: offOf(l[0], l[1]), lo: Math.min(a, b), hi: Math.max(a, b), forward: a <= b, from: NaN, to: NaN };
  });
  const order = tracks.map((_, i) => i).sort((i, j) => tracks[i]!.off - tracks[j]!.off);
  const sortedOff = order.map((i) => tracks[i]!.off);
  const pieces = clipLines(extendEnds(straight, by), limit, true);
  for (const p of pieces) {
    if (p.length < 4) continue;
    const n = p.length;
    const a = p[0] * ux + p[1] * uy;
    const b = p[n - 2] * ux + p[n - 1] * uy;
    const lo = Math.min(a, b);
    const hi = Math.max(a, b);
    const off = offOf(p[0], p[1]);
    // the lines on this piece's track: a binary search for the first within TRACK_UM
    let k = lowerBound(sortedOff, off - TRACK_UM);
    for (; k < order.length && sortedOff[k]! <= off + TRACK_UM; k++) {
      const t = tracks[order[k]!]!;
      // a piece holding the line lies in the one stretch of the track inside the limit around it;
      // it may be another line's stretched end come back into the limit past a hole, so the line
      // takes the widest reach of all pieces holding it, no further than its own stretch
      if (lo <= t.lo + TRACK_UM && hi >= t.hi - TRACK_UM) {
        t.from = Math.max(t.lo - by, Math.min(lo, t.lo, Number.isNaN(t.from) ? Infinity : t.from));
        t.to = Math.min(t.hi + by, Math.max(hi, t.hi, Number.isNaN(t.to) ? -Infinity : t.to));
      }
    }
  }
  // two lines on one track whose pieces reach over each other meet halfway: the lines of a track
  // (offsets within TRACK_UM of the one before) in order along it
  for (let k = 0; k < order.length; ) {
    let end = k + 1;
    while (end < order.length && sortedOff[end]! - sortedOff[end - 1]! <= TRACK_UM) end++;
    const track = order.slice(k, end).map((i) => tracks[i]!).sort((p, q) => p.lo - q.lo);
    for (let j = 0; j + 1 < track.length; j++) {
      const t = track[j]!;
      const u = track[j + 1]!;
      if (Number.isNaN(t.from) || Number.isNaN(u.from) || t.to <= u.from) continue;
      const mid = (t.hi + u.lo) / 2;
      t.to = Math.min(t.to, Math.max(t.hi, mid));
      u.from = Math.max(u.from, Math.min(u.lo, mid));
    }
    k = end;
  }
  const out: Paths = [];
  tracks.forEach((t, i) => {
    const l = straight[i]!;
    // a line the clipping lost (it should lie inside the limit) keeps its own length
    const from = Number.isNaN(t.from) ? t.lo : t.from;
    const to = Number.isNaN(t.to) ? t.hi : t.to;
    // each end moves along the line to where its piece reaches: the low end to `from`, the high end to `to`
    const dStart = t.forward ? from - t.lo : to - t.hi;
    const dEnd = t.forward ? to - t.hi : from - t.lo;
    const sx = l[0] + ux * dStart;
    const sy = l[1] + uy * dStart;
    const ex = l[2] + ux * dEnd;
    const ey = l[3] + uy * dEnd;
    out.push([Math.round(sx), Math.round(sy), Math.round(ex), Math.round(ey)]);
  });
  return rest.length > 0 ? out.concat(rest) : out;
}

function lowerBound(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
