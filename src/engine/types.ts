// Shared engine types. Inside the engine every length is an integer number of micrometres (µm);
// millimetres appear only at the edges (mesh input in, G-code text out).
//
// Varying infill density (issue 4), in short:
//   ModelInput.role?: 'model' | 'modifier'          (default 'model')
//   ModelInput.modifier?: { densityFactor: number /* 0 none … 1 solid */; priority: number }
//   ModelInput.densityField?: { min: [x,y,z] mm; max: [x,y,z] mm; nx; ny; nz;
//                               density: Float32Array /* % per voxel, index (ix*ny + iy)*nz + iz */ }
// A modifier is placed with the models but never printed; inside (model ∩ modifier) the sparse infill
// gets densityFactor × 100 %, or the field's value where the modifier carries a densityField.

/** A path as a flat list of integer µm coordinates: [x0, y0, x1, y1, …]. Closed paths repeat no point. */
export type Path = number[];
/** Several paths. As an area: outer contours counter-clockwise, holes clockwise (positive fill). */
export type Paths = Path[];

/** A triangle mesh as read from a file: vertex positions in millimetres, three indices a triangle. */
export interface Mesh {
  /** x, y, z per vertex, millimetres (as the file gave them, after unit conversion). */
  positions: Float32Array;
  /** Three vertex indices per triangle. */
  indices: Uint32Array;
}

/** One model handed to the engine. */
export interface ModelInput {
  /** Name written as `;MESH:` (the file name the user gave). */
  name: string;
  mesh: Mesh;
  /**
   * false (default): the engine centres the models (together, keeping their relative positions) on
   * the bed and drops them to z = 0, as the peers do with a lone STL. true: the mesh is already in
   * bed coordinates (workspaces place their models) and is used as it is.
   */
  keepPosition?: boolean;
  /**
   * 'model' (default): printed. 'modifier': never printed, excluded from the build-volume check; it
   * only changes the infill density of the models it intersects (see `modifier`, `densityField`).
   */
  role?: 'model' | 'modifier';
  /** for role 'modifier': its density and priority (default { densityFactor: 1, priority: 0 }) */
  modifier?: ModifierSpec;
  /**
   * A voxel grid of infill densities. On a modifier it applies inside (model ∩ modifier) at the
   * modifier's priority, replacing densityFactor wherever the grid box covers; on a model it applies
   * to the model's whole sparse area first (before any modifier). Coordinates are those of the mesh
   * (moved with it when the engine centres the models).
   */
  densityField?: DensityField;
  /**
   * Placement of a lone model by the legacy interface (v0.2 StartSlicingTask): scale, then rotate
   * about the model's centre, then put its centre at an offset from the bed centre. Overrides the
   * automatic centring for this model (see setup/place.ts).
   */
  transform?: ModelTransform;
}

/**
 * Scale factors (> 0) per axis, rotations in degrees about the fixed X, then Y, then Z axis
 * (right-handed: positive turns counter-clockwise seen from the axis' positive end), and the offset
 * in mm of the model's bounding-box centre from the bed centre in X and Y. The model is always
 * dropped to z = 0 afterwards, so Z of the offset is not used.
 */
export interface ModelTransform {
  scale?: [number, number, number];
  rotation?: [number, number, number];
  position?: [number, number];
}

/** How a modifier changes the infill of the models it intersects. */
export interface ModifierSpec {
  /** infill density inside the modifier ÷ 100: 0 = no infill, 1 = solid */
  densityFactor: number;
  /** overlapping modifiers apply in ascending priority: the highest applies last and wins */
  priority: number;
}

/**
 * Infill density per voxel, % (0 … 100). The grid spans the box min…max (mm, the mesh's coordinates),
 * voxel size per axis = extent / count; values are x-major, z fastest: index = (ix*ny + iy)*nz + iz
 * (the layout of a PC_SV file). The engine quantises the values into 5 % steps.
 */
export interface DensityField {
  min: [number, number, number];
  max: [number, number, number];
  nx: number;
  ny: number;
  nz: number;
  density: Float32Array;
}

/** Axis-aligned bounds. */
export interface Bounds3 {
  min: [number, number, number];
  max: [number, number, number];
}

