// Helpers that build printer presets from short descriptions: typical retraction per extruder type,
// Klipper's cornering expressed as junction deviation, and the defaults most printers share.
import type { GcodeFlavor, OutputFormat } from '../engine/settings.js';
import type { MachineLimits, PrinterPreset, PrinterRetraction } from './printer-types.js';

export const BOWDEN_RETRACTION: PrinterRetraction = { length: 5, speed: 40, primeSpeed: 40 };
export const DIRECT_RETRACTION: PrinterRetraction = { length: 0.8, speed: 35, primeSpeed: 35 };

/**
 * Klipper rounds corners by "square corner velocity" (SCV): the speed kept through a 90° corner.
 * The equivalent junction deviation at acceleration a is SCV² · (√2 − 1) / a.
 */
export function klipperJunctionDeviation(squareCornerVelocity: number, accel: number): number {
  const jd = (squareCornerVelocity * squareCornerVelocity * (Math.SQRT2 - 1)) / accel;
  return Math.round(jd * 1e5) / 1e5;
}

export interface LimitsInput {
  feed: readonly [number, number, number, number];
  accel: readonly [number, number, number, number];
  jerk?: readonly [number, number, number, number];
  /** junction deviation, mm (0 or absent = jerk) */
  jd?: number;
  print: number;
  travel?: number;
  retract?: number;
}

export function limits(l: LimitsInput): MachineLimits {
  return {
    maxFeedrate: l.feed,
    maxAccel: l.accel,
    maxJerk: l.jerk ?? [10, 10, 0.4, 5],
    junctionDeviation: l.jd ?? 0,
    printAcceleration: l.print,
    travelAcceleration: l.travel ?? l.print,
    retractAcceleration: l.retract ?? Math.max(1000, Math.min(l.accel[3], l.print)),
  };
}

/** Klipper limits: cornering from SCV (default 5 mm/s) at the print acceleration, jerk unused. */
export function klipperLimits(l: Omit<LimitsInput, 'jerk' | 'jd'> & { scv?: number }): MachineLimits {
  return limits({ ...l, jerk: [0, 0, 0, 0], jd: klipperJunctionDeviation(l.scv ?? 5, l.print) });
}

export interface PrinterInput {
  name: string;
  vendor: string;
  aliases?: readonly string[];
  bed: readonly [number, number, number];
  extruder: 'direct' | 'bowden';
  limits: MachineLimits;
  startGcode: string;
  endGcode: string;
  flavor?: GcodeFlavor;
  relativeExtrusion?: boolean;
  outputFormat?: OutputFormat;
  nozzle?: number;
  /** °C; most stock Marlin hotends stop at 260 (firmware MAXTEMP 275 less its 15 °C margin) */
  maxNozzleTemp?: number;
  heatedBed?: boolean;
  filamentDiameter?: 1.75 | 2.85;
  /** delta printers: (0,0) at the centre, round bed of diameter bed[0] */
  delta?: boolean;
  /** a rectangular bed whose (0,0) is its centre (the firmware's coordinates run −width/2 … +width/2) */
  originCenter?: boolean;
  retraction?: PrinterRetraction;
  emitMachineLimits?: boolean;
  note?: string;
}

export function printer(p: PrinterInput): PrinterPreset {
  const preset: PrinterPreset = {
    name: p.name,
    vendor: p.vendor,
    aliases: Object.freeze([...(p.aliases ?? [])]),
    bedWidth: p.bed[0],
    bedDepth: p.bed[1],
    bedHeight: p.bed[2],
    originCenter: p.delta === true || p.originCenter === true,
    roundBed: p.delta === true,
    nozzleDiameter: p.nozzle ?? 0.4,
    maxNozzleTemperature: p.maxNozzleTemp ?? 260,
    heatedBed: p.heatedBed ?? true,
    gcodeFlavor: p.flavor ?? 'marlin',
    relativeExtrusion: p.relativeExtrusion ?? false,
    outputFormat: p.outputFormat ?? 'GCODE',
    filamentDiameter: p.filamentDiameter ?? 1.75,
    extruder: p.extruder,
    retraction: p.retraction ?? (p.extruder === 'direct' ? DIRECT_RETRACTION : BOWDEN_RETRACTION),
    limits: p.limits,
    emitMachineLimits: p.emitMachineLimits ?? false,
    startGcode: p.startGcode,
    endGcode: p.endGcode,
    ...(p.note ? { note: p.note } : {}),
  };
  return Object.freeze(preset);
}
