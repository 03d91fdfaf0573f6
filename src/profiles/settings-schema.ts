// The settings schema: one entry per SliceSettings key with its type, unit, allowed range, default
// (taken from DEFAULT_SETTINGS) and a one-line description. `satisfies SpecShape` makes a key that is
// missing here, or one that SliceSettings does not have, a compile error. Validation, the XML reader
// and docs/settings.md all read this table.
import type { SliceSettings } from '../engine/settings.js';
import { DEFAULT_SETTINGS } from './defaults.js';
import {
  enumSpec,
  type BooleanSpec,
  type NumberSpec,
  type SettingCategory,
  type SettingSpec,
  type SpecFor,
  type SpecShape,
  type StringSpec,
} from './schema-types.js';

const num = (category: SettingCategory, unit: string, min: number, max: number, description: string): NumberSpec => ({
  type: 'number', category, unit, min, max, description,
});
const int = (category: SettingCategory, unit: string, min: number, max: number, description: string): NumberSpec => ({
  type: 'integer', category, unit, min, max, description,
});
const bool = (category: SettingCategory, description: string): BooleanSpec => ({ type: 'boolean', category, description });
const str = (category: SettingCategory, maxLength: number, description: string, multiline = false): StringSpec => ({
  type: 'string', category, maxLength, description, ...(multiline ? { multiline } : {}),
});

/**
 * Smallest non-zero size of any numeric setting, in its own unit: a value closer to 0 (1e-7, a
 * subnormal 1e-320) is refused rather than taken as 0 or as itself. No setting means anything that
 * fine (the finest real value is a fast Klipper machine's junction deviation, ~0.0005 mm), and such
 * a value broke the print-time estimate (1 / 1e-320 is Infinity) or reached the G-code in exponent
 * form (`M104 S1e-7`).
 */
export const NUMBER_RESOLUTION = 1e-6;

/** Longest accepted start or end G-code template, characters. */
export const MAX_GCODE_TEMPLATE_LENGTH = 20_000;
/** Longest accepted name (printer, filament), characters. */
export const MAX_NAME_LENGTH = 120;

