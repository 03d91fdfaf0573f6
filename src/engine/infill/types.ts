// Types shared by the infill pattern modules.
import type { Paths } from '../types.js';
import type { InfillPattern } from '../settings.js';

/** What a pattern needs to fill one area on one layer. */
export interface InfillParams {
  pattern: InfillPattern;
  /** sparse density, % (0 = nothing, ≥ 100 = solid lines) */
  density: number;
  /** bead width, µm */
  lineWidth: number;
  /** base line direction, degrees (patterns without a direction ignore it) */
  angle: number;
  /** layer number, for patterns that alternate between layers */
  layerIndex: number;
  /** layer height above the bed, µm, for patterns that change with height */
  z: number;
}

/**
 * One pattern: open polylines (integer µm, ≥ 2 points) inside `area`, for 0 < density < 100.
 * The dispatcher handles 0 % and solid fills.
 */
export type PatternFn = (area: Paths, p: InfillParams) => Paths;

/** Axis-aligned bounds, µm. */
export interface Box {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}
