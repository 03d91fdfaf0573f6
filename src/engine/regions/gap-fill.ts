// Gap fill: one line along the middle of each thin area no wall covers, as wide as the area.
// The centre line is first found by shrinking the area until it nearly vanishes (a binary search on
// the offset), which leaves a sliver along the medial axis; the sliver's two farthest points split its
// loop into the line. That is quick and right for a strip of even width, the usual gap between walls.
// Where the width varies (a taper, a crossing, the strokes of embossed letters) the sliver is only the
// widest spot; then the lines follow the gap's medial axis (medial-axis.ts), split into pieces of
// nearly even width, each as wide as the gap there.
import type { ExtrusionPath, Path, Paths } from '../types.js';
import { cleanIslands, clipLines, offset } from '../geom/clipper.js';
import { areaOf, pathLength, signedArea } from '../geom/path-math.js';
import { medialAxis, simplifyAxis } from './medial-axis.js';

export interface GapFillParams {
  /** nominal line width, µm */
  width: number;
  /** narrowest gap worth a line, µm */
  minWidth: number;
  model: number;
}

export function gapFillLines(gaps: Paths, p: GapFillParams): ExtrusionPath[] {
  const out: ExtrusionPath[] = [];
  // a gap whose lines carry less than an eighth of a square line in all (0.06 mm at a sharp tip, where
  // its sliver or axis is cut short) is not worth their travel, retraction and prime; judged per gap,
  // not per line: a long gap whose width ripples is cut into many short lines of even width
  const least = (p.width * p.width) / 8;
  // gaps and slivers are offsets' output: clean areas
  for (const island of cleanIslands(gaps)) {
    const lines = islandLines(island, p);
    const carried = lines.reduce((sum, l) => sum + pathLength(l.points, l.closed) * l.width, 0);
    if (carried >= least) out.push(...lines);
  }
  return out;
}

