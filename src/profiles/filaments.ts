// The filament catalogue (Generic_PLA first: it is the default), how a filament preset changes the
// settings of a printer, and the Shore hardness → infill density calibration for point clouds.
import type { SliceSettings } from '../engine/settings.js';
import { ProfileError } from './errors.js';
import { FILAMENTS } from './filaments-data.js';
import type { FilamentPreset, ShoreTable } from './filament-types.js';
import { closeMatches, NameIndex, unknownMessage } from './names.js';

export const DEFAULT_FILAMENT = 'Generic_PLA';
export { FILAMENTS };

const INDEX = new NameIndex(FILAMENTS, (f) => f);

/** The filament with this name or alias (case and punctuation ignored), or undefined. */
export function findFilament(name: string): FilamentPreset | undefined {
  return INDEX.find(name);
}

/** Like findFilament, but an unknown name throws ProfileError UNKNOWN_FILAMENT with close matches. */
export function getFilament(name: string): FilamentPreset {
  const found = INDEX.find(name);
  if (found) return found;
  const suggestions = closeMatches(name, INDEX.entries);
  throw new ProfileError('UNKNOWN_FILAMENT', unknownMessage('filament', name, suggestions), suggestions);
}

/** Settings a filament changes on top of the printer's (`current`), with warnings about the fit. */
export function filamentSettings(f: FilamentPreset, current: SliceSettings): { settings: Partial<SliceSettings>; warnings: string[] } {
  const warnings: string[] = [];
  if (!f.diameters.includes(current.filamentDiameter)) {
    warnings.push(`${f.name} is not sold in the ${current.filamentDiameter} mm diameter ${current.machineName} takes`);
  }
  const bedless = !current.heatedBed;
  if (bedless && f.bedTemperature > 60) warnings.push(`${f.name} wants a ${f.bedTemperature} °C bed but ${current.machineName} has no heated bed`);
  const settings: Partial<SliceSettings> = {
    filamentName: f.name,
    filamentDensity: f.density,
    filamentCost: f.cost,
    nozzleTemperature: f.nozzleTemperature,
    firstLayerNozzleTemperature: f.firstLayerNozzleTemperature,
    bedTemperature: bedless ? 0 : f.bedTemperature,
    firstLayerBedTemperature: bedless ? 0 : f.firstLayerBedTemperature,
    fanSpeed: f.fanSpeed,
    bridgeFan: f.bridgeFan,
    fanOffLayers: f.fanOffLayers,
    fanFullLayer: f.fanFullLayer,
    minLayerTime: f.minLayerTime,
    ...(f.flowMultiplier !== undefined ? { flowMultiplier: f.flowMultiplier } : {}),
  };
  if (f.retraction) {
    const { lengthFactor = 1, maxLength = Infinity, speed = Infinity } = f.retraction;
    settings.retractLength = Math.round(Math.min(maxLength, current.retractLength * lengthFactor) * 100) / 100;
    settings.retractSpeed = Math.min(speed, current.retractSpeed);
    settings.retractPrimeSpeed = Math.min(speed, current.retractPrimeSpeed);
  }
  return { settings, warnings };
}

const PRINT_SPEED_KEYS = [
  'printSpeed', 'infillSpeed', 'outerWallSpeed', 'innerWallSpeed', 'topBottomSpeed',
  'firstLayerSpeed', 'skirtSpeed', 'supportSpeed', 'bridgeSpeed',
] as const;

/** A filament's speed cap over all print speeds (after the quality preset has scaled them). */
export function filamentSpeedCaps(f: FilamentPreset, current: SliceSettings): Partial<SliceSettings> {
  if (f.maxPrintSpeed === undefined) return {};
  const out: Partial<SliceSettings> = {};
  for (const key of PRINT_SPEED_KEYS) out[key] = Math.min(current[key], f.maxPrintSpeed);
  out.minPrintSpeed = Math.min(current.minPrintSpeed, f.maxPrintSpeed);
  return out;
}

/** Checks that a Shore table is usable: at least one row, finite values, both columns increasing. */
export function checkShoreTable(table: ShoreTable): string | undefined {
  if (table.length === 0) return 'the table is empty';
  for (let i = 0; i < table.length; i++) {
    const [shore, density] = table[i]!;
    if (!Number.isFinite(shore) || !Number.isFinite(density)) return `row ${i} is not finite`;
    if (density < 0 || density > 100) return `row ${i}: density ${density} % is outside 0–100`;
    if (i > 0 && (shore <= table[i - 1]![0] || density < table[i - 1]![1])) return `row ${i} is not in increasing order`;
  }
  return undefined;
}

/**
 * Infill density (%) that gives a part of the wanted Shore hardness in this filament: linear
 * interpolation in the preset's calibration table. Hardness outside the table clamps to its first or
 * last row and reports `clamped`. NaN is a RangeError; a preset without a table a ProfileError.
 */
export function densityForShore(
  preset: Pick<FilamentPreset, 'name' | 'shoreToDensity'>,
  shore: number,
): { density: number; clamped: boolean } {
  const table = preset.shoreToDensity;
  if (!table || table.length === 0) {
    throw new ProfileError('NO_SHORE_TABLE', `filament ${preset.name} has no Shore calibration table for point clouds`);
  }
  if (Number.isNaN(shore)) throw new RangeError('Shore hardness is NaN');
  const first = table[0]!;
  const last = table[table.length - 1]!;
  if (shore < first[0]) return { density: first[1], clamped: true };
  if (shore > last[0]) return { density: last[1], clamped: true };
  // Binary search for the row at or below `shore`.
  let lo = 0;
  let hi = table.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (table[mid]![0] <= shore) lo = mid;
    else hi = mid;
  }
  const [s0, d0] = table[lo]!;
  const [s1, d1] = table[hi]!;
  if (shore <= s0 || s1 === s0) return { density: d0, clamped: false };
  return { density: d0 + ((shore - s0) / (s1 - s0)) * (d1 - d0), clamped: false };
}
