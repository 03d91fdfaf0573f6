// Skirt: loops around everything printed on the first layer, a gap away, to prime the nozzle.
import type { ExtrusionPath, Paths } from '../types.js';
import { offset, simplify, union } from '../geom/clipper.js';
import { pathLength, signedArea } from '../geom/path-math.js';

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
  const base = union(firstLayer);
  const out: ExtrusionPath[] = [];
  let total = 0;
  for (let k = 0; k < 100 && (k < p.loops || total < p.minLength); k++) {
    const loops = simplify(offset(base, p.distance + p.width / 2 + k * p.width, 'round', 2, 10), 10);
    for (const points of loops) {
      if (signedArea(points) <= 0) continue; // holes of the offset (inside a ring of parts) need no skirt
      total += pathLength(points, true);
      out.push({ type: 'SKIRT', points, closed: true, width: p.width, model: -1 });
    }
  }
  // outermost loop first, so the nozzle ends next to the part
  return out.reverse();
}
