// Skirt: loops around everything printed on the first layer, a gap away, to prime the nozzle.
// They follow the convex hull of the first layer, as CuraEngine's and PrusaSlicer's skirts do: a
// loop that followed every notch between parts would be longer (the 36 cubes of
// multipart_cube_grid: 0.73 m against the peers' 0.50 m) and would only prime the nozzle longer.
import type { ExtrusionPath, Path, Paths } from '../types.js';
import { offset, simplify } from '../geom/clipper.js';
import { pathLength } from '../geom/path-math.js';

export interface SkirtParams {
  /** gap between part and skirt, µm */
  distance: number;
  loops: number;
  /** minimum total length, µm (more loops until reached) */
  minLength: number;
  width: number;
}

export function skirt(firstLayer: Paths, p: SkirtParams): ExtrusionPath[] {
  if (firstLayer.length === 0 || p.loops <= 0) return [];
  const hull = convexHull(firstLayer);
  if (hull.length < 6) return [];
  const base = [hull];
  const out: ExtrusionPath[] = [];
  let total = 0;
  for (let k = 0; k < 100 && (k < p.loops || total < p.minLength); k++) {
    const loops = simplify(offset(base, p.distance + p.width / 2 + k * p.width, 'round', 2, 10), 10);
    for (const points of loops) {
      total += pathLength(points, true);
      out.push({ type: 'SKIRT', points, closed: true, width: p.width, model: -1 });
    }
  }
  // outermost loop first, so the nozzle ends next to the part
  return out.reverse();
}

/** Convex hull of all points of `paths`, counter-clockwise (Andrew's monotone chain); [] when degenerate. */
export function convexHull(paths: Paths): Path {
  const pts: Array<[number, number]> = [];
  for (const p of paths) for (let i = 0; i + 1 < p.length; i += 2) pts.push([p[i], p[i + 1]]);
  pts.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (pts.length < 3) return [];
  const cross = (o: [number, number], a: [number, number], b: [number, number]) =>
    (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const chain = (points: Array<[number, number]>) => {
    const out: Array<[number, number]> = [];
    for (const p of points) {
      while (out.length >= 2 && cross(out[out.length - 2], out[out.length - 1], p) <= 0) out.pop();
      out.push(p);
    }
    out.pop(); // the last point starts the other chain
    return out;
  };
  const hull = [...chain(pts), ...chain([...pts].reverse())];
  return hull.length < 3 ? [] : hull.flat();
}
