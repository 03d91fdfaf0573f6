// Wall order inside an island. Each outer loop (the part's contour or a hole's) is printed together
// with the inner loops that lie along it, so the nozzle finishes one region before moving to the
// next instead of visiting every hole once per inset.
import type { ExtrusionPath } from '../types.js';
import { chooseSeam, type SeamContext } from './seam.js';
import { orderLoops, type Visit } from './order.js';
import { hyp } from './length.js';

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

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

function boxOf(p: number[]): Box {
  const b = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
  for (let i = 0; i < p.length; i += 2) {
    if (p[i] < b.x0) b.x0 = p[i];
    if (p[i] > b.x1) b.x1 = p[i];
    if (p[i + 1] < b.y0) b.y0 = p[i + 1];
    if (p[i + 1] > b.y1) b.y1 = p[i + 1];
  }
  return b;
}

function boxDist(b: Box, x: number, y: number): number {
  const dx = Math.max(b.x0 - x, 0, x - b.x1), dy = Math.max(b.y0 - y, 0, y - b.y1);
  return hyp(dx, dy);
}

/** Splits the walls by owner: group g holds, per inset, the loops that belong to outer loop g. */
function groupWalls(walls: ExtrusionPath[][]): ExtrusionPath[][][] {
  const outer = walls[0] ?? [];
  if (outer.length <= 1) return [walls];
  const boxes = outer.map((l) => boxOf(l.points));
  const groups: ExtrusionPath[][][] = outer.map((l) => [[l]]);
  for (let k = 1; k < walls.length; k++) {
    for (const loop of walls[k]) {
      const x = loop.points[0], y = loop.points[1];
      let best = 0, bd = Infinity;
      // visit candidates nearest box first; a box farther than the best distance cannot win
      const order = boxes.map((b, i) => [boxDist(b, x, y), i]).sort((a, b) => a[0] - b[0]);
      for (const [bdist, i] of order) {
        if (bdist >= bd) break;
        const d = distToLoop(x, y, outer[i].points, outer[i].closed);
        if (d < bd) {
          bd = d;
          best = i;
        }
      }
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
  while (groups.length) {
    let best = 0, bd = Infinity;
    for (let i = 0; i < groups.length; i++) {
      const d = groupStartDist(groups[i], seam, x, y);
      if (d < bd) {
        bd = d;
        best = i;
      }
    }
    const [g] = groups.splice(best, 1);
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
