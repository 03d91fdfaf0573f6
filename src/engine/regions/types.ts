// What the region stage hands to the planner: per layer, per island, the extrusion paths of each feature.
import type { ExtrusionPath, Paths } from '../types.js';

/** One connected area of one model on one layer, with everything to print inside it. */
export interface IslandPaths {
  /** index of the model (for `;MESH:`) */
  model: number;
  /** the cross-section of this island (outer contour + holes), µm */
  outline: Paths;
  /**
   * where travel may run without crossing a wall: the outline shrunk to the middle of the
   * innermost wall (or a little inside the outline when the island is too thin for walls)
   */
  combArea: Paths;
  /** walls by inset: [0] = outer wall loops, [1] = next inset, … */
  walls: ExtrusionPath[][];
  /** thin gaps between walls, filled with single lines */
  gapFill: ExtrusionPath[];
  /** top/bottom solid skin lines */
  skin: ExtrusionPath[];
  /** sparse infill lines */
  infill: ExtrusionPath[];
  /** true when this island has top or bottom skin (combing mode `noskin` avoids crossing it) */
  hasSkin: boolean;
  /** the skin areas (for combing `noskin`) */
  skinArea: Paths;
}

/** One printed layer before planning. */
export interface LayerRegions {
  index: number;
  /** top of the layer (nozzle height), µm */
  z: number;
  /** layer thickness, µm */
  height: number;
  islands: IslandPaths[];
  /** paths printed before the model on this layer (skirt, brim, raft, support) */
  extras: ExtrusionPath[];
}
