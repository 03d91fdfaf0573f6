// Printers of our own that take FCode (docs/fcode.md) instead of G-code text.
import { leftEdgePurgeStart, parkBackEnd } from './gcode-templates.js';
import { limits, printer } from './printer-build.js';
import type { PrinterPreset } from './printer-types.js';

export const STRATUM_PRINTERS: readonly PrinterPreset[] = [
  printer({
    name: 'Stratum One',
    vendor: 'Stratum',
    aliases: ['StratumOne'],
    bed: [250, 250, 250],
    extruder: 'direct',
    outputFormat: 'FCODE',
    limits: limits({ feed: [500, 500, 20, 100], accel: [3000, 3000, 200, 5000], jerk: [10, 10, 0.4, 5], jd: 0.02, print: 2000, travel: 3000 }),
    startGcode: leftEdgePurgeStart({ leveling: 'M420 S1' }),
    endGcode: parkBackEnd(),
  }),
  printer({
    // The name early public clients send for the FCode printer; kept so they work unchanged.
    name: 'IdeaWerk-Speed',
    vendor: 'IdeaWerk',
    aliases: ['IdeaWerk Speed'],
    bed: [250, 250, 250],
    extruder: 'direct',
    outputFormat: 'FCODE',
    limits: limits({ feed: [500, 500, 20, 100], accel: [3000, 3000, 200, 5000], jerk: [10, 10, 0.4, 5], jd: 0.02, print: 2000, travel: 3000 }),
    startGcode: leftEdgePurgeStart({ leveling: 'M420 S1' }),
    endGcode: parkBackEnd(),
    note: 'legacy name; the build volume and limits are assumed equal to the Stratum One',
  }),
];
