// Wall order inside an island. Each outer loop (the part's contour or a hole's) is printed together
// with the inner loops that lie along it, so the nozzle finishes one region before moving to the
// next instead of visiting every hole once per inset.
import type { ExtrusionPath } from '../types.js';
import { chooseSeam, type SeamContext } from './seam.js';
import { orderLoops, type Visit } from './order.js';
import { hyp } from './length.js';
import { BoxGrid, boxDistance, boxOfPaths } from './box-grid.js';

function distToLoop(x: number, y: number, p: number[], closed: boolean): number {
  const n = p.length >> 1;
  let best = Infinity;
  const m = closed ? n : n - 1;
  for (let i = 0; i < m; i++) {
    const j = i + 1 === n ? 0 : i + 1;
    const px = p[2 * i], py = p[2 * i + 1];
    const ex = p[2 * j] - px, ey = p[2 * j + 1] - py;
    const l2 = ex * ex + ey * ey;
    let t = l2 > 0 ? ((x - px) * ex + (y - py) * ey) / l2 : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    const d = (px + t * ex - x) ** 2 + (py + t * ey - y) ** 2;
    if (d < best) best = d;
  }
  return Math.sqrt(best);
}

/** Splits the walls by owner: group g holds, per inset, the loops that belong to outer loop g. */
function groupWalls(walls: ExtrusionPath[][]): ExtrusionPath[][][] {
  const outer = walls[0] ?? [];
  if (outer.length <= 1) return [walls];
  const grid = new BoxGrid(outer.map((l) => boxOfPaths([l.points])));
  const groups: ExtrusionPath[][][] = outer.map((l) => [[l]]);
  for (let k = 1; k < walls.length; k++) {
    for (const loop of walls[k]) {
      const x = loop.points[0], y = loop.points[1];
      // the nearest outer loop; of equally near ones, the one with the nearer box
      const best = grid.nearest(
        x,
        y,
        (i) => distToLoop(x, y, outer[i].points, outer[i].closed),
        1,
        (i) => boxDistance(grid.boxes[i], x, y),
      );
      const g = groups[best];
      while (g.length <= k) g.push([]);
      g[k].push(loop);
    }
  }
  return groups;
}

/** Distance from (x, y) to where a group would start (the seam of its first loop). */
function groupStartDist(levels: ExtrusionPath[][], seam: SeamContext, x: number, y: number): number {
  const first = levels.find((l) => l.length > 0) ?? [];
  let best = Infinity;
  for (const l of first) {
    const s = l.closed ? chooseSeam(l.points, seam, x, y) : 0;
    best = Math.min(best, hyp(l.points[2 * s] - x, l.points[2 * s + 1] - y));
  }
  return best;
}

/**
 * Visits for an island's walls: per group, the insets from the innermost to the outer wall (the
 * other way round when `outerFirst`); groups in nearest-neighbour order.
 */
export function wallVisits(walls: ExtrusionPath[][], outerFirst: boolean, seam: SeamContext, x: number, y: number): Visit[] {
  const groups = groupWalls(walls).map((g) => (outerFirst ? g : g.slice().reverse()).filter((l) => l.length > 0));
  const out: Visit[] = [];
  // a group starts on one of its first loops: never nearer than their box
  const grid = new BoxGrid(groups.map((g) => boxOfPaths((g.find((l) => l.length > 0) ?? []).map((l) => l.points))));
  while (grid.size) {
    const best = grid.nearest(x, y, (i) => groupStartDist(groups[i], seam, x, y));
    grid.remove(best);
    const g = groups[best];
    for (const level of g) {
      const vs = orderLoops(level, seam, x, y);
      for (const v of vs) out.push(v);
      if (vs.length) {
        const last = vs[vs.length - 1];
        const p = last.path.points;
        if (last.path.closed) {
          x = p[2 * last.start];
          y = p[2 * last.start + 1];
        } else {
          const i = last.reverse ? 0 : (p.length >> 1) - 1;
          x = p[2 * i];
          y = p[2 * i + 1];
        }
      }
    }
  }
  return out;
}
