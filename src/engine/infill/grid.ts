// Grid: two crossing families of lines (angle and angle + 90°) on every layer.
import type { Paths } from '../types.js';
import type { InfillParams } from './types.js';
import { axesOf } from './raster.js';
import { gridFamily } from './scanline.js';

export function gridPattern(area: Paths, p: InfillParams): Paths {
  const spacing = (2 * p.lineWidth * 100) / p.density;
  const out: Paths = [];
  gridFamily(area, axesOf(p.angle), spacing, 0, p.lineWidth / 2, out);
  gridFamily(area, axesOf(p.angle + 90), spacing, 0, p.lineWidth / 2, out);
  return out;
}