/** The lines filling one gap. */
function islandLines(island: Paths, p: GapFillParams): ExtrusionPath[] {
  const area = areaOf(island);
  // a gap at the narrowest width must be at least twice as long as wide to be worth a line (a
  // 0.1 mm square needle is no part to print)
  if (area < 2 * p.minWidth * p.minWidth) return [];
  // half-width: for a strip of length L and width t, area = L·t and perimeter ≈ 2L, so
  // t ≈ 2·area/perimeter; then a short binary search around that estimate
  const perimeter = island.reduce((sum, p) => sum + pathLength(p, true), 0);
  const guess = perimeter > 0 ? area / perimeter : p.width / 2;
  if (island.length === 2 && 2 * guess <= p.width * 1.5) {
    // A ring-shaped gap (around a hole): its middle is a closed loop, half its mean width inside
    // its outer edge. The mean width holds all the way round, where a sliver from the widest
    // point would break off where the ring narrows. Only for a true ring: a gap with a tail or a
    // branch would have the loop cut across its hole, so one that leaves the gap goes on below.
    const loops = offset([island[0]], -guess, 'miter', 2);
    const strays = clipLines(loops.map((l) => [...l, l[0], l[1]]), offset(island, 2, 'miter', 2), false);
    if (loops.length === 1 && strays.reduce((sum, l) => sum + pathLength(l, false), 0) < 10) {
      return [{ type: 'WALL-INNER', points: loops[0], closed: true, width: Math.round(2 * guess), model: p.model }];
    }
  }
  let lo = 0;
  let hi = Math.min(p.width * 1.5, guess * 2);
  if (offset(island, -hi, 'miter', 2).length > 0) lo = hi;
  for (let i = 0; i < 4 && lo < hi; i++) {
    const mid = (lo + hi) / 2;
    if (offset(island, -mid, 'miter', 2).length > 0) lo = mid;
    else hi = mid;
  }
  const halfWidth = lo;
  // the gap's width lies between 2·lo and 2·hi (four halvings apart); where that bracket straddles
  // the narrowest filled, one offset says on which side the gap is (the bracket alone let a gap of
  // 91 µm through and stopped one of 96: a tapering fin printed, skipped a layer, printed again)
  // (an offset to within a µm of half the width already vanishes)
  if (2 * hi + 4 < p.minWidth) return [];
  if (2 * lo < p.minWidth && offset(island, -(p.minWidth / 2 - 2), 'miter', 2).length === 0) return [];
  const beadWidth = Math.min(Math.max(2 * halfWidth, p.minWidth), p.width * 1.5);
  // the sliver a few µm short of vanishing runs along the middle; a ring-shaped gap leaves a
  // ring-shaped sliver, whose middle is a closed loop
  const sliver = offset(island, -Math.max(0, halfWidth - 8), 'miter', 2);
  const lines: ExtrusionPath[] = [];
  let covered = 0;
  const parts = cleanIslands(sliver);
  for (const part of parts) {
    const closed = part.length > 1;
    let line = closed ? part[0] : loopToLine(part[0]);
    // a dab: the gap is about as long as it is wide (a pin, a cone's tip, the last square between
    // walls), so its middle is nearly a point, and a line that short would carry a fifth of the
    // plastic the gap holds (the extrusion is length × width)
    if (!closed && parts.length === 1 && island.length === 1 && pathLength(line, false) < beadWidth) {
      const dab = dabLine(island, area, beadWidth);
      if (dab.length > 0) line = dab;
    }
    if (line.length >= 4) {
      lines.push({ type: 'WALL-INNER', points: line, closed, width: Math.round(beadWidth), model: p.model });
      // a lone dash's round ends reach the gap's ends; where the sliver broke into several dashes
      // (a strip narrower between its ends), what lies between them is not covered, so no ends are
      // counted (counted, two end dashes of a 2.35 mm strip passed for 80 % and left a 1 mm hole)
      const ends = closed || parts.length > 1 ? 0 : beadWidth;
      covered += (pathLength(line, closed) + ends) * beadWidth;
    }
  }
  // A sliver broken into dashes at the wide spots of a strip of nearly even width (narrower between
  // its ends): the offset at the strip's narrowest that still leaves one piece runs all along it.
  // (a crossing or a branch may leave one piece too, along one stroke: the medial axis below is
  // still tried, and whichever covers more is taken)
  let best = lines;
  if (parts.length > 1 && parts.every((q) => q.length === 1) && covered < area * COVERED_ENOUGH) {
    const joined = joinedLine(island, halfWidth, area, p);
    if (joined && joined.covered > covered) {
      best = [joined.path];
      covered = joined.covered;
    }
  }
  // The sliver runs only where the gap is within a few µm of its widest: all of a strip of even
  // width, but only the wide end of a taper or the middle of a crossing. Where the lines cover
  // much less than the gap, follow its medial axis instead, with the width it has along the way.
  if (covered < area * COVERED_ENOUGH) {
    const axis = axisGapFill(island, perimeter, guess, p);
    // the axis must cover more than the lines it replaces, and an odd triangulation is not
    // trusted with much more than the gap's area
    if (axis.covered > covered && axis.covered <= area * 1.5) {
      return axis.paths;
    }
  }
  return best;
}

/** A strip's narrowest is at least this share of its widest for one line along it. */
const EVEN_ENOUGH = 0.75;

/**
 * One line along a strip whose sliver broke into dashes: the largest offset (down to EVEN_ENOUGH of
 * the half-width) that leaves one piece, turned into a line, as wide as carries the gap's area.
 */
