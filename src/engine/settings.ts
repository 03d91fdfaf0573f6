// The one flat settings object the engine takes. Lengths in millimetres, speeds in mm/s,
// temperatures in °C, fractions/percentages as named. `src/profiles/` resolves printer, filament,
// quality presets and overrides into this object; the engine reads nothing else.

export type GcodeFlavor = 'marlin' | 'reprap' | 'klipper' | 'griffin';
export type InfillPattern = 'lines' | 'grid' | 'triangles' | 'gyroid' | 'cubic' | 'honeycomb' | 'concentric';
export type SeamPosition = 'aligned' | 'rear' | 'shortest' | 'random';
export type CombingMode = 'off' | 'all' | 'noskin';
export type AdhesionType = 'none' | 'skirt' | 'brim' | 'raft';
export type SupportType = 'none' | 'everywhere' | 'buildplate';
export type SupportPattern = 'lines' | 'grid' | 'zigzag';
export type OutputFormat = 'GCODE' | 'FCODE';

export interface SliceSettings {
  // ── machine ──────────────────────────────────────────────────────────────
  /** printer name written to the header */
  machineName: string;
  /** build volume, mm */
  bedWidth: number;
  bedDepth: number;
  bedHeight: number;
  /** true when (0,0) is the bed centre (delta printers) */
  originCenter: boolean;
  /** the bed is round (deltas): its diameter is bedWidth, and everything printed lies within it */
  roundBed: boolean;
  nozzleDiameter: number;
  /** highest nozzle temperature the printer's firmware accepts, °C (a warning above it) */
  maxNozzleTemperature: number;
  heatedBed: boolean;
  gcodeFlavor: GcodeFlavor;
  /** relative E (M83) instead of absolute E (M82) */
  relativeExtrusion: boolean;
  /** start G-code template; placeholders like {nozzle_temperature} (see docs/settings.md) */
  startGcode: string;
  endGcode: string;
  outputFormat: OutputFormat;
  // machine limits for the print-time estimate (mm/s, mm/s², mm/s)
  maxFeedrateX: number;
  maxFeedrateY: number;
  maxFeedrateZ: number;
  maxFeedrateE: number;
  maxAccelX: number;
  maxAccelY: number;
  maxAccelZ: number;
  maxAccelE: number;
  /** jerk (instantaneous speed change allowed), mm/s */
  maxJerkX: number;
  maxJerkY: number;
  maxJerkZ: number;
  maxJerkE: number;
  /** junction deviation in mm; 0 = use classic jerk */
  junctionDeviation: number;
  /** default acceleration for printing moves, mm/s² */
  printAcceleration: number;
  travelAcceleration: number;
  retractAcceleration: number;
  /** write M201/M203/M204/M205 limits into the G-code */
  emitMachineLimits: boolean;

  // ── filament ─────────────────────────────────────────────────────────────
  filamentName: string;
  filamentDiameter: number;
  /** g/cm³ */
  filamentDensity: number;
  /** price per kg (informational) */
  filamentCost: number;
  nozzleTemperature: number;
  firstLayerNozzleTemperature: number;
  bedTemperature: number;
  firstLayerBedTemperature: number;
  /** flow multiplier (1 = nominal) */
  flowMultiplier: number;

  // ── layers and lines ─────────────────────────────────────────────────────
  layerHeight: number;
  firstLayerHeight: number;
  lineWidth: number;
  firstLayerLineWidth: number;
  infillLineWidth: number;

  // ── walls ────────────────────────────────────────────────────────────────
  wallCount: number;
  seamPosition: SeamPosition;
  /** print the outer wall before the inner walls */
  outerWallFirst: boolean;
  /** fill gaps between walls too narrow for another wall */
  gapFill: boolean;
  /** narrowest gap worth filling, mm */
  minGapFillWidth: number;

  // ── top / bottom ─────────────────────────────────────────────────────────
  topLayers: number;
  bottomLayers: number;
  /** skin overlap into the innermost wall, % of line width */
  skinOverlap: number;
  /** first skin angle, degrees; layers alternate by +90 */
  skinAngle: number;
  monotonicSkin: boolean;

  // ── infill ───────────────────────────────────────────────────────────────
  /** sparse infill density, % (0 = hollow, 100 = solid) */
  infillDensity: number;
  infillPattern: InfillPattern;
  /** infill overlap into the innermost wall, % of line width */
  infillOverlap: number;
  infillAngle: number;
  /** print infill before walls */
  infillBeforeWalls: boolean;

  // ── speeds (mm/s) ────────────────────────────────────────────────────────
  printSpeed: number;
  infillSpeed: number;
  outerWallSpeed: number;
  innerWallSpeed: number;
  topBottomSpeed: number;
  firstLayerSpeed: number;
  travelSpeed: number;
  firstLayerTravelSpeed: number;
  skirtSpeed: number;
  supportSpeed: number;
  zSpeed: number;

  // ── retraction and travel ────────────────────────────────────────────────
  retractLength: number;
  retractSpeed: number;
  retractPrimeSpeed: number;
  /** travels shorter than this are not retracted, mm */
  retractMinTravel: number;
  retractAtLayerChange: boolean;
  /** lift on retracted travels, mm (0 = off) */
  zHop: number;
  combing: CombingMode;
  /** a travel kept inside the part longer than this is retracted all the same, mm (0 = no limit) */
  combMaxTravel: number;

  // ── cooling ──────────────────────────────────────────────────────────────
  /** fan speed, % */
  fanSpeed: number;
  /** layers (from 1) printed with the fan off */
  fanOffLayers: number;
  /** layer number (from 1) at which the fan reaches fanSpeed */
  fanFullLayer: number;
  /** slow down so that a layer takes at least this long, s */
  minLayerTime: number;
  /** never slow below this, mm/s */
  minPrintSpeed: number;

  // ── adhesion ─────────────────────────────────────────────────────────────
  adhesionType: AdhesionType;
  skirtLoops: number;
  /** gap between skirt and part, mm */
  skirtDistance: number;
  /** minimum skirt length, mm (more loops until reached) */
  skirtMinLength: number;
  brimWidth: number;
  raftLayers: number;
  raftMargin: number;
  raftAirGap: number;

  // ── support ──────────────────────────────────────────────────────────────
  supportType: SupportType;
  /** overhang angle from vertical above which support is built, degrees */
  supportAngle: number;
  /** support infill density, % */
  supportDensity: number;
  /** horizontal gap between support and part, mm */
  supportXYDistance: number;
  /** vertical gap (in layers) between support top and the part */
  supportZLayers: number;
  supportInterfaceLayers: number;
  /** support infill pattern */
  supportPattern: SupportPattern;
  /** overhang areas smaller than this get no support, mm² */
  supportMinArea: number;
  /** density of the interface (roof/floor) layers, % */
  supportInterfaceDensity: number;

  // ── bridges ──────────────────────────────────────────────────────────────
  /** detect skin printed over air and print it as a bridge */
  bridgeEnabled: boolean;
  /** bridge speed, mm/s */
  bridgeSpeed: number;
  /** bridge flow, % of nominal */
  bridgeFlow: number;
  /** part-cooling fan while bridging, % */
  bridgeFan: number;
}
