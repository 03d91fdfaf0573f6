// The default profile: "Creality Ender 3", generic PLA, quality "Recommended". These values equal the
// shared peer baseline (CuraEngine and PrusaSlicer set up for the same work), so the three slicers
// can be compared side by side.
import type { SliceSettings } from '../engine/settings.js';

export const DEFAULT_START_GCODE = 'G28 ; home all axes\nG92 E0 ; reset extruder\nG1 Z2.0 F3000 ; lift nozzle';
export const DEFAULT_END_GCODE =
  'G91 ; relative positioning\nG1 E-2 F2700 ; retract\nG1 Z10 F3000 ; raise Z\nG90 ; absolute positioning\n' +
  'G1 X0 Y200 F3000 ; present print\nM106 S0 ; fan off\nM104 S0 ; hotend off\nM140 S0 ; bed off\nM84 X Y E ; steppers off';

export const DEFAULT_SETTINGS: Readonly<SliceSettings> = Object.freeze({
  machineName: 'Creality Ender 3',
  bedWidth: 220,
  bedDepth: 220,
  bedHeight: 250,
  originCenter: false,
  roundBed: false,
  nozzleDiameter: 0.4,
  maxNozzleTemperature: 260,
  heatedBed: true,
  gcodeFlavor: 'marlin',
  relativeExtrusion: false,
  startGcode: DEFAULT_START_GCODE,
  endGcode: DEFAULT_END_GCODE,
  outputFormat: 'GCODE',
  maxFeedrateX: 500,
  maxFeedrateY: 500,
  maxFeedrateZ: 10,
  maxFeedrateE: 50,
  maxAccelX: 500,
  maxAccelY: 500,
  maxAccelZ: 100,
  maxAccelE: 5000,
  maxJerkX: 10,
  maxJerkY: 10,
  maxJerkZ: 0.4,
  maxJerkE: 5,
  junctionDeviation: 0,
  printAcceleration: 500,
  travelAcceleration: 500,
  retractAcceleration: 1000,
  emitMachineLimits: false,

  filamentName: 'Generic_PLA',
  filamentDiameter: 1.75,
  filamentDensity: 1.24,
  filamentCost: 20,
  nozzleTemperature: 210,
  firstLayerNozzleTemperature: 210,
  bedTemperature: 60,
  firstLayerBedTemperature: 60,
  flowMultiplier: 1,

  layerHeight: 0.2,
  firstLayerHeight: 0.2,
  lineWidth: 0.4,
  firstLayerLineWidth: 0.4,
  infillLineWidth: 0.4,

  wallCount: 2,
  seamPosition: 'aligned',
  outerWallFirst: false,
  gapFill: true,
  minGapFillWidth: 0.1,

  topLayers: 3,
  bottomLayers: 3,
  skinOverlap: 10,
  skinAngle: 45,
  monotonicSkin: true,

  infillDensity: 20,
  infillPattern: 'lines',
  infillOverlap: 25,
  infillAngle: 45,
  infillBeforeWalls: false,

  printSpeed: 50,
  infillSpeed: 50,
  outerWallSpeed: 25,
  innerWallSpeed: 25,
  topBottomSpeed: 25,
  firstLayerSpeed: 20,
  travelSpeed: 150,
  firstLayerTravelSpeed: 100,
  skirtSpeed: 20,
  supportSpeed: 50,
  zSpeed: 5,

  retractLength: 5,
  retractSpeed: 40,
  retractPrimeSpeed: 40,
  retractMinTravel: 1.5,
  retractAtLayerChange: false,
  zHop: 0,
  combing: 'noskin',
  combMaxTravel: 30,

  fanSpeed: 100,
  fanOffLayers: 1,
  fanFullLayer: 3,
  minLayerTime: 10,
  minPrintSpeed: 10,

  adhesionType: 'skirt',
  skirtLoops: 1,
  skirtDistance: 6,
  skirtMinLength: 0,
  brimWidth: 8,
  raftLayers: 3,
  raftMargin: 3,
  // PrusaSlicer's raft contact distance; 0.25 dropped the part's first layer loose onto the raft
  raftAirGap: 0.1,

  supportType: 'none',
  supportAngle: 50,
  supportDensity: 15,
  supportXYDistance: 0.8,
  supportZLayers: 1,
  supportInterfaceLayers: 2,
  supportPattern: 'zigzag',
  supportMinArea: 1,
  supportInterfaceDensity: 80,

  bridgeEnabled: true,
  bridgeSpeed: 25,
  bridgeFlow: 100,
  bridgeFan: 100,
});

/** A fresh, mutable copy of the defaults with some keys changed (for tests and the CLI). */
export function defaultSettings(overrides: Partial<SliceSettings> = {}): SliceSettings {
  return { ...DEFAULT_SETTINGS, ...overrides };
}