function joinedLine(island: Paths, halfWidth: number, area: number, p: GapFillParams): { path: ExtrusionPath; covered: number } | null {
  const onePiece = (d: number): Paths | null => {
    const parts = cleanIslands(offset(island, -d, 'miter', 2));
    return parts.length === 1 && parts[0].length === 1 ? parts[0] : null;
  };
  let lo = halfWidth * EVEN_ENOUGH;
  let best = onePiece(lo);
  if (!best) return null;
  let hi = halfWidth;
  for (let i = 0; i < 4; i++) {
    const mid = (lo + hi) / 2;
    const got = onePiece(mid);
    if (got) {
      lo = mid;
      best = got;
    } else hi = mid;
  }
  // the sliver is no longer a few µm thin where the strip widens: its middle, not one side
  const line = loopToLine(best[0], true);
  // the sliver ends the offset short of the gap's ends, and a bead is about flat-ended: out to them
  extendEnds(line, lo);
  const length = pathLength(line, false);
  if (line.length < 4 || length <= 0) return null;
  // a sliver that curls (a C, a spiral) has no middle halfway between its sides: such a line leaves the gap
  const strays = clipLines([line], offset(island, 2, 'miter', 2), false);
  if (strays.reduce((sum, l) => sum + pathLength(l, false), 0) > 10) return null;
  // the line runs the gap's length: as wide as carries its area, between the strip's narrowest and
  // widest (a line along one stroke of a crossing would otherwise be made as wide as all the arms hold)
  const width = Math.min(Math.max(Math.min(area / length, 2 * halfWidth), 2 * lo, p.minWidth), p.width * 1.5);
  const path: ExtrusionPath = { type: 'WALL-INNER', points: line, closed: false, width: Math.round(width), model: p.model };
  return { path, covered: length * width };
}

/** A dab's gap is at most this many bead widths long, */
const DAB_MAX_LENGTH = 2;
/** and its outline has at most this many points. */
const DAB_MAX_POINTS = 256;

/**
 * The line for a dab: straight along the long side of the gap's smallest bounding rectangle, through
 * its centre, as long as the gap's area over the bead's width (so that the bead carries the plastic
 * the gap holds), though no longer than the rectangle. Empty for a gap more than DAB_MAX_LENGTH beads
 * long, or one with next to nothing to carry. A square gap gets a line parallel to two of its
 * sides, which a bead of about its width covers but for its corners (a diagonal line would leave four).
 */
export function dabLine(island: Paths, area: number, width: number): Path {
  const outline = island[0];
  const n = outline.length >> 1;
  // a gap of hundreds of points is no small square or circle (and each edge is tried against all points)
  if (n < 3 || n > DAB_MAX_POINTS || width <= 0) return [];
  let best = Infinity;
  // the smallest rectangle's long-side direction, length and centre
  let dirX = 1, dirY = 0, long = 0, centreX = 0, centreY = 0;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    const dx = outline[2 * j] - outline[2 * i], dy = outline[2 * j + 1] - outline[2 * i + 1];
    const len = Math.hypot(dx, dy);
    if (len === 0) continue;
    // u along this edge, v across it
    const ex = dx / len, ey = dy / len;
    let minU = Infinity, maxU = -Infinity, minV = Infinity, maxV = -Infinity;
    for (let k = 0; k < n; k++) {
      const x = outline[2 * k], y = outline[2 * k + 1];
      const u = x * ex + y * ey, v = y * ex - x * ey;
      if (u < minU) minU = u;
      if (u > maxU) maxU = u;
      if (v < minV) minV = v;
      if (v > maxV) maxV = v;
    }
    const size = (maxU - minU) * (maxV - minV);
    if (size >= best) continue;
    best = size;
    const alongEdge = maxU - minU >= maxV - minV;
    dirX = alongEdge ? ex : -ey;
    dirY = alongEdge ? ey : ex;
    long = Math.max(maxU - minU, maxV - minV);
    const cu = (minU + maxU) / 2, cv = (minV + maxV) / 2;
    centreX = cu * ex - cv * ey;
    centreY = cu * ey + cv * ex;
  }
  // a gap much longer than the bead is wide is no dab (a band whose sliver is only its widest spot)
  if (!(best < Infinity) || long > DAB_MAX_LENGTH * width) return [];
  const half = Math.min(area / width, long) / 2;
  if (half < 5) return [];
  return [
    Math.round(centreX - dirX * half), Math.round(centreY - dirY * half),
    Math.round(centreX + dirX * half), Math.round(centreY + dirY * half),
  ];
}

