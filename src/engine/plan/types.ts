// The planner's output: per layer, the ordered machine operations the G-code writer turns into text
// and the time estimator simulates. Coordinates µm, speeds mm/s, filament lengths mm.
import type { FeatureType } from '../types.js';

export type PlanOp =
  /** move without extruding (travel); z only when it changes (z-hop) */
  | { op: 'travel'; x: number; y: number; z?: number; speed: number }
  /** extruding move to (x, y); e = filament length in mm for this segment */
  | { op: 'extrude'; x: number; y: number; e: number; speed: number }
  /**
   * start of a feature (writes `;TYPE:` and `;MESH:` when they change); `bridge`: the skin lines
   * that follow are bridges (`;BRIDGE` after the `;TYPE:` line), until the next feature op
   */
  | { op: 'feature'; type: FeatureType; model: number; modelName?: string; bridge?: true }
  /** pull filament back by `length` mm at `speed` mm/s */
  | { op: 'retract'; length: number; speed: number }
  /** push it back */
  | { op: 'unretract'; length: number; speed: number }
  /** part-cooling fan, percent 0–100 */
  | { op: 'fan'; percent: number }
  /** a free comment line (without the `;`) */
  | { op: 'comment'; text: string };

/** One layer's operations. */
export interface LayerPlan {
  index: number;
  /** nozzle height for this layer, µm */
  z: number;
  /** layer thickness, µm */
  height: number;
  ops: PlanOp[];
}
