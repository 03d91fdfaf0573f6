// Lines of skin and gap fill are clipped half a width inside their area so that a line running
// along the edge does not overlap the wall; their ends are then stretched back out towards the edge,
// so that lines meeting the wall head-on still reach it (plus the configured overlap).
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

/** Extends the lines' ends by `by` and clips them to `limit` so an oblique edge is not overshot. */
export function reachEdge(lines: Paths, by: number, limit: Paths): Paths {
  if (lines.length === 0) return [];
  return clipLines(extendEnds(lines, by), limit, true).filter((l) => l.length >= 4);
}