/** Share of a gap's area its sliver lines must cover before the medial axis is tried instead. */
const COVERED_ENOUGH = 0.7;
/** How far a point's width may be off the straight change between the axis points kept around it, µm. */
const AXIS_WIDTH_TOLERANCE = 25;
/** How far a bead's width may drift along one extrusion path before the path is split (share). */
const WIDTH_STEP = 0.15;

/** Gap fill along the medial axis: pieces of even width, each printed as wide as the gap there. */
function axisGapFill(island: Paths, perimeter: number, halfWidthGuess: number, p: GapFillParams): { paths: ExtrusionPath[]; covered: number } {
  // samples at half the narrowest width filled, or a quarter of the mean width if more (fewer points,
  // same lines); at most ~20 000 points for one gap
  const spacing = Math.max(10, p.minWidth / 2, halfWidthGuess / 2, perimeter / 20_000);
  const maxWidth = p.width * 1.5;
  const out: ExtrusionPath[] = [];
  let covered = 0;
  for (const raw of medialAxis(island, spacing)) {
    const line = simplifyAxis(raw, 10, AXIS_WIDTH_TOLERANCE);
    const n = line.points.length >> 1;
    if (n < 2) continue;
    const length = pathLength(line.points, line.closed);
    const mean = line.widths.reduce((a, b) => a + b, 0) / n;
    // a spur shorter than the gap is wide is the triangulation's noise at a corner, not a branch
    if (!line.closed && length < mean) continue;
    const segs = line.closed ? n : n - 1;
    let piece: number[] = [];
    let pieceW = 0, pieceLen = 0, pieceStart = 0;
    const flush = (): void => {
      if (piece.length >= 4 && pieceLen > 0) {
        const width = Math.round(pieceW / pieceLen);
        out.push({ type: 'WALL-INNER', points: piece, closed: false, width, model: p.model });
        covered += pieceLen * width;
      }
      piece = [];
      pieceW = pieceLen = 0;
    };
    // `onward`: this step goes on along the same axis segment as the one before, so while the piece
    // lasts its last point moves on instead of a new one being added (a long taper is cut into many
    // steps of width, but printed as one move: a self-crossing outline's wedges gave a million
    // 8 µm moves a layer)
    const step = (ax: number, ay: number, bx: number, by: number, w: number, onward: boolean): void => {
      if (w < p.minWidth) {
        flush();
        return;
      }
      if (piece.length > 0 && Math.abs(w - pieceStart) > WIDTH_STEP * pieceStart) flush();
      if (piece.length === 0) {
        piece.push(ax, ay);
        pieceStart = w;
      } else if (onward) piece.length -= 2;
      piece.push(bx, by);
      const len = Math.hypot(bx - ax, by - ay);
      pieceW += w * len;
      pieceLen += len;
    };
    for (let i = 0; i < segs; i++) {
      const j = (i + 1) % n;
      const w0 = Math.min(maxWidth, line.widths[i]), w1 = Math.min(maxWidth, line.widths[j]);
      const ax = line.points[2 * i], ay = line.points[2 * i + 1], bx = line.points[2 * j], by = line.points[2 * j + 1];
      // the width changes linearly along a segment (a taper): cut it where it drifts a step (of the
      // narrowest width filled at least: narrower steps are dropped anyway)
      const parts = Math.max(1, Math.ceil(Math.abs(w1 - w0) / (WIDTH_STEP * Math.max(p.minWidth, 1, Math.min(w0, w1)))));
      for (let k = 0; k < parts; k++) {
        const t0 = k / parts, t1 = (k + 1) / parts;
        step(
          Math.round(ax + (bx - ax) * t0), Math.round(ay + (by - ay) * t0),
          Math.round(ax + (bx - ax) * t1), Math.round(ay + (by - ay) * t1),
          w0 + ((w1 - w0) * (t0 + t1)) / 2,
          k > 0,
        );
      }
    }
    flush();
  }
  return { paths: out, covered };
}

