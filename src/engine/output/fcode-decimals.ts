// How many decimals FCode stores each move axis with: Stratum's own (X Y Z 3, E 5, F 0), or more
// where the G-code's G0/G1 lines print more (CuraEngine prints F with one decimal). Never fewer, so
// that a first layer at Z0.2 does not decide for a later Z10.25. A number with more decimals than
// chosen would only make its line text; the choice decides the size, never the content, so the
// G-code is sampled (its head and 16 windows spread over the rest), not read whole.
import { DEFAULT_DECIMALS, MAX_DECIMALS, type AxisDecimals } from './fcode-format.js';

const AXES: Record<number, keyof AxisDecimals> = { 88: 'x', 89: 'y', 90: 'z', 69: 'e', 70: 'f' };

const HEAD_BYTES = 256 * 1024;
const WINDOWS = 16;
const WINDOW_BYTES = 64 * 1024;

export function decimalsOf(gcode: Uint8Array): AxisDecimals {
  const seen: Partial<AxisDecimals> = {};
  const scan = (from: number, to: number): void => {
    let i = from;
    while (i < to) {
      let e = gcode.indexOf(10, i);
      if (e < 0 || e > to) e = to;
      if (gcode[i] === 71 && (gcode[i + 1] === 48 || gcode[i + 1] === 49) && gcode[i + 2] === 32) {
        // " L<digits>[.<digits>]" tokens up to a comment
        for (let k = i + 2; k < e && gcode[k] !== 59; k++) {
          const axis = gcode[k] === 32 ? AXES[gcode[k + 1]!] : undefined;
          if (axis === undefined) continue;
          let j = k + 2;
          while (j < e && gcode[j] !== 32 && gcode[j] !== 46) j++;
          let digits = 0;
          if (gcode[j] === 46) for (j++; j < e && gcode[j]! >= 48 && gcode[j]! <= 57; j++) digits++;
          if (digits > (seen[axis] ?? DEFAULT_DECIMALS[axis])) seen[axis] = Math.min(digits, MAX_DECIMALS);
          k = j - 1;
        }
      }
      i = e + 1;
    }
  };
  const n = gcode.length;
  scan(0, Math.min(n, HEAD_BYTES));
  if (n > HEAD_BYTES + WINDOWS * WINDOW_BYTES) {
    for (let w = 1; w <= WINDOWS; w++) {
      const at = HEAD_BYTES + Math.floor(((n - HEAD_BYTES - WINDOW_BYTES) * w) / WINDOWS);
      const lineStart = gcode.indexOf(10, at) + 1; // whole lines only
      if (lineStart > 0) scan(lineStart, Math.min(n, lineStart + WINDOW_BYTES));
    }
  } else if (n > HEAD_BYTES) {
    scan(gcode.indexOf(10, HEAD_BYTES) + 1 || n, n);
  }
  return { ...DEFAULT_DECIMALS, ...seen };
}
