// Gap fill: one line along the middle of each thin area no wall covers, as wide as the area.
// The centre line is found by shrinking the area until it nearly vanishes (a binary search on the
// offset), which leaves a sliver along the medial axis; the sliver's two farthest points split its
// loop into the line. Good for the strips walls leave (and for parts thinner than one wall); a
// branching gap yields its longest branch.
import type { ExtrusionPath, Path, Paths } from '../types.js';
import { cleanIslands, offset } from '../geom/clipper.js';
import { areaOf, pathLength } from '../geom/path-math.js';

export interface GapFillParams {
  /** nominal line width, µm */
  width: number;
  /** narrowest gap worth a line, µm */
  minWidth: number;
  model: number;
}

export function gapFillLines(gaps: Paths, p: GapFillParams): ExtrusionPath[] {
  const out: ExtrusionPath[] = [];
  // gaps and slivers are offsets' output: clean areas
  for (const island of cleanIslands(gaps)) {
    const area = areaOf(island);
    if (area < p.minWidth * p.minWidth) continue;
    // half-width: for a strip of length L and width t, area = L·t and perimeter ≈ 2L, so
    // t ≈ 2·area/perimeter; then a short binary search around that estimate
    const perimeter = island.reduce((sum, p) => sum + pathLength(p, true), 0);
    const guess = perimeter > 0 ? area / perimeter : p.width / 2;
    if (island.length > 1 && 2 * guess <= p.width * 1.5) {
      // A ring-shaped gap (around a hole): its middle is a closed loop, half its mean width inside
      // its outer edge. The mean width holds all the way round, where a sliver from the widest
      // point would break off where the ring narrows.
      const loops = offset([island[0]], -guess, 'miter', 2);
      for (const points of loops) {
        out.push({ type: 'WALL-INNER', points, closed: true, width: Math.round(2 * guess), model: p.model });
      }
      continue;
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
    const beadWidth = Math.min(2 * halfWidth, p.width * 1.5);
    if (beadWidth < p.minWidth) continue;
    // the sliver a few µm short of vanishing runs along the middle; a ring-shaped gap leaves a
    // ring-shaped sliver, whose middle is a closed loop
    const sliver = offset(island, -Math.max(0, halfWidth - 8), 'miter', 2);
    for (const part of cleanIslands(sliver)) {
      const closed = part.length > 1;
      const line = closed ? part[0] : loopToLine(part[0]);
      if (line.length >= 4) {
        out.push({ type: 'WALL-INNER', points: line, closed, width: Math.round(beadWidth), model: p.model });
      }
    }
  }
  return out;
}

/** Turns a thin closed loop into the open line it wraps: from one far end to the other along one side. */
function loopToLine(loop: Path): Path {
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
  const a = far(far(0));
  const b = far(a);
  const line: Path = [];
  // walk a → b one way round; both sides are within a few µm of the medial axis
  for (let i = a; ; i = (i + 1) % n) {
    line.push(loop[2 * i], loop[2 * i + 1]);
    if (i === b) break;
  }
  return line;
}