/**
 * Along-loop distance (µm) over which the turning at a sliver's end is summed: the sliver is a few µm
 * wide, so it turns back within a few times that.
 */
const TIP_WINDOW_UM = 60;
/** A sliver's end turns back by at least this much (radians, about 150°) within the window. */
const TIP_TURN = 2.6;

/**
 * The two ends of a thin closed loop (a sliver along a gap's middle): the two places, well apart along
 * the loop, where it turns back on itself. Null when it has no two such places.
 */
function sliverEnds(loop: Path): [number, number] | null {
  const n = loop.length / 2;
  if (n < 4) return null;
  const orientation = Math.sign(signedArea(loop));
  // per vertex: the turn there (signed as the loop winds, so an end turns positive) and the length of
  // the edge leaving it; prefix sums over the loop walked three times, to take windows across vertex 0
  const arc = new Float64Array(3 * n + 1);
  const turned = new Float64Array(3 * n + 1);
  for (let k = 0; k < 3 * n; k++) {
    const i = k % n, h = (i + n - 1) % n, j = (i + 1) % n;
    const ux = loop[2 * i] - loop[2 * h], uy = loop[2 * i + 1] - loop[2 * h + 1];
    const vx = loop[2 * j] - loop[2 * i], vy = loop[2 * j + 1] - loop[2 * i + 1];
    const turn = ux * vy - uy * vx === 0 && ux * vx + uy * vy >= 0 ? 0 : Math.atan2(ux * vy - uy * vx, ux * vx + uy * vy);
    turned[k + 1] = turned[k] + orientation * turn;
    arc[k + 1] = arc[k] + Math.hypot(vx, vy);
  }
  const total = arc[n];
  if (total < 4 * TIP_WINDOW_UM) return null;
  // the turning within TIP_WINDOW_UM either side of each vertex (in the middle copy of the loop)
  const window = new Float64Array(n);
  for (let k = n, lo = n, hi = n; k < 2 * n; k++) {
    while (arc[k] - arc[lo] > TIP_WINDOW_UM) lo++;
    if (hi < k) hi = k;
    while (hi + 1 < 3 * n && arc[hi + 1] - arc[k] <= TIP_WINDOW_UM) hi++;
    window[k - n] = turned[hi + 1] - turned[lo];
  }
  let a = 0;
  for (let i = 1; i < n; i++) if (window[i] > window[a]) a = i;
  // the other end: the sharpest turn back well away from the first, along the loop either way
  let b = -1;
  for (let i = 0; i < n; i++) {
    const along = Math.abs(arc[i] - arc[a]);
    if (Math.min(along, total - along) < 4 * TIP_WINDOW_UM) continue;
    if (b < 0 || window[i] > window[b]) b = i;
  }
  return b >= 0 && window[a] >= TIP_TURN && window[b] >= TIP_TURN ? [a, b] : null;
}

/**
 * Turns a thin closed loop into the open line it wraps: from one end to the other along one side.
 * The ends are where the loop turns back; failing that (no clear ends), the two farthest points.
 */
