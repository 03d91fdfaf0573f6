// G-code → FCode (docs/fcode.md): the container. Header, metadata and its CRC, then the lines cut
// into blocks of commands (fcode-line-coder.ts), each block with its length, line count and CRC,
// and the end block. Every line becomes a command that decodes to its very bytes, so decoding
// gives the G-code back byte for byte, whatever it contains.
import { crc32 } from './fcode-crc.js';
import { ByteWriter } from './fcode-bytes.js';
import {
  BLOCK_HEADER_BYTES,
  FCODE_MAGIC,
  FCODE_VERSION,
  FCodeError,
  FLAG_NO_FINAL_NEWLINE,
  FLAG_RELATIVE_E,
  HEADER_BYTES,
  MAX_BLOCK_PAYLOAD,
  MAX_DECIMALS,
  TARGET_BLOCK_LINES,
  TARGET_BLOCK_PAYLOAD,
  type AxisDecimals,
} from './fcode-format.js';
import { writeMetadata, type FCodeMetadata } from './fcode-metadata.js';
import { decimalsOf } from './fcode-decimals.js';
import { BlockState, LineCoder } from './fcode-line-coder.js';

const M = 77, SPACE = 32, SEMI = 59, NEWLINE = 10;

export interface EncodeOptions {
  /** decimals kept per move axis (default: what the G-code's first moves print, see fcode-decimals.ts) */
  decimals?: Partial<AxisDecimals>;
  /** lines per block (default 4096) */
  blockLines?: number;
}

/**
 * Whether the G-code's E values are amounts per move: its first M82/M83 line says so. Decoding
 * never depends on this guess; a wrong one only makes the file larger.
 */
function relativeExtrusion(gcode: Uint8Array): boolean {
  for (let i = gcode.indexOf(M); i >= 0; i = gcode.indexOf(M, i + 1)) {
    if ((i === 0 || gcode[i - 1] === NEWLINE) && gcode[i + 1] === 56 && (gcode[i + 2] === 50 || gcode[i + 2] === 51)) {
      const end = gcode[i + 3];
      if (end === undefined || end === NEWLINE || end === SPACE || end === SEMI || end === 13) return gcode[i + 2] === 51;
    }
  }
  return false;
}

function checkDecimals(d: AxisDecimals): void {
  for (const [axis, n] of Object.entries(d)) {
    if (!Number.isInteger(n) || n < 0 || n > MAX_DECIMALS) {
      throw new RangeError(`FCode decimals for ${axis} must be an integer 0…${MAX_DECIMALS}, got ${n}`);
    }
  }
}

/** The FCode file of a G-code text (bytes as written, any content). */
export function encodeFCode(gcode: Uint8Array, meta: FCodeMetadata, opts: EncodeOptions = {}): Uint8Array {
  const decimals: AxisDecimals = { ...decimalsOf(gcode), ...opts.decimals };
  checkDecimals(decimals);
  const blockLines = Math.max(1, Math.min(opts.blockLines ?? TARGET_BLOCK_LINES, 65536));
  const out = new ByteWriter(Math.max(1 << 16, gcode.length >>> 2));

  const n = gcode.length;
  const relativeE = relativeExtrusion(gcode);
  const noFinalNewline = n > 0 && gcode[n - 1] !== NEWLINE;
  for (const byte of FCODE_MAGIC) out.u8(byte);
  out.u8(FCODE_VERSION);
  out.u8((noFinalNewline ? FLAG_NO_FINAL_NEWLINE : 0) | (relativeE ? FLAG_RELATIVE_E : 0));
  for (const d of [decimals.x, decimals.y, decimals.z, decimals.e, decimals.f]) out.u8(d);
  out.u8(0);
  out.u32(0); // metadata length, set below
  writeMetadata(out, meta);
  const metaLength = out.length - HEADER_BYTES;
  out.bytes.set([metaLength & 0xff, (metaLength >>> 8) & 0xff, (metaLength >>> 16) & 0xff, metaLength >>> 24], 12);
  out.u32(crc32(out.bytes, 0, out.length));

  const payload = new ByteWriter();
  const state = new BlockState(relativeE);
  const coder = new LineCoder(payload, state, decimals);
  let blockLineCount = 0;
  let total = 0;
  const flush = (): void => {
    const at = out.length;
    out.u32(payload.length);
    out.u32(blockLineCount);
    out.u32(0);
    out.raw(payload.bytes, 0, payload.length);
    // the CRC covers the block's length and line count too, so a damaged length is caught
    const crc = crc32(out.bytes, at, at + 8, 0);
    const full = crc32(out.bytes, at + BLOCK_HEADER_BYTES, out.length, crc);
    out.bytes.set([full & 0xff, (full >>> 8) & 0xff, (full >>> 16) & 0xff, full >>> 24], at + 8);
    payload.length = 0;
    blockLineCount = 0;
    state.reset();
  };

  let s = 0;
  while (s < n) {
    let e = gcode.indexOf(NEWLINE, s);
    if (e < 0) e = n;
    if (e - s > MAX_BLOCK_PAYLOAD - 16) {
      throw new FCodeError('LINE_TOO_LONG', `line ${total + 1} is ${e - s} bytes long; FCode keeps lines under ${MAX_BLOCK_PAYLOAD - 16}`);
    }
    if (blockLineCount > 0 && payload.length + (e - s) + 16 > MAX_BLOCK_PAYLOAD) flush();
    coder.line(gcode, s, e);
    blockLineCount++;
    total++;
    if (blockLineCount >= blockLines || payload.length >= TARGET_BLOCK_PAYLOAD) flush();
    s = e + 1;
  }
  if (blockLineCount > 0) flush();
  // the end block: no payload, the total line count, the CRC of its own header
  const at = out.length;
  out.u32(0);
  out.u32(total);
  out.u32(crc32(out.bytes, at, at + 8));
  return out.result();
}
