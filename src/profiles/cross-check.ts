// Checks across settings, run on the merged result: combinations that cannot print are errors
// (SettingsError BAD_VALUE naming the key at fault), doubtful ones are warnings.
import type { SliceSettings } from '../engine/settings.js';
import { SettingsError } from './errors.js';

/** Speeds of moves in X and Y: each is checked against the printer's X/Y feedrate limit. */
const XY_SPEEDS = [
  'travelSpeed', 'firstLayerTravelSpeed', 'printSpeed', 'infillSpeed', 'outerWallSpeed', 'innerWallSpeed',
  'topBottomSpeed', 'firstLayerSpeed', 'skirtSpeed', 'supportSpeed', 'bridgeSpeed',
] as const;
import { TEMPLATE_PLACEHOLDERS, codeOf, templateSetsTemperatures } from '../engine/output/template.js';

/** The placeholders the G-code writer fills in start and end G-code templates (engine/output/template.ts). */
export const GCODE_PLACEHOLDERS = TEMPLATE_PLACEHOLDERS;

const fmt = (n: number): string => String(Math.round(n * 1000) / 1000);

function fail(key: keyof SliceSettings, message: string): never {
  throw new SettingsError('BAD_VALUE', key, message);
}

/** Placeholder names used in a template that the writer does not know (they would stay as written). */
export function unknownPlaceholders(template: string): string[] {
  const found = new Set<string>();
  for (const m of template.matchAll(/\{([a-zA-Z_][a-zA-Z0-9_]*)\}/g)) {
    if (!Object.prototype.hasOwnProperty.call(GCODE_PLACEHOLDERS, m[1]!)) found.add(m[1]!);
  }
  return [...found];
}

/** Whether a template's code (not its comments) uses `{name}`. */
function templateUses(template: string, name: string): boolean {
  return template.split('\n').some((line) => codeOf(line).includes(`{${name}}`));
}