function loopToLine(loop: Path, middle = false): Path {
  const n = loop.length / 2;
  if (n < 2) return [];
  // farthest pair: start from vertex 0, find the farthest, then the farthest from that
  const far = (from: number): number => {
    let best = from;
    let bd = -1;
    for (let i = 0; i < n; i++) {
      const d = (loop[2 * i] - loop[2 * from]) ** 2 + (loop[2 * i + 1] - loop[2 * from + 1]) ** 2;
      if (d > bd) {
        bd = d;
        best = i;
      }
    }
    return best;
  };
  // (on a sliver that curls round, a spiral or a C, the farthest points are not its ends: the line
  // between them ran back along itself, twice the material along the middle of a spiral arm)
  const ends = sliverEnds(loop);
  const a = ends ? ends[0] : far(far(0));
  const b = ends ? ends[1] : far(a);
  const line: Path = [];
  // walk a → b one way round; both sides are within a few µm of the medial axis
  for (let i = a; ; i = (i + 1) % n) {
    line.push(loop[2 * i], loop[2 * i + 1]);
    if (i === b) break;
  }
  if (!middle) return line;
  const other: Path = [];
  for (let i = a; ; i = (i + n - 1) % n) {
    other.push(loop[2 * i], loop[2 * i + 1]);
    if (i === b) break;
  }
  return midway(line, other);
}

/** Moves an open line's two end points outward along its end segments by `by` µm. */
function extendEnds(line: Path, by: number): void {
  const n = line.length;
  if (n < 4 || by <= 0) return;
  const push = (end: number, next: number): void => {
    const dx = line[end] - line[next], dy = line[end + 1] - line[next + 1];
    const len = Math.hypot(dx, dy);
    if (len === 0) return;
    line[end] = Math.round(line[end] + (dx / len) * by);
    line[end + 1] = Math.round(line[end + 1] + (dy / len) * by);
  };
  push(0, 2);
  push(n - 2, n - 4);
}

/** The line halfway between two lines with the same ends, point for point at equal shares of length. */
function midway(p: Path, q: Path): Path {
  const m = Math.max(p.length, q.length) >> 1;
  const at = (line: Path, cum: number[], t: number): [number, number] => {
    const target = t * cum[cum.length - 1];
    let k = 1;
    while (k < cum.length - 1 && cum[k] < target) k++;
    const seg = cum[k] - cum[k - 1];
    const f = seg > 0 ? (target - cum[k - 1]) / seg : 0;
    return [line[2 * k - 2] + (line[2 * k] - line[2 * k - 2]) * f, line[2 * k - 1] + (line[2 * k + 1] - line[2 * k - 1]) * f];
  };
  const lengths = (line: Path): number[] => {
    const cum = [0];
    for (let i = 2; i < line.length; i += 2) cum.push(cum[cum.length - 1] + Math.hypot(line[i] - line[i - 2], line[i + 1] - line[i - 1]));
    return cum;
  };
  if (m < 2) return p;
  const cp = lengths(p), cq = lengths(q);
  const out: Path = [];
  for (let i = 0; i < m; i++) {
    const t = i / (m - 1);
    const [px, py] = at(p, cp, t), [qx, qy] = at(q, cq, t);
    const x = Math.round((px + qx) / 2), y = Math.round((py + qy) / 2);
    // (no repeated points)
    if (out.length === 0 || x !== out[out.length - 2] || y !== out[out.length - 1]) out.push(x, y);
  }
  // both lines start at one corner of a blunt end: the end points are brought onto the line's
  // direction, as far out along it as they were
  const straighten = (end: number, next: number): void => {
    const dx = out[end] - out[next], dy = out[end + 1] - out[next + 1];
    const nx = out[next] - out[next + 2 * Math.sign(next - end)], ny = out[next + 1] - out[next + 1 + 2 * Math.sign(next - end)];
    const len = Math.hypot(nx, ny);
    const along = len > 0 ? (dx * nx + dy * ny) / len : 0;
    if (along <= 0) return;
    out[end] = Math.round(out[next] + (nx / len) * along);
    out[end + 1] = Math.round(out[next + 1] + (ny / len) * along);
  };
  if (out.length >= 6) {
    straighten(0, 2);
    straighten(out.length - 2, out.length - 4);
  }
  return out;
}
