// The end G-code lifts the nozzle off the print by a fixed amount (`G91` + `G1 Z10`). On a print
// that reaches near the top of the build volume that lift goes past it: Klipper refuses the move
// ("Move out of range") and abandons the file before the heaters-off lines and the end macro run;
// Marlin clamps it, or stalls the Z motors where it has no software end stops. So the end G-code's Z
// moves are cut to the build height, with a warning.
import { mm3 } from './number-format.js';

export interface ClampedEndGcode {
  text: string;
  /** set when a Z move was cut */
  warning?: string;
}

const MOVE = /^\s*G0?[01](?![0-9])/i;
const Z_WORD = /Z\s*([-+]?[0-9]*\.?[0-9]+)/i;

/**
 * `endGcode` run from nozzle height `startZ` (mm), absolute positioning: Z moves that would end above
 * `maxZ` end at it (a lift with no room left loses its Z word). Tracks G90/G91; stops at a move that
 * homes Z (G28, G28 Z: where Z then is depends on the machine, e.g. a delta's carriages at the top).
 */
export function clampEndLift(endGcode: string, startZ: number, maxZ: number): ClampedEndGcode {
  let z = startZ;
  let relative = false;
  let cut = false;
  const lines = endGcode.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const semi = line.indexOf(';');
    const code = semi >= 0 ? line.slice(0, semi) : line;
    const word = code.trim().toUpperCase();
    // homing Z (a bare G28 homes all): where Z then is depends on the machine; G28 X Y leaves it
    if (/^G28(?![0-9])/.test(word) && (/Z/.test(word.slice(3)) || !/[XYZ]/.test(word.slice(3)))) break;
    if (/^G90(?![0-9])/.test(word)) relative = false;
    else if (/^G91(?![0-9])/.test(word)) relative = true;
    if (!MOVE.test(code)) continue;
    const m = Z_WORD.exec(code);
    if (!m) continue;
    const value = Number(m[1]);
    const target = relative ? z + value : value;
    if (target <= maxZ + 1e-9) {
      z = target;
      continue;
    }
    cut = true;
    const room = Math.max(0, maxZ - z);
    const replacement = relative ? (room > 0 ? `Z${mm3(room)}` : '') : `Z${mm3(maxZ)}`;
    const newCode = (code.slice(0, m.index) + replacement + code.slice(m.index + m[0].length)).replace(/ {2,}/g, ' ');
    lines[i] = newCode.replace(/\s+$/, '') + (semi >= 0 ? ` ${line.slice(semi)}` : '');
    z = relative ? z + room : maxZ;
  }
  if (!cut) return { text: endGcode };
  return {
    text: lines.join('\n'),
    warning: `the end G-code's lift was cut to stay within the ${mm3(maxZ)} mm build height (the print ends at ${mm3(startZ)} mm)`,
  };
}
