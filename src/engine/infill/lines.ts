// Lines: one family of parallel lines per layer, turning 90° every layer.
import type { Paths } from '../types.js';
import type { InfillParams } from './types.js';
import { axesOf, mod } from './raster.js';
import { gridFamily } from './scanline.js';

export function linesPattern(area: Paths, p: InfillParams): Paths {
  const spacing = (p.lineWidth * 100) / p.density;
  const angle = p.angle + (mod(p.layerIndex, 2) === 0 ? 0 : 90);
  const out: Paths = [];
  gridFamily(area, axesOf(angle), spacing, 0, p.lineWidth / 2, out);
  return out;
}
