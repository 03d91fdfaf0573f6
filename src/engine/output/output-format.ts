// The last step of a slice: the printer file in the format the settings ask for. G-code passes
// through; FCode (docs/fcode.md) is encoded from the finished G-code here.
import type { SliceSettings } from '../settings.js';
import type { SliceStats } from '../types.js';

export interface FormattedOutput {
  output: Uint8Array;
  format: 'GCODE' | 'FCODE';
}

/** Turns the finished G-code into the printer file `settings.outputFormat` names. */
export function toOutputFormat(gcode: Uint8Array, _settings: SliceSettings, _stats: SliceStats): FormattedOutput {
  // FCode is not encoded yet (issue 6): every printer gets G-code for now
  return { output: gcode, format: 'GCODE' };
}
