// Triangles: three families of lines 60° apart on every layer. All pass through the global grid's
// origin with the same spacing, so every crossing of two lines lies on a line of the third family
// and the layer is tiled by equilateral triangles that stack into vertical prisms.
import type { Paths } from '../types.js';
import type { InfillParams } from './types.js';
import { axesOf } from './raster.js';
import { gridFamily } from './scanline.js';

export function trianglesPattern(area: Paths, p: InfillParams): Paths {
  const spacing = (3 * p.lineWidth * 100) / p.density;
  const out: Paths = [];
  for (let i = 0; i < 3; i++) gridFamily(area, axesOf(p.angle + 60 * i), spacing, 0, p.lineWidth / 2, out);
  return out;
}