const SPECS = {
  // ── machine ──
  machineName: str('machine', MAX_NAME_LENGTH, 'Printer name written to the G-code header.'),
  bedWidth: num('machine', 'mm', 10, 2000, 'Build volume along X.'),
  bedDepth: num('machine', 'mm', 10, 2000, 'Build volume along Y.'),
  bedHeight: num('machine', 'mm', 10, 2000, 'Build volume along Z.'),
  originCenter: bool('machine', 'Coordinates (0,0) are the bed centre (delta printers) instead of the front-left corner.'),
  roundBed: bool('machine', 'The bed is round (delta printers): its diameter is bedWidth, and models, skirt and brim must lie within the circle.'),
  nozzleDiameter: num('machine', 'mm', 0.1, 2, 'Nozzle bore diameter.'),
  maxNozzleTemperature: num('machine', '°C', 150, 500, 'Highest nozzle temperature the printer accepts (its hotend and firmware limit). A filament or setting above it gives a warning: Marlin caps the temperature, Klipper stops the print.'),
  heatedBed: bool('machine', 'The printer has a heated bed (bed temperature commands are written only then).'),
  gcodeFlavor: enumSpec(
    { marlin: 'Marlin and its forks', reprap: 'RepRapFirmware (Duet)', klipper: 'Klipper', griffin: 'Ultimaker S-line (Griffin header)' },
    { category: 'machine', description: 'G-code dialect the printer firmware speaks.' },
  ),
  relativeExtrusion: bool('machine', 'Relative E distances (M83) instead of absolute (M82).'),
  startGcode: str('machine', MAX_GCODE_TEMPLATE_LENGTH, 'Start G-code template (placeholders below).', true),
  endGcode: str('machine', MAX_GCODE_TEMPLATE_LENGTH, 'End G-code template (placeholders below).', true),
  outputFormat: enumSpec(
    { GCODE: 'plain G-code text', FCODE: 'Stratum FCode binary (docs/fcode.md)' },
    { category: 'machine', description: 'Printer file format the printer takes.' },
  ),
  // ── machine limits ──
  maxFeedrateX: num('limits', 'mm/s', 1, 5000, 'Highest X speed the firmware allows.'),
  maxFeedrateY: num('limits', 'mm/s', 1, 5000, 'Highest Y speed the firmware allows.'),
  maxFeedrateZ: num('limits', 'mm/s', 0.1, 1000, 'Highest Z speed the firmware allows.'),
  maxFeedrateE: num('limits', 'mm/s', 0.1, 1000, 'Highest extruder speed the firmware allows.'),
  maxAccelX: num('limits', 'mm/s²', 1, 200_000, 'Highest X acceleration.'),
  maxAccelY: num('limits', 'mm/s²', 1, 200_000, 'Highest Y acceleration.'),
  maxAccelZ: num('limits', 'mm/s²', 1, 200_000, 'Highest Z acceleration.'),
  maxAccelE: num('limits', 'mm/s²', 1, 200_000, 'Highest extruder acceleration.'),
  maxJerkX: num('limits', 'mm/s', 0, 100, 'X jerk: speed change allowed without deceleration.'),
  maxJerkY: num('limits', 'mm/s', 0, 100, 'Y jerk.'),
  maxJerkZ: num('limits', 'mm/s', 0, 100, 'Z jerk.'),
  maxJerkE: num('limits', 'mm/s', 0, 100, 'Extruder jerk.'),
  junctionDeviation: num('limits', 'mm', 0, 1, 'Junction deviation for cornering; 0 = use the classic jerk values.'),
  printAcceleration: num('limits', 'mm/s²', 1, 200_000, 'Acceleration of printing moves.'),
  travelAcceleration: num('limits', 'mm/s²', 1, 200_000, 'Acceleration of travel moves.'),
  retractAcceleration: num('limits', 'mm/s²', 1, 200_000, 'Acceleration of retract and prime moves.'),
  emitMachineLimits: bool('limits', 'Write the limits above into the G-code (M201/M203/M204/M205; on Klipper SET_VELOCITY_LIMIT, and M204 S where moves change between printing and travel).'),
  // ── filament ──
  filamentName: str('filament', MAX_NAME_LENGTH, 'Filament name written to the G-code header.'),
  filamentDiameter: num('filament', 'mm', 1, 3.5, 'Filament diameter (1.75 or 2.85 in practice).'),
  filamentDensity: num('filament', 'g/cm³', 0.5, 4, 'Density, for the weight estimate.'),
  filamentCost: num('filament', 'per kg', 0, 10_000, 'Price per kilogram (informational).'),
  nozzleTemperature: num('filament', '°C', 0, 450, 'Nozzle temperature after the first layer (0 = no command: the nozzle stays at the first layer\'s; refused when startGcode heats from {nozzle_temperature}).'),
  firstLayerNozzleTemperature: num('filament', '°C', 0, 450, 'Nozzle temperature for the first layer (0 = no command: the start G-code or the printer heats the nozzle; refused when startGcode heats from {first_layer_nozzle_temperature}, as most printers\' do).'),
  bedTemperature: num('filament', '°C', 0, 150, 'Bed temperature after the first layer (0 = off).'),
  firstLayerBedTemperature: num('filament', '°C', 0, 150, 'Bed temperature for the first layer (0 = off).'),
  flowMultiplier: num('filament', '×', 0.5, 2, 'Extrusion multiplier (1 = nominal flow).'),
  // ── layers and lines ──
  layerHeight: num('layers', 'mm', 0.01, 2, 'Layer height after the first layer (at most the nozzle diameter).'),
  firstLayerHeight: num('layers', 'mm', 0.01, 2, 'Height of the first layer.'),
  lineWidth: num('layers', 'mm', 0.05, 4, 'Line width of walls and skins (0.5–2 × nozzle).'),
  firstLayerLineWidth: num('layers', 'mm', 0.05, 4, 'Line width on the first layer.'),
  infillLineWidth: num('layers', 'mm', 0.05, 4, 'Line width of sparse infill.'),
  // ── walls ──
  wallCount: int('walls', 'lines', 0, 50, 'Number of walls (perimeters). 0: no walls; skins and infill then fill the whole cross-section up to the model\'s surface.'),
  seamPosition: enumSpec(
    { aligned: 'seams lined up layer to layer', rear: 'at the back of the part', shortest: 'where the previous move ends', random: 'scattered' },
    { category: 'walls', description: 'Where each wall loop starts and ends.' },
  ),
  outerWallFirst: bool('walls', 'Print the outer wall before the inner walls.'),
  gapFill: bool('walls', 'Fill gaps between walls too narrow for another wall.'),
  minGapFillWidth: num('walls', 'mm', 0, 2, 'Narrowest gap worth filling (a gap this wide is filled; it must be at least twice as long). Gap fill follows a gap whose width varies, each piece as wide as the gap there.'),
  // ── top / bottom ──
  topLayers: int('topBottom', 'layers', 0, 200, 'Solid layers under a top surface.'),
  bottomLayers: int('topBottom', 'layers', 0, 200, 'Solid layers over a bottom surface.'),
  skinOverlap: num('topBottom', '% of line width', 0, 100, 'How far skin lines reach into the innermost wall: their end points by this (bridge lines by this plus a quarter line, to anchor them), the outermost line beside a wall that runs along the lines by this too (between two such walls, the lines\' spacing and width are fitted, within 0.75–1.25 × the line width, so that whole lines span the gap). Without walls (wallCount 0) there is nothing to overlap: lines stay half a line inside the surface.'),
  skinAngle: num('topBottom', '°', -360, 360, 'Direction of the first skin layer; later layers turn by 90°.'),
  monotonicSkin: bool('topBottom', 'Lay skin lines in one direction so neighbours always overlap the same way.'),
  // ── infill ──
  infillDensity: num('infill', '%', 0, 100, 'Sparse infill density: the share of the volume the infill fills (0 = hollow, 100 = solid; 20 % of 0.4 × 0.2 mm lines: 1.785 mm apart).'),
  infillPattern: enumSpec(
    {
      lines: 'parallel lines, turning 90° each layer',
      grid: 'two crossing line sets per layer',
      triangles: 'three line sets at 60°',
      gyroid: 'continuous wavy surface',
      cubic: 'stacked cubes tilted in 3D',
      honeycomb: 'hexagonal cells',
      concentric: 'loops following the outline',
    },
    { category: 'infill', description: 'Sparse infill pattern.' },
  ),
  infillOverlap: num('infill', '% of line width', 0, 100, 'How far infill reaches into the innermost wall (not applied without walls).'),
  infillAngle: num('infill', '°', -360, 360, 'Direction of the infill lines (gyroid has none: its waves run along the axes).'),
  infillBeforeWalls: bool('infill', 'Print infill before the walls of a layer.'),
  // ── speeds ──
  printSpeed: num('speed', 'mm/s', 1, 1000, 'Base print speed (features without a speed of their own).'),
  infillSpeed: num('speed', 'mm/s', 1, 1000, 'Sparse infill speed.'),
  outerWallSpeed: num('speed', 'mm/s', 1, 1000, 'Outer wall speed.'),
  innerWallSpeed: num('speed', 'mm/s', 1, 1000, 'Inner wall speed.'),
  topBottomSpeed: num('speed', 'mm/s', 1, 1000, 'Top and bottom skin speed.'),
  firstLayerSpeed: num('speed', 'mm/s', 1, 1000, 'Print speed on the first layer.'),
  travelSpeed: num('speed', 'mm/s', 1, 2000, 'Travel speed.'),
  firstLayerTravelSpeed: num('speed', 'mm/s', 1, 2000, 'Travel speed on the first layer.'),
  skirtSpeed: num('speed', 'mm/s', 1, 1000, 'Skirt and brim speed.'),
  supportSpeed: num('speed', 'mm/s', 1, 1000, 'Support speed.'),
  zSpeed: num('speed', 'mm/s', 0.1, 1000, 'Speed of Z moves (layer changes, z-hop).'),
  // ── retraction and travel ──
  retractLength: num('travel', 'mm', 0, 20, 'Filament pulled back before a travel (0 = no retraction).'),
  retractSpeed: num('travel', 'mm/s', 1, 300, 'Retraction speed.'),
  retractPrimeSpeed: num('travel', 'mm/s', 1, 300, 'Speed at which retracted filament is pushed back.'),
  retractMinTravel: num('travel', 'mm', 0, 100, 'Travels shorter than this are not retracted.'),
  retractAtLayerChange: bool('travel', 'Always retract when moving to the next layer.'),
  zHop: num('travel', 'mm', 0, 10, 'Lift the nozzle on the travels that retract (with retractLength 0: on those that would), 0 = off; never above the build height (near the top it lifts less).'),
  combing: enumSpec(
    { off: 'straight travels', all: 'travel inside the part everywhere', noskin: 'inside the part, but not over top/bottom skins' },
    { category: 'travel', description: 'Keep travels inside the part so they need no retraction.' },
  ),
  combMaxTravel: num(
    'travel',
    'mm',
    0,
    10_000,
    'Travels kept inside the part (combing) longer than this are retracted all the same, so the nozzle does not ooze along the way (0 = no limit).',
  ),
  // ── cooling ──
  fanSpeed: num('cooling', '%', 0, 100, 'Part cooling fan speed.'),
  fanOffLayers: int('cooling', 'layers', 0, 10_000, 'Layers (from 1) printed with the fan off.'),
  fanFullLayer: int('cooling', 'layer', 1, 10_000, 'Layer number (from 1) at which the fan reaches full speed.'),
  minLayerTime: num('cooling', 's', 0, 600, 'Slow down so that a layer takes at least this long.'),
  minPrintSpeed: num('cooling', 'mm/s', 1, 1000, 'Never slow below this speed for cooling.'),
  // ── adhesion ──
  adhesionType: enumSpec(
    { none: 'nothing', skirt: 'loops around the part, not touching it', brim: 'flat rim attached to the part', raft: 'a thick grid under the part' },
    { category: 'adhesion', description: 'Bed adhesion aid.' },
  ),
  skirtLoops: int('adhesion', 'loops', 0, 50, 'Skirt loops.'),
  skirtDistance: num('adhesion', 'mm', 0, 100, 'Gap between skirt and part (the skirt follows the first layer\'s convex hull).'),
  skirtMinLength: num('adhesion', 'mm', 0, 100_000, 'Minimum skirt length (more loops until reached).'),
  brimWidth: num('adhesion', 'mm', 0, 100, 'Brim width.'),
  raftLayers: int('adhesion', 'layers', 1, 20, 'Raft layers.'),
  raftMargin: num('adhesion', 'mm', 0, 50, 'How far the raft extends beyond the part.'),
  raftAirGap: num('adhesion', 'mm', 0, 2, 'Gap between raft top and the part, for release.'),
  // ── support ──
  supportType: enumSpec(
    { none: 'no support', everywhere: 'support wherever needed, also on the part', buildplate: 'support only from the build plate' },
    { category: 'support', description: 'Where support is generated (clients send n, e, b).' },
  ),
  supportAngle: num('support', '°', 0, 90, 'Overhangs steeper than this (from vertical) get support.'),
  supportDensity: num('support', '%', 1, 100, 'Support infill density.'),
  supportXYDistance: num('support', 'mm', 0, 10, 'Horizontal gap between support and part; under an overhang of the part (a slope, a lip) half a line width, or this when it is less.'),
  supportZLayers: int('support', 'layers', 0, 10, 'Vertical gap between support top and part, in layers.'),
  supportInterfaceLayers: int('support', 'layers', 0, 20, 'Dense interface layers on top of the support.'),
  supportPattern: enumSpec(
    { lines: 'parallel lines, one direction', grid: 'lines in two directions', zigzag: 'lines joined at their ends into one path per area' },
    { category: 'support', description: 'Support infill pattern.' },
  ),
  supportMinArea: num('support', 'mm²', 0, 10_000, 'Overhangs smaller than this get no support.'),
  supportInterfaceDensity: num('support', '%', 1, 100, 'Density of the interface layers between support and part.'),
  // ── bridges ──
  bridgeEnabled: bool('support', 'Detect skin printed over air and print it as a bridge, in one direction across the gap. At 0 % infill the hollow inside counts as air, so the first top skin over it is a bridge too.'),
  bridgeSpeed: num('speed', 'mm/s', 1, 1000, 'Bridge speed.'),
  bridgeFlow: num('support', '%', 10, 200, 'Bridge flow, percent of nominal.'),
  bridgeFan: num('cooling', '%', 0, 100, 'Part-cooling fan while printing bridges (not in the fan-off layers); set by the filament preset.'),
} satisfies SpecShape;

type Schema = { readonly [K in keyof SliceSettings]: SpecFor<SliceSettings[K]> & { key: K; default: SliceSettings[K] } };

/** Every setting key, in the order of SliceSettings. */
export const SETTING_KEYS = Object.keys(SPECS) as (keyof SliceSettings)[];

/** The schema: each entry with its key and its default from DEFAULT_SETTINGS. */
export const SETTINGS_SCHEMA: Schema = Object.freeze(
  Object.fromEntries(
    SETTING_KEYS.map((key) => [key, Object.freeze({ ...SPECS[key], key, default: DEFAULT_SETTINGS[key] })]),
  ),
) as Schema;

/** The entry for a key, or undefined when the key names no setting (own keys only: "toString" is not one). */
export function settingSpec(key: string): SettingSpec | undefined {
  return Object.prototype.hasOwnProperty.call(SETTINGS_SCHEMA, key)
    ? (SETTINGS_SCHEMA[key as keyof SliceSettings] as SettingSpec)
    : undefined;
}
