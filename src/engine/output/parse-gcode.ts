// A small G-code reader that turns printer text back into machine moves: G0/G1 (X Y Z E F), G92,
// G28, G90/G91, M82/M83 and G4 dwells; everything after `;` is a comment. Layer starts are taken
// from `;LAYER:n` (Cura style, also ours) and `;LAYER_CHANGE` (PrusaSlicer style).
import { MoveBuffer } from './move-buffer.js';

export interface ParsedGcode {
  moves: MoveBuffer;
  /** index into `moves` of the first move of each layer, in file order */
  layerStarts: number[];
  /** time spent in G4 dwells, seconds */
  dwellS: number;
  /** sum of all E deltas (net filament pushed), mm */
  netE: number;
  /** machine state after the last line */
  end: GcodeState;
}

/** Machine position and modes; what a parse starts from and ends with. */
export interface GcodeState {
  x: number;
  y: number;
  z: number;
  e: number;
  /** feedrate, mm/s */
  feed: number;
  /** G91 in force */
  relative: boolean;
  /** M83 in force */
  relativeE: boolean;
}

export interface ParseOptions {
  /** append moves to this buffer instead of a new one */
  into?: MoveBuffer;
  /** state to start from (default: at 0,0,0, absolute, no feedrate) */
  start?: Partial<GcodeState>;
  /**
   * whether G91 makes E relative too (Marlin, Klipper: default true); RepRapFirmware's G90/G91 leave
   * the extruder alone, only M82/M83 switch it
   */
  g91MovesE?: boolean;
}

const CODE_0 = 48;
const CODE_9 = 57;

/** Value of each parameter letter on one line (NaN where absent), by upper-case letter code. */
function readParams(code: string, start: number, out: Float64Array): void {
  out.fill(NaN);
  const n = code.length;
  let i = start;
  while (i < n) {
    let c = code.charCodeAt(i);
    if (c >= 97 && c <= 122) c -= 32; // lower-case letter
    if (c < 65 || c > 90) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < n) {
      const d = code.charCodeAt(j);
      if ((d >= CODE_0 && d <= CODE_9) || d === 46 || d === 45 || d === 43) j++;
      else break;
    }
    // numbers are plain decimals: an 'e' ends them (G-code writers never use exponents)
    const text = code.slice(i + 1, j);
    out[c - 65] = text.length > 0 ? Number(text) : 0;
    i = Math.max(j, i + 1);
  }
}

const AX = 'X'.charCodeAt(0) - 65;
const AY = 'Y'.charCodeAt(0) - 65;
const AZ = 'Z'.charCodeAt(0) - 65;
const AE = 'E'.charCodeAt(0) - 65;
const AF = 'F'.charCodeAt(0) - 65;
const AP = 'P'.charCodeAt(0) - 65;
const AS = 'S'.charCodeAt(0) - 65;

export function parseGcode(text: string, opts: ParseOptions = {}): ParsedGcode {
  const moves = opts.into ?? new MoveBuffer(Math.max(1024, text.length >>> 5));
  const layerStarts: number[] = [];
  const p = new Float64Array(26);
  const st = opts.start ?? {};
  let x = st.x ?? 0, y = st.y ?? 0, z = st.z ?? 0, e = st.e ?? 0;
  let feed = st.feed ?? 0; // mm/s
  let relative = st.relative ?? false; // G91
  let relativeE = st.relativeE ?? false; // M83
  const g91MovesE = opts.g91MovesE ?? true;
  let dwellS = 0;
  let netE = 0;

  let pos = 0;
  const len = text.length;
  let semi = -1; // next ';' at or after pos (kept across lines so the search stays linear)
  while (pos < len) {
    let end = text.indexOf('\n', pos);
    if (end < 0) end = len;
    if (semi < pos) {
      semi = text.indexOf(';', pos);
      if (semi < 0) semi = Infinity;
    }
    const codeEnd = semi < end ? semi : end;
    if (codeEnd < end && text.startsWith(';LAYER', codeEnd)) {
      const rest = text.charCodeAt(codeEnd + 6);
      if (rest === 58 /* : */ || text.startsWith('_CHANGE', codeEnd + 6)) layerStarts.push(moves.length);
    }
    let s = pos;
    while (s < codeEnd && (text.charCodeAt(s) === 32 || text.charCodeAt(s) === 9)) s++;
    if (s < codeEnd) {
      const line = text.slice(s, codeEnd);
      const letter = line.charCodeAt(0) | 32; // lower-case
      let k = 1;
      while (k < line.length && line.charCodeAt(k) >= CODE_0 && line.charCodeAt(k) <= CODE_9) k++;
      const num = Number(line.slice(1, k));
      if (letter === 103 /* g */) {
        if (num === 0 || num === 1) {
          readParams(line, k, p);
          if (!Number.isNaN(p[AF]!)) feed = p[AF]! / 60;
          const nx = Number.isNaN(p[AX]!) ? x : relative ? x + p[AX]! : p[AX]!;
          const ny = Number.isNaN(p[AY]!) ? y : relative ? y + p[AY]! : p[AY]!;
          const nz = Number.isNaN(p[AZ]!) ? z : relative ? z + p[AZ]! : p[AZ]!;
          const ne = Number.isNaN(p[AE]!) ? e : (relative && g91MovesE) || relativeE ? e + p[AE]! : p[AE]!;
          if (nx !== x || ny !== y || nz !== z || ne !== e) {
            moves.push(nx - x, ny - y, nz - z, ne - e, feed);
            netE += ne - e;
          }
          x = nx;
          y = ny;
          z = nz;
          e = ne;
        } else if (num === 92) {
          readParams(line, k, p);
          const none = Number.isNaN(p[AX]!) && Number.isNaN(p[AY]!) && Number.isNaN(p[AZ]!) && Number.isNaN(p[AE]!);
          if (none) x = y = z = e = 0;
          if (!Number.isNaN(p[AX]!)) x = p[AX]!;
          if (!Number.isNaN(p[AY]!)) y = p[AY]!;
          if (!Number.isNaN(p[AZ]!)) z = p[AZ]!;
          if (!Number.isNaN(p[AE]!)) e = p[AE]!;
        } else if (num === 28) {
          readParams(line, k, p);
          const none = Number.isNaN(p[AX]!) && Number.isNaN(p[AY]!) && Number.isNaN(p[AZ]!);
          if (none || !Number.isNaN(p[AX]!)) x = 0;
          if (none || !Number.isNaN(p[AY]!)) y = 0;
          if (none || !Number.isNaN(p[AZ]!)) z = 0;
        } else if (num === 90) relative = false;
        else if (num === 91) relative = true;
        else if (num === 4) {
          readParams(line, k, p);
          if (!Number.isNaN(p[AS]!)) dwellS += p[AS]!;
          else if (!Number.isNaN(p[AP]!)) dwellS += p[AP]! / 1000;
        }
      } else if (letter === 109 /* m */) {
        if (num === 82) relativeE = false;
        else if (num === 83) relativeE = true;
      }
    }
    pos = end + 1;
  }
  return { moves, layerStarts, dwellS, netE, end: { x, y, z, e, feed, relative, relativeE } };
}