/** Returns warnings; throws SettingsError for a combination that cannot print. */
export function crossCheckSettings(s: SliceSettings): string[] {
  const warnings: string[] = [];
  const nozzle = s.nozzleDiameter;

  for (const key of ['layerHeight', 'firstLayerHeight'] as const) {
    if (s[key] > nozzle) fail(key, `${key} ${fmt(s[key])} mm is more than the nozzle diameter ${fmt(nozzle)} mm`);
    if (s[key] > nozzle * 0.8) warnings.push(`${key} ${fmt(s[key])} mm is over 80 % of the nozzle diameter ${fmt(nozzle)} mm: layers may not bond well`);
  }
  for (const key of ['lineWidth', 'firstLayerLineWidth', 'infillLineWidth'] as const) {
    if (s[key] < nozzle * 0.5) fail(key, `${key} ${fmt(s[key])} mm is less than half the nozzle diameter ${fmt(nozzle)} mm`);
    if (s[key] > nozzle * 2) fail(key, `${key} ${fmt(s[key])} mm is more than twice the nozzle diameter ${fmt(nozzle)} mm`);
  }
  if (s.layerHeight > s.lineWidth) warnings.push(`layerHeight ${fmt(s.layerHeight)} mm is more than lineWidth ${fmt(s.lineWidth)} mm`);
  if (s.filamentDiameter < nozzle) warnings.push(`filamentDiameter ${fmt(s.filamentDiameter)} mm is smaller than the nozzle`);

  for (const key of ['nozzleTemperature', 'firstLayerNozzleTemperature'] as const) {
    if (s[key] > 0 && s[key] < 150) warnings.push(`${key} ${s[key]} °C is too cold to melt common filaments`);
  }
  // 0 means "no command of Stratum's own", which a template that heats from the value cannot honour:
  // it would write M109 S0 and print cold (the first layer refused by Marlin's cold-extrusion check)
  for (const [key, placeholder] of [
    ['firstLayerNozzleTemperature', 'first_layer_nozzle_temperature'],
    ['nozzleTemperature', 'nozzle_temperature'],
  ] as const) {
    if (s[key] === 0 && templateUses(s.startGcode, placeholder)) {
      fail(
        key,
        `${key} is 0 (no temperature command of Stratum's own), but startGcode heats the nozzle to {${placeholder}}: ` +
          `it would turn the nozzle off (S0) before printing. Give ${key} a temperature, or a startGcode that heats the nozzle itself`,
      );
    }
  }
  if (s.firstLayerNozzleTemperature === 0 && !templateSetsTemperatures(s.startGcode).nozzle) {
    warnings.push('firstLayerNozzleTemperature is 0 and startGcode sets no nozzle temperature (M104/M109): nothing in the file heats the nozzle');
  }
  for (const key of ['nozzleTemperature', 'firstLayerNozzleTemperature'] as const) {
    if (s[key] > s.maxNozzleTemperature) {
      const reaction = s.gcodeFlavor === 'klipper' ? 'Klipper stops the print at the first heating command' : 'the firmware caps or refuses it';
      warnings.push(`${key} ${s[key]} °C is above ${s.machineName}'s maximum nozzle temperature of ${s.maxNozzleTemperature} °C: ${reaction}`);
    }
  }
  if (!s.heatedBed && (s.bedTemperature > 0 || s.firstLayerBedTemperature > 0)) {
    warnings.push('the printer has no heated bed: bed temperatures are ignored');
  }
  const maxXY = Math.min(s.maxFeedrateX, s.maxFeedrateY);
  for (const key of XY_SPEEDS) {
    if (s[key] > maxXY) warnings.push(`${key} ${s[key]} mm/s exceeds the printer's ${maxXY} mm/s limit and will be capped by the firmware`);
  }
  if (s.zSpeed > s.maxFeedrateZ) warnings.push(`zSpeed ${s.zSpeed} mm/s exceeds the printer's ${s.maxFeedrateZ} mm/s Z limit and will be capped by the firmware`);
  if (s.retractLength > 0 && s.retractSpeed > s.maxFeedrateE) {
    warnings.push(`retractSpeed ${s.retractSpeed} mm/s exceeds maxFeedrateE ${s.maxFeedrateE} mm/s`);
  }
  if (s.minPrintSpeed > s.printSpeed) warnings.push(`minPrintSpeed ${s.minPrintSpeed} mm/s is above printSpeed ${s.printSpeed} mm/s`);
  if (s.fanFullLayer <= s.fanOffLayers && s.fanSpeed > 0) {
    warnings.push(`fanFullLayer ${s.fanFullLayer} is not after fanOffLayers ${s.fanOffLayers}: the fan jumps straight to full speed`);
  }
  if (s.adhesionType === 'skirt' && s.skirtLoops === 0 && s.skirtMinLength === 0) warnings.push('adhesionType is skirt but skirtLoops is 0: no skirt is printed');
  if (s.adhesionType === 'brim' && s.brimWidth === 0) warnings.push('adhesionType is brim but brimWidth is 0: no brim is printed');
  if (s.wallCount === 0 && s.infillDensity === 0 && s.topLayers === 0 && s.bottomLayers === 0) {
    fail('wallCount', 'no walls, no skins and no infill: nothing would be printed');
  }
  if (s.wallCount === 0) warnings.push('wallCount is 0: parts have no walls');
  if (s.wallCount === 0 && s.infillDensity === 0 && s.topLayers > 0) {
    warnings.push('wallCount and infillDensity are both 0: top skins over the hollow inside have nothing to rest on');
  }
  // a gap of a layer or so releases the part (CuraEngine's default is 0.3 mm); much more and the
  // part's first layer is extruded into the air above the raft
  if (s.adhesionType === 'raft' && s.raftAirGap > s.nozzleDiameter) {
    warnings.push(`raftAirGap ${s.raftAirGap} mm is more than the nozzle's ${s.nozzleDiameter} mm: the part's first layer is laid that high above the raft, in the air`);
  }
  for (const key of ['startGcode', 'endGcode'] as const) {
    const unknown = unknownPlaceholders(s[key]);
    if (unknown.length > 0) warnings.push(`${key} has unknown placeholders ${unknown.map((p) => `{${p}}`).join(', ')}: they stay as written`);
  }
  return warnings;
}
