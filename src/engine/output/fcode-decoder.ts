// FCode → G-code (docs/fcode.md): checks the header, the metadata's and every block's CRC-32, and
// writes each command back as the line it came from. Whatever is wrong with a file (damaged,
// truncated, not FCode at all) comes out as an FCodeError naming the block and byte offset.
import { ByteReader, ByteWriter, readU32 } from './fcode-bytes.js';
import { crc32 } from './fcode-crc.js';
import {
  AXIS_E,
  AXIS_F,
  AXIS_X,
  AXIS_Y,
  AXIS_Z,
  BLOCK_HEADER_BYTES,
  FCODE_MAGIC,
  FCODE_READ_VERSIONS,
  FCodeError,
  FEATURE_NAMES,
  FLAG_NO_FINAL_NEWLINE,
  FLAG_RELATIVE_E,
  HEADER_BYTES,
  MAX_BLOCK_LINES,
  MAX_BLOCK_PAYLOAD,
  MAX_DECIMALS,
  MAX_DICTIONARY,
  OP_DEFINE,
  OP_ELAPSED,
  OP_FAN,
  OP_FAN_OFF,
  OP_LAYER,
  OP_MOVE_F_LAST,
  OP_MOVE_G1,
  OP_PROGRESS,
  OP_REPEAT,
  OP_SET_E,
  OP_TEMP,
  OP_TEXT,
  OP_TYPE,
  TEMP_CODES,
  type AxisDecimals,
} from './fcode-format.js';
import { readMetadata, type FCodeMetadata } from './fcode-metadata.js';
import { writeFixed } from './fcode-numbers.js';
import { EPredictor } from './fcode-predict.js';

export interface FCodeHeader {
  version: number;
  flags: number;
  decimals: AxisDecimals;
  meta: FCodeMetadata;
  /** byte offset of the first block */
  blocksAt: number;
}

export interface DecodedFCode extends FCodeHeader {
  gcode: Uint8Array;
  blocks: number;
  lines: number;
}

const utf8 = new TextEncoder();
const bytesOf = (s: string): Uint8Array => utf8.encode(s);
const FEATURE_LINES = FEATURE_NAMES.map((n) => bytesOf(';TYPE:' + n));
const AXIS_LETTERS = [88, 89, 90, 69, 70]; // X Y Z E F
const LAYER = bytesOf(';LAYER:');
const ELAPSED = bytesOf(';TIME_ELAPSED:');
const SET_E = bytesOf('G92 E');
const FAN_OFF = bytesOf('M107');
const FAN = bytesOf('M106 S');
const TEMP_LINES = TEMP_CODES.map((c) => bytesOf(`M${c} S`));
const PROGRESS = bytesOf('M73 P');
const PROGRESS_R = bytesOf(' R');

/** Reads and checks the header and metadata (not the blocks). */
export function readFCodeHeader(bytes: Uint8Array): FCodeHeader {
  if (bytes.length < 4 || FCODE_MAGIC.some((m, i) => bytes[i] !== m)) {
    throw new FCodeError('BAD_MAGIC', 'not an FCode file: it does not start with "CIR\\0"', 0);
  }
  if (bytes.length < HEADER_BYTES) {
    throw new FCodeError('TRUNCATED', `truncated FCode file: ${bytes.length} bytes, the header alone takes ${HEADER_BYTES}`, bytes.length);
  }
  const version = bytes[4]!;
  if (!FCODE_READ_VERSIONS.includes(version)) {
    throw new FCodeError('BAD_VERSION', `FCode version ${version} is not supported (this reader knows versions ${FCODE_READ_VERSIONS.join(' and ')})`, 4);
  }
  const metaLength = readU32(bytes, 12);
  const metaEnd = HEADER_BYTES + metaLength;
  if (metaEnd + 4 > bytes.length) {
    throw new FCodeError('TRUNCATED', `truncated FCode file: the metadata (${metaLength} bytes from byte ${HEADER_BYTES}) and its CRC run past the end (${bytes.length} bytes)`, bytes.length);
  }
  const stored = readU32(bytes, metaEnd);
  if (crc32(bytes, 0, metaEnd) !== stored) {
    throw new FCodeError('BAD_CHECKSUM', `FCode header or metadata damaged: CRC-32 mismatch over bytes 0…${metaEnd - 1}`, 0);
  }
  // checked after the CRC: a damaged byte is reported as damage, not as a strange setting
  const flags = bytes[5]!;
  if (flags & ~(FLAG_NO_FINAL_NEWLINE | FLAG_RELATIVE_E)) throw new FCodeError('BAD_HEADER', `unknown FCode flags 0x${flags.toString(16)}`, 5);
  const d = Array.from(bytes.subarray(6, 11));
  if (d.some((n) => n > MAX_DECIMALS)) throw new FCodeError('BAD_HEADER', `FCode decimals ${d.join(',')} out of range`, 6);
  const decimals: AxisDecimals = { x: d[0]!, y: d[1]!, z: d[2]!, e: d[3]!, f: d[4]! };
  const meta = readMetadata(new ByteReader(bytes, HEADER_BYTES, metaEnd, 'FCode metadata', undefined, 'BAD_METADATA'));
  return { version, flags, decimals, meta, blocksAt: metaEnd + 4 };
}