/** Feature types, as written after `;TYPE:`. */
export type FeatureType =
  | 'WALL-OUTER'
  | 'WALL-INNER'
  | 'SKIN'
  | 'FILL'
  | 'SUPPORT'
  | 'SUPPORT-INTERFACE'
  | 'SKIRT'
  | 'BRIM'
  | 'RAFT';

/** An extrusion path of one feature: a polyline (or closed loop) with its bead width and flow factor. */
export interface ExtrusionPath {
  type: FeatureType;
  /** flat µm coordinates */
  points: Path;
  /** closed loops return to their first point when printed */
  closed: boolean;
  /** bead width, µm */
  width: number;
  /** multiplier on the computed flow (1 = nominal) */
  flow?: number;
  /** index of the model this path belongs to (for `;MESH:`), -1 for none (skirt, brim) */
  model: number;
  /** speed override in mm/s (otherwise the feature's speed) */
  speed?: number;
  /**
   * infill of a density region (modifiers, density fields): the planner joins consecutive infill
   * lines by a connector only when both belong to the same region (undefined = the island's one region)
   */
  densityRegion?: number;
  /**
   * sides of the bead (0–2) no neighbouring bead presses against, which bulge round and hold less
   * plastic (see beadArea in plan/flow.ts); undefined: the planner's rule for the path's feature
   */
  freeSides?: number;
  /**
   * a bridge line (skin over air): printed at its `speed` and `flow` with the bridge fan, and marked
   * `;BRIDGE` after its `;TYPE:SKIN` in the G-code
   */
  bridge?: true;
}

/** Progress callback: fraction done in [0, 1] and the stage name. */
export type ProgressFn = (fraction: number, stage: string) => void;

export interface SliceOptions {
  onProgress?: ProgressFn;
  signal?: AbortSignal;
  /**
   * the most bytes the toolpath may hold: its packed plans and the writer's machine moves (28 and
   * 40 bytes an operation, the bulk of a large slice's memory). Past it the slice fails with a
   * SliceError saying what to change, as soon as it is known. Default: no limit.
   */
  maxToolpathBytes?: number;
}

/** Totals of a finished slice. */
export interface SliceStats {
  layerCount: number;
  /** estimated print time, seconds (motion-planner simulation) */
  printTimeS: number;
  /** filament length, mm */
  filamentMm: number;
  /** filament volume, mm³ */
  filamentMm3: number;
  /** filament weight, g */
  filamentG: number;
  /** bounds of everything printed, mm in printer coordinates */
  bounds: Bounds3;
  /** warnings worth a line in a task log (clamped values, repaired mesh, …) */
  warnings: string[];
  /** wall time of each stage, ms */
  timings: Record<string, number>;
  /** memory the toolpath took: packed plans and the writer's machine moves (what maxToolpathBytes limits) */
  toolpathBytes: number;
}

export interface SliceResult {
  /** the printer file: G-code text, UTF-8 encoded */
  output: Uint8Array;
  format: 'GCODE' | 'FCODE';
  stats: SliceStats;
}

/** Raised for input the engine cannot slice (bad mesh, too large, …): the message is for the user. */
export class SliceError extends Error {
  constructor(
    message: string,
    readonly code: 'BAD_MODEL' | 'OUT_OF_VOLUME' | 'BAD_SETTINGS' | 'EMPTY' = 'BAD_MODEL',
  ) {
    super(message);
    this.name = 'SliceError';
  }
}

/**
 * A slice that failed on a model read with warnings says what they were: "no printable cross-section"
 * alone does not tell the user that the upload was cut short (a binary STL whose size holds fewer
 * triangles than its header declares) or that the model was taken to be in metres.
 */
export function withReadWarnings(err: unknown, warnings: readonly string[]): unknown {
  if (err instanceof SliceError && warnings.length > 0) {
    err.message += ` (the file was read with ${warnings.length === 1 ? 'a warning' : 'warnings'}: ${[...new Set(warnings)].join('; ')})`;
  }
  return err;
}

/** Raised when the AbortSignal fires. */
export class SliceCancelled extends Error {
  constructor() {
    super('slice cancelled');
    this.name = 'SliceCancelled';
  }
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new SliceCancelled();
}
