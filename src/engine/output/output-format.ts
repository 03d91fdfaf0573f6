// The last step of a slice: the printer file in the format the settings ask for. G-code passes
// through; FCode (docs/fcode.md) is encoded from the finished G-code here, so both formats carry
// exactly the same commands.
import type { SliceSettings } from '../settings.js';
import type { SliceStats } from '../types.js';
import { encodeFCode } from './fcode-encoder.js';
import { metadataFromSlice } from './fcode-gcode-meta.js';

export interface FormattedOutput {
  output: Uint8Array;
  format: 'GCODE' | 'FCODE';
}

/** Turns the finished G-code into the printer file `settings.outputFormat` names. */
export function toOutputFormat(gcode: Uint8Array, settings: SliceSettings, stats: SliceStats): FormattedOutput {
  if (settings.outputFormat === 'FCODE') {
    const t0 = performance.now();
    const output = encodeFCode(gcode, metadataFromSlice(stats, settings));
    stats.timings.fcode = performance.now() - t0;
    return { output, format: 'FCODE' };
  }
  return { output: gcode, format: 'GCODE' };
}
