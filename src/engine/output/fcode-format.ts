// FCode, Stratum's binary printer file (docs/fcode.md): the constants both the encoder and the
// decoder follow, and the one error type every malformed file is reported with.

/** "CIR\0": the first four bytes of every FCode file. */
export const FCODE_MAGIC = [0x43, 0x49, 0x52, 0x00] as const;
/**
 * The version written: 2, the version byte of the only public FCode samples (`CIR\0\x02`), so a
 * client that tells FCode by its first five bytes takes ours. Version 1 files (written before
 * December 2026) have the very same layout and are read as well.
 */
export const FCODE_VERSION = 2;
export const FCODE_READ_VERSIONS: readonly number[] = [1, 2];

/** Header: magic (4), version (1), flags (1), decimals X Y Z E F (5), reserved (1), metadata length (4). */
export const HEADER_BYTES = 16;
/** flags bit 0: the G-code's last line has no '\n' after it. */
export const FLAG_NO_FINAL_NEWLINE = 1;
/**
 * flags bit 1: E values are amounts per move (M83), so extrusion prediction guesses the value
 * itself, not its step from the previous E. Only the file's size depends on it. Other bits are 0.
 */
export const FLAG_RELATIVE_E = 2;

/** Decimals a number of each move axis is stored with (fixed-point): µm for XYZ, 10 nm for E. */
export const DEFAULT_DECIMALS = { x: 3, y: 3, z: 3, e: 5, f: 0 } as const;
export type AxisDecimals = { x: number; y: number; z: number; e: number; f: number };
/** More decimals than this and 15 significant digits would not fit a double exactly. */
export const MAX_DECIMALS = 6;

/** Block header: payload length (4), line count (4), CRC-32 (4). */
export const BLOCK_HEADER_BYTES = 12;
/** A block whose payload length is 0 ends the stream; its line count is the file's total. */
export const END_BLOCK_LENGTH = 0;
/** Limits a reader may rely on when it sizes its buffers. */
export const MAX_BLOCK_PAYLOAD = 1 << 20;
export const MAX_BLOCK_LINES = 65536;
export const MAX_DICTIONARY = 1024;
/** Where the encoder closes a block (well inside the limits above). */
export const TARGET_BLOCK_LINES = 4096;
export const TARGET_BLOCK_PAYLOAD = 64 * 1024;

/**
 * Opcodes. 0x00–0x7F are moves: bit 6 = G1 (else G0), bit 5 = F written last (else first), bits 0–4
 * say which of X Y Z E F are present (1, 2, 4, 8, 16); each present value follows, in the order
 * X Y Z E F, as a zigzag varint delta from that axis' previous value (F: the previous F of the same
 * G0 or G1; E of a move with X or Y: the difference from the predicted step, see fcode-predict.ts).
 * Bit 5 may only be set when F is present.
 */
export const OP_MOVE_G1 = 0x40;
export const OP_MOVE_F_LAST = 0x20;
export const AXIS_X = 1;
export const AXIS_Y = 2;
export const AXIS_Z = 4;
export const AXIS_E = 8;
export const AXIS_F = 16;

export const OP_TEXT = 0x80; // varint n, n bytes: the line as it is
export const OP_DEFINE = 0x81; // varint n, n bytes: the line, also appended to the block's dictionary
export const OP_REPEAT = 0x82; // varint i: the dictionary's line i
export const OP_LAYER = 0x83; // zigzag n: ";LAYER:n"
export const OP_TYPE = 0x84; // u8 i: ";TYPE:" + FEATURE_NAMES[i]
export const OP_SET_E = 0x85; // zigzag delta of E: "G92 E…"
export const OP_FAN = 0x86; // varint s: "M106 S…"
export const OP_FAN_OFF = 0x87; // "M107"
export const OP_TEMP = 0x88; // u8 kind (TEMP_CODES index), varint s: "M104 S…" and its kin
export const OP_PROGRESS = 0x89; // varint p, varint r: "M73 P… R…"
export const OP_ELAPSED = 0x8a; // varint ms: ";TIME_ELAPSED:…" (seconds, 3 decimals at most)

/** The M-codes OP_TEMP stands for, by its kind byte. */
export const TEMP_CODES = [104, 109, 140, 190] as const;

/** Feature names OP_TYPE stands for (the engine's FeatureType values plus the peers' common ones). */
export const FEATURE_NAMES = [
  'WALL-OUTER',
  'WALL-INNER',
  'SKIN',
  'FILL',
  'SUPPORT',
  'SUPPORT-INTERFACE',
  'SKIRT',
  'BRIM',
  'RAFT',
  'SUPPORT-INFILL',
  'PRIME-TOWER',
] as const;

/** Metadata entries: tag (u8), length (u16), value. Readers skip tags they do not know. */
export const META_PRINT_TIME_S = 1; // f64
export const META_FILAMENT_MM = 2; // f64
export const META_FILAMENT_MM3 = 3; // f64
export const META_FILAMENT_G = 4; // f64
export const META_BOUNDS = 5; // 6 × f64: min x y z, max x y z (mm)
export const META_LAYER_COUNT = 6; // u32
export const META_GENERATOR = 7; // UTF-8
export const META_FLAVOR = 8; // UTF-8
export const META_MACHINE = 9; // UTF-8

export type FCodeErrorCode =
  | 'BAD_MAGIC'
  | 'BAD_VERSION'
  | 'BAD_HEADER'
  | 'TRUNCATED'
  | 'BAD_CHECKSUM'
  | 'BAD_METADATA'
  | 'BAD_BLOCK'
  | 'TRAILING_DATA'
  | 'LINE_TOO_LONG';

/** Any FCode file that cannot be read (or G-code that cannot be written as FCode). */
export class FCodeError extends Error {
  constructor(
    readonly code: FCodeErrorCode,
    message: string,
    /** byte offset in the file where the problem was found, when there is one */
    readonly offset?: number,
    /** index of the block (0-based), when the problem is inside one */
    readonly block?: number,
  ) {
    super(message);
    this.name = 'FCodeError';
  }
}