/** Writes one block's commands as G-code lines, each followed by '\n'. */
function decodeBlock(r: ByteReader, lines: number, dec: number[], relativeE: boolean, out: ByteWriter): void {
  const base = new Float64Array(6); // X Y Z E, F of G0, F of G1
  const predictor = new EPredictor();
  const values = [0, 0, 0, 0, 0];
  const dictionary: Uint8Array[] = [];
  // values past 2^53 cannot come from an encoder (only from damage the CRC missed)
  const safe = (v: number, at: number): number => (Number.isSafeInteger(v) ? v : r.fail(`value ${v} out of range`, at));
  const fixed = (axis: number, delta: number): void => {
    base[axis] = safe(base[axis]! + delta, r.pos);
    writeFixed(out, base[axis]!, dec[axis]!);
  };
  const axis = (a: number): void => {
    out.reserve(34);
    out.bytes[out.length++] = 32;
    out.bytes[out.length++] = AXIS_LETTERS[a]!;
    writeFixed(out, values[a]!, dec[a]!);
  };
  const setBase = (i: number, v: number, at: number): void => {
    base[i] = values[i > 4 ? 4 : i] = safe(v, at);
  };
  const whole = (v: number, decimals = 0): void => writeFixed(out, safe(v, r.pos), decimals);
  for (let k = 0; k < lines; k++) {
    const at = r.pos;
    const op = r.u8();
    out.reserve(64);
    if (op < 0x80) {
      const mask = op & 0x1f;
      const fLast = (op & OP_MOVE_F_LAST) !== 0;
      if (fLast && !(mask & AXIS_F)) r.fail(`move opcode 0x${op.toString(16)} puts F last but has no F`, at);
      out.bytes[out.length++] = 71; // G
      out.bytes[out.length++] = op & OP_MOVE_G1 ? 49 : 48;
      const dx = mask & AXIS_X ? r.signed() : 0;
      const dy = mask & AXIS_Y ? r.signed() : 0;
      if (mask & AXIS_X) setBase(0, base[0]! + dx, at);
      if (mask & AXIS_Y) setBase(1, base[1]! + dy, at);
      if (mask & AXIS_Z) setBase(2, base[2]! + r.signed(), at);
      if (mask & AXIS_E) {
        let step = r.signed();
        if (mask & (AXIS_X | AXIS_Y)) {
          step += predictor.predict(dx, dy);
          predictor.learn(step);
          setBase(3, relativeE ? step : base[3]! + step, at);
        } else setBase(3, base[3]! + step, at);
      }
      if (mask & AXIS_F) {
        const f = op & OP_MOVE_G1 ? 5 : 4;
        setBase(f, base[f]! + r.signed(), at);
      }
      if (mask & AXIS_F && !fLast) axis(4);
      for (let a = 0; a < 4; a++) if (mask & (1 << a)) axis(a);
      if (fLast) axis(4);
    } else {
      switch (op) {
        case OP_TEXT:
        case OP_DEFINE: {
          const n = r.varint();
          if (n > MAX_BLOCK_PAYLOAD) r.fail(`line of ${n} bytes`, at);
          const text = r.take(n);
          if (op === OP_DEFINE) {
            if (dictionary.length >= MAX_DICTIONARY) r.fail(`dictionary holds more than ${MAX_DICTIONARY} lines`, at);
            dictionary.push(text);
          }
          out.raw(text);
          break;
        }
        case OP_REPEAT: {
          const i = r.varint();
          const text = dictionary[i];
          if (!text) r.fail(`dictionary line ${i} is not defined (${dictionary.length} are)`, at);
          out.raw(text);
          break;
        }
        case OP_LAYER:
          out.raw(LAYER);
          whole(r.signed());
          break;
        case OP_TYPE: {
          const i = r.u8();
          const text = FEATURE_LINES[i];
          if (!text) r.fail(`feature type ${i} is unknown`, at);
          out.raw(text);
          break;
        }
        case OP_SET_E:
          out.raw(SET_E);
          fixed(3, r.signed());
          break;
        case OP_FAN:
          out.raw(FAN);
          whole(r.varint());
          break;
        case OP_FAN_OFF:
          out.raw(FAN_OFF);
          break;
        case OP_TEMP: {
          const kind = r.u8();
          const text = TEMP_LINES[kind];
          if (!text) r.fail(`temperature kind ${kind} is unknown`, at);
          out.raw(text);
          whole(r.varint());
          break;
        }
        case OP_PROGRESS:
          out.raw(PROGRESS);
          whole(r.varint());
          out.raw(PROGRESS_R);
          whole(r.varint());
          break;
        case OP_ELAPSED:
          out.raw(ELAPSED);
          whole(r.varint(), 3);
          break;
        default:
          r.fail(`unknown opcode 0x${op.toString(16)}`, at);
      }
    }
    out.u8(10);
  }
  if (r.pos !== r.end) r.fail(`${r.end - r.pos} byte(s) left over after its ${lines} lines`);
}

