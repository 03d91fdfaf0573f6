// Infill and skin line patterns: a dispatch table of pattern modules (one file each) over areas in
// integer µm. Every function returns open polylines (≥ 2 points) inside the area.
import type { Paths } from '../types.js';
import type { InfillPattern } from '../settings.js';
import type { InfillParams, PatternFn } from './types.js';
import { linesPattern } from './lines.js';
import { gridPattern } from './grid.js';
import { trianglesPattern } from './triangles.js';
import { cubicPattern } from './cubic.js';
import { gyroidPattern } from './gyroid.js';
import { honeycombPattern } from './honeycomb.js';
import { concentricPattern } from './concentric.js';
import { solidLines } from './solid.js';
import { mod } from './raster.js';

export type { InfillParams, PatternFn } from './types.js';
export { fittedSolidLines, solidLines } from './solid.js';
export type { FittedLines, SolidFit } from './solid.js';
export { concentricLoops } from './concentric.js';
export { gyroidCurves, gyroidPeriod } from './gyroid.js';

const PATTERNS: Record<InfillPattern, PatternFn> = {
  lines: linesPattern,
  grid: gridPattern,
  triangles: trianglesPattern,
  cubic: cubicPattern,
  gyroid: gyroidPattern,
  honeycomb: honeycombPattern,
  concentric: concentricPattern,
};

/**
 * Sparse infill of `area` (outer contours CCW, holes CW, µm) with pattern `p.pattern`. Line
 * positions are anchored to a global grid so layers stack. density ≤ 0 gives nothing; density
 * ≥ 100 gives solid lines one line width apart, turning 90° every layer, whatever the pattern.
 */
export function infillLines(area: Paths, p: InfillParams): Paths {
  if (!(p.density > 0) || !(p.lineWidth > 0) || area.length === 0) return [];
  if (p.density >= 100) return solidLines(area, p.lineWidth, p.angle + (mod(p.layerIndex, 2) === 0 ? 0 : 90));
  const pattern = PATTERNS[p.pattern];
  if (!pattern) throw new Error(`unknown infill pattern '${String(p.pattern)}'`);
  return pattern(area, p);
}

/**
 * Where a layer stands in its pattern's cycle: two layers with the same area, parameters and phase
 * get the same lines. undefined when the lines change with height (cubic, gyroid), so that no two
 * layers are alike. A pattern that starts to use `layerIndex` or `z` must say so here.
 */
export function infillPhase(p: InfillParams): number | undefined {
  if (p.density >= 100) return mod(p.layerIndex, 2);
  switch (p.pattern) {
    case 'lines':
      return mod(p.layerIndex, 2);
    case 'honeycomb':
      return mod(p.layerIndex, 3);
    case 'grid':
    case 'triangles':
    case 'concentric':
      return 0;
    default:
      return undefined;
  }
}
