// Brim: loops around the first layer's outline, touching it, to hold the part down.
import type { ExtrusionPath, Paths } from '../types.js';
import { offset, simplify, union } from '../geom/clipper.js';
import { signedArea } from '../geom/path-math.js';

export function brim(firstLayer: Paths, widthMm: number, lineWidth: number): ExtrusionPath[] {
  if (firstLayer.length === 0 || widthMm <= 0) return [];
  const base = union(firstLayer);
  const count = Math.max(1, Math.round((widthMm * 1000) / lineWidth));
  const out: ExtrusionPath[] = [];
  // outermost first, ending at the part
  for (let k = count - 1; k >= 0; k--) {
    const loops = simplify(offset(base, lineWidth / 2 + k * lineWidth, 'round', 2, 10), 10);
    for (const points of loops) {
      if (signedArea(points) <= 0) continue; // the inside of a ring-shaped part is left open
      out.push({ type: 'BRIM', points, closed: true, width: lineWidth, model: -1 });
    }
  }
  return out;
}
