// What a printer preset says about a machine. Field names follow SliceSettings where the value
// carries over one to one, so callers (the CLI's `stratum printers`) can read them directly.
import type { GcodeFlavor, OutputFormat } from '../engine/settings.js';

/** Firmware limits used by the print-time estimate (and written to G-code when asked). */
export interface MachineLimits {
  /** mm/s for X, Y, Z, E */
  maxFeedrate: readonly [number, number, number, number];
  /** mm/s² for X, Y, Z, E */
  maxAccel: readonly [number, number, number, number];
  /** mm/s for X, Y, Z, E */
  maxJerk: readonly [number, number, number, number];
  /** mm; 0 = classic jerk */
  junctionDeviation: number;
  printAcceleration: number;
  travelAcceleration: number;
  retractAcceleration: number;
}

/** Retraction that suits the extruder (filament presets may shorten or slow it). */
export interface PrinterRetraction {
  length: number;
  speed: number;
  primeSpeed: number;
}

export interface PrinterPreset {
  /** canonical name, e.g. "Creality Ender 3" */
  name: string;
  vendor: string;
  /** other names clients send ("CR-10", "Ender-3"); matching ignores case, spaces and punctuation */
  aliases: readonly string[];
  bedWidth: number;
  bedDepth: number;
  bedHeight: number;
  /** (0,0) at the bed centre (deltas) */
  originCenter: boolean;
  /** round bed (deltas): bedWidth = bedDepth = its diameter, the square is the bounding box */
  roundBed: boolean;
  nozzleDiameter: number;
  /** highest nozzle temperature the hotend and firmware accept, °C (the maker's figure) */
  maxNozzleTemperature: number;
  heatedBed: boolean;
  gcodeFlavor: GcodeFlavor;
  relativeExtrusion: boolean;
  outputFormat: OutputFormat;
  /** filament diameter the extruder takes, mm */
  filamentDiameter: 1.75 | 2.85;
  extruder: 'direct' | 'bowden';
  retraction: PrinterRetraction;
  limits: MachineLimits;
  emitMachineLimits: boolean;
  startGcode: string;
  endGcode: string;
  /** where a fact is an assumption rather than the maker's figure */
  note?: string;
}