/** The G-code of an FCode file, and what its header says. */
export function decodeFCode(bytes: Uint8Array): DecodedFCode {
  const header = readFCodeHeader(bytes);
  const dec = [header.decimals.x, header.decimals.y, header.decimals.z, header.decimals.e, header.decimals.f];
  const out = new ByteWriter(Math.max(1 << 16, bytes.length * 5));
  let pos = header.blocksAt;
  let blocks = 0;
  let lines = 0;
  for (;;) {
    if (pos + BLOCK_HEADER_BYTES > bytes.length) {
      throw new FCodeError(
        'TRUNCATED',
        `truncated FCode file: block ${blocks} should start at byte ${pos} but the file ends at ${bytes.length} (no end block)`,
        pos,
        blocks,
      );
    }
    const length = readU32(bytes, pos);
    const count = readU32(bytes, pos + 4);
    const stored = readU32(bytes, pos + 8);
    const start = pos + BLOCK_HEADER_BYTES;
    if (length === 0) {
      if (crc32(bytes, pos, pos + 8) !== stored) {
        throw new FCodeError('BAD_CHECKSUM', `FCode end block at byte ${pos} is damaged: CRC-32 mismatch`, pos, blocks);
      }
      if (count !== lines) {
        throw new FCodeError('BAD_BLOCK', `FCode end block at byte ${pos} counts ${count} lines, the blocks hold ${lines}`, pos, blocks);
      }
      if (start !== bytes.length) {
        throw new FCodeError('TRAILING_DATA', `${bytes.length - start} byte(s) after the FCode end block (at byte ${start})`, start);
      }
      break;
    }
    if (length > MAX_BLOCK_PAYLOAD || count > MAX_BLOCK_LINES || start + length > bytes.length) {
      const what = start + length > bytes.length && length <= MAX_BLOCK_PAYLOAD ? 'TRUNCATED' : 'BAD_BLOCK';
      throw new FCodeError(
        what,
        `FCode block ${blocks} at byte ${pos}: length ${length} and ${count} lines do not fit ` +
          `(${Math.max(0, bytes.length - start)} bytes left in the file${what === 'TRUNCATED' ? '; truncated or damaged' : '; damaged'})`,
        pos,
        blocks,
      );
    }
    const crc = crc32(bytes, start, start + length, crc32(bytes, pos, pos + 8));
    if (crc !== stored) {
      throw new FCodeError(
        'BAD_CHECKSUM',
        `FCode block ${blocks} at byte ${pos} is damaged: CRC-32 0x${crc.toString(16).padStart(8, '0')} ≠ stored 0x${stored.toString(16).padStart(8, '0')}`,
        pos,
        blocks,
      );
    }
    decodeBlock(new ByteReader(bytes, start, start + length, `FCode block ${blocks}`, blocks), count, dec, (header.flags & FLAG_RELATIVE_E) !== 0, out);
    lines += count;
    blocks++;
    pos = start + length;
  }
  if (header.flags & FLAG_NO_FINAL_NEWLINE && out.length > 0) out.length--;
  return { ...header, gcode: out.result(), blocks, lines };
}
