// Cubic: the faces of a lattice of cubes standing on a corner (body diagonal vertical), cut at
// height z. Each of the three face directions crosses the layer as a family of parallel lines;
// their horizontal normals are 120° apart, and a face plane tilted 35.26° from vertical moves
// z/√2 sideways per unit of height, so each family's offset shifts by z/√2.
import type { Paths } from '../types.js';
import type { InfillParams } from './types.js';
import { axesOf, mod } from './raster.js';
import { gridFamily } from './scanline.js';

export function cubicPattern(area: Paths, p: InfillParams): Paths {
  const spacing = (3 * p.lineWidth * 100) / p.density;
  const shift = mod(p.z / Math.SQRT2, spacing);
  const out: Paths = [];
  // directions 120° apart, so their left normals are too (they sum to zero)
  for (let i = 0; i < 3; i++) gridFamily(area, axesOf(p.angle + 120 * i), spacing, shift, p.lineWidth / 2, out);
  return out;
}
