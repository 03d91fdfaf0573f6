// The printer catalogue (Creality Ender 3 first: it is the default) and how a printer preset
// becomes machine settings.
import type { SliceSettings } from '../engine/settings.js';
import { ProfileError } from './errors.js';
import { closeMatches, NameIndex, unknownMessage } from './names.js';
import { CREALITY_PRINTERS } from './printers-creality.js';
import { OTHER_PRINTERS } from './printers-others.js';
import { PRUSA_ULTIMAKER_VORON_PRINTERS } from './printers-prusa-ultimaker-voron.js';
import { STRATUM_PRINTERS } from './printers-stratum.js';
import type { PrinterPreset } from './printer-types.js';

export const DEFAULT_PRINTER = 'Creality Ender 3';

export const PRINTERS: readonly PrinterPreset[] = Object.freeze([
  ...CREALITY_PRINTERS,
  ...PRUSA_ULTIMAKER_VORON_PRINTERS,
  ...OTHER_PRINTERS,
  ...STRATUM_PRINTERS,
]);

const INDEX = new NameIndex(PRINTERS, (p) => p);

/** The printer with this name or alias (case, spaces and punctuation ignored), or undefined. */
export function findPrinter(name: string): PrinterPreset | undefined {
  return INDEX.find(name);
}

/** Like findPrinter, but an unknown name throws ProfileError UNKNOWN_PRINTER with close matches. */
export function getPrinter(name: string): PrinterPreset {
  const found = INDEX.find(name);
  if (found) return found;
  const suggestions = closeMatches(name, INDEX.entries);
  throw new ProfileError('UNKNOWN_PRINTER', unknownMessage('printer', name, suggestions), suggestions);
}

/**
 * Machine settings of a printer. Line widths follow the nozzle (a 0.6 mm nozzle prints 0.6 mm lines);
 * `nozzleDiameter` lets a caller use another nozzle in the same printer.
 */
export function printerSettings(p: PrinterPreset, nozzleDiameter = p.nozzleDiameter): Partial<SliceSettings> {
  const l = p.limits;
  return {
    machineName: p.name,
    bedWidth: p.bedWidth,
    bedDepth: p.bedDepth,
    bedHeight: p.bedHeight,
    originCenter: p.originCenter,
    roundBed: p.roundBed,
    nozzleDiameter,
    maxNozzleTemperature: p.maxNozzleTemperature,
    heatedBed: p.heatedBed,
    gcodeFlavor: p.gcodeFlavor,
    relativeExtrusion: p.relativeExtrusion,
    startGcode: p.startGcode,
    endGcode: p.endGcode,
    outputFormat: p.outputFormat,
    maxFeedrateX: l.maxFeedrate[0],
    maxFeedrateY: l.maxFeedrate[1],
    maxFeedrateZ: l.maxFeedrate[2],
    maxFeedrateE: l.maxFeedrate[3],
    maxAccelX: l.maxAccel[0],
    maxAccelY: l.maxAccel[1],
    maxAccelZ: l.maxAccel[2],
    maxAccelE: l.maxAccel[3],
    maxJerkX: l.maxJerk[0],
    maxJerkY: l.maxJerk[1],
    maxJerkZ: l.maxJerk[2],
    maxJerkE: l.maxJerk[3],
    junctionDeviation: l.junctionDeviation,
    printAcceleration: l.printAcceleration,
    travelAcceleration: l.travelAcceleration,
    retractAcceleration: l.retractAcceleration,
    emitMachineLimits: p.emitMachineLimits,
    filamentDiameter: p.filamentDiameter,
    retractLength: p.retraction.length,
    retractSpeed: p.retraction.speed,
    retractPrimeSpeed: p.retraction.primeSpeed,
    lineWidth: nozzleDiameter,
    firstLayerLineWidth: nozzleDiameter,
    infillLineWidth: nozzleDiameter,
    ...(p.heatedBed ? {} : { bedTemperature: 0, firstLayerBedTemperature: 0 }),
  };
}
