// The catalogue as lists, for `stratum printers|filaments|qualities` and API listings.
import { FILAMENTS } from './filaments.js';
import type { FilamentPreset } from './filament-types.js';
import { PRINTERS } from './printers.js';
import type { PrinterPreset } from './printer-types.js';
import { QUALITIES, type QualityPreset } from './qualities.js';

/** Every printer preset, the default (Creality Ender 3) first. */
export function listPrinters(): readonly PrinterPreset[] {
  return PRINTERS;
}

/** Every filament preset, the default (Generic_PLA) first. */
export function listFilaments(): readonly FilamentPreset[] {
  return FILAMENTS;
}

/** The quality presets: Recommended (default), Highquality, Sketch. */
export function listQualities(): readonly QualityPreset[] {
  return QUALITIES;
}
