// One G-code line → one FCode command (docs/fcode.md, "Commands"): moves, layer and feature
// markers, fan, temperatures and progress get compact opcodes when their text is in the one
// spelling the decoder writes back; every other line is kept as its bytes, short ones through the
// block's dictionary.
import type { ByteWriter } from './fcode-bytes.js';
import {
  AXIS_E,
  AXIS_F,
  AXIS_X,
  AXIS_Y,
  AXIS_Z,
  FEATURE_NAMES,
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
import { parseFixed } from './fcode-numbers.js';
import { EPredictor } from './fcode-predict.js';

/** Lines the dictionary may hold: short ones that repeat (";MESH:…", "G92 E0", "M84"). */
const MAX_DEFINE_LENGTH = 64;
const ascii = (s: string): number[] => Array.from(s, (c) => c.charCodeAt(0));
const LAYER = ascii(';LAYER:');
const TYPE = ascii(';TYPE:');
const ELAPSED = ascii(';TIME_ELAPSED:');
const FEATURE_KEYS = new Map<string, number>(FEATURE_NAMES.map((n, i) => [n, i]));
/** axis bit by upper-case letter code */
const AXIS_OF: Record<number, number> = { 88: AXIS_X, 89: AXIS_Y, 90: AXIS_Z, 69: AXIS_E, 70: AXIS_F };
const G = 71, M = 77, S = 83, P = 80, R = 82, SPACE = 32, SEMI = 59;

function startsWith(b: Uint8Array, s: number, e: number, prefix: number[]): boolean {
  if (e - s < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (b[s + i] !== prefix[i]) return false;
  return true;
}

/** The bytes of [s, e) as a string of char codes 0–255 (a dictionary key). */
function keyOf(b: Uint8Array, s: number, e: number): string {
  return String.fromCharCode.apply(null, b.subarray(s, e) as unknown as number[]);
}

/** The state a block's commands are coded against; it starts afresh with every block. */
export class BlockState {
  /** previous X Y Z E, F of G0, F of G1; fixed-point */
  readonly base = new Float64Array(6);
  readonly dictionary = new Map<string, number>();
  readonly predictor = new EPredictor();
  constructor(readonly relativeE: boolean) {}
  reset(): void {
    this.base.fill(0);
    this.dictionary.clear();
    this.predictor.reset();
  }
}

/** Writes G-code lines as commands into a block's payload; each method below returns false when its line is not in the form its opcode stands for. */
export class LineCoder {
  private readonly vals = new Float64Array(5);
  private readonly dec: number[];

  constructor(
    private readonly w: ByteWriter,
    private readonly st: BlockState,
    decimals: AxisDecimals,
  ) {
    this.dec = [decimals.x, decimals.y, decimals.z, decimals.e, decimals.f];
  }

  line(b: Uint8Array, s: number, e: number): void {
    const c = e > s ? b[s] : -1;
    if (c === G && this.move(b, s, e)) return;
    if (c === G && this.setE(b, s, e)) return;
    if (c === M && this.mcode(b, s, e)) return;
    if (c === SEMI && this.comment(b, s, e)) return;
    this.text(b, s, e);
  }

  /** "G0"/"G1" then " L<number>" for letters X Y Z E in order, F first or last. */
  private move(b: Uint8Array, s: number, e: number): boolean {
    if (e - s < 2 || (b[s + 1] !== 48 && b[s + 1] !== 49) || (e - s > 2 && b[s + 2] !== SPACE)) return false;
    let mask = 0;
    let fLast = false;
    let i = s + 2;
    while (i < e) {
      if (b[i] !== SPACE || i + 1 >= e) return false;
      const bit = AXIS_OF[b[i + 1]!];
      if (bit === undefined) return false;
      if (mask & bit) return false; // repeated
      if (bit === AXIS_F) {
        if (mask !== 0) fLast = true;
      } else if (fLast || bit <= (mask & ~AXIS_F)) {
        return false; // after a last F, or out of X Y Z E order
      }
      let j = i + 2;
      while (j < e && b[j] !== SPACE) j++;
      const axis = 31 - Math.clz32(bit);
      const v = parseFixed(b, i + 2, j, this.dec[axis]!);
      if (Number.isNaN(v)) return false;
      this.vals[axis] = v;
      mask |= bit;
      i = j;
    }
    const w = this.w;
    const g1 = b[s + 1] === 49;
    w.u8((g1 ? OP_MOVE_G1 : 0) | (fLast ? OP_MOVE_F_LAST : 0) | mask);
    const { base, predictor } = this.st;
    const v = this.vals;
    // what is stored for each axis: its step from the previous value
    let eStored = v[3]! - base[3]!;
    if (mask & AXIS_E && mask & (AXIS_X | AXIS_Y)) {
      const dx = mask & AXIS_X ? v[0]! - base[0]! : 0;
      const dy = mask & AXIS_Y ? v[1]! - base[1]! : 0;
      const guess = predictor.predict(dx, dy);
      const step = this.st.relativeE ? v[3]! : eStored;
      predictor.learn(step);
      eStored = step - guess;
    }
    for (let a = 0; a < 4; a++) {
      if (!(mask & (1 << a))) continue;
      w.signed(a === 3 ? eStored : v[a]! - base[a]!);
      base[a] = v[a]!;
    }
    if (mask & AXIS_F) {
      const f = g1 ? 5 : 4;
      w.signed(v[4]! - base[f]!);
      base[f] = v[4]!;
    }
    return true;
  }

  /** "G92 E<number>": E's base follows, so the next moves' E deltas stay small. */
  private setE(b: Uint8Array, s: number, e: number): boolean {
    if (e - s < 6 || b[s + 1] !== 57 || b[s + 2] !== 50 || b[s + 3] !== SPACE || b[s + 4] !== 69) return false;
    const v = parseFixed(b, s + 5, e, this.dec[3]!);
    if (Number.isNaN(v)) return false;
    this.w.u8(OP_SET_E);
    this.w.signed(v - this.st.base[3]!);
    this.st.base[3] = v;
    return true;
  }

  /** "M107", "M106 S<s>", "M104/M109/M140/M190 S<s>" and "M73 P<p> R<r>", whole numbers only. */
  private mcode(b: Uint8Array, s: number, e: number): boolean {
    let j = s + 1;
    while (j < e && b[j] !== SPACE) j++;
    const code = parseFixed(b, s + 1, j, 0);
    if (code === 107) {
      if (j !== e) return false;
      this.w.u8(OP_FAN_OFF);
      return true;
    }
    if (code === 106 || (TEMP_CODES as readonly number[]).includes(code)) {
      if (e - j < 3 || b[j + 1] !== S) return false;
      const v = parseFixed(b, j + 2, e, 0);
      if (!(v >= 0)) return false;
      if (code === 106) this.w.u8(OP_FAN);
      else {
        this.w.u8(OP_TEMP);
        this.w.u8((TEMP_CODES as readonly number[]).indexOf(code));
      }
      this.w.varint(v);
      return true;
    }
    if (code === 73) {
      // "M73 P<p> R<r>"
      if (e - j < 6 || b[j + 1] !== P) return false;
      let k = j + 2;
      while (k < e && b[k] !== SPACE) k++;
      if (e - k < 3 || b[k + 1] !== R) return false;
      const p = parseFixed(b, j + 2, k, 0);
      const r = parseFixed(b, k + 2, e, 0);
      if (!(p >= 0) || !(r >= 0)) return false;
      this.w.u8(OP_PROGRESS);
      this.w.varint(p);
      this.w.varint(r);
      return true;
    }
    return false;
  }

  private comment(b: Uint8Array, s: number, e: number): boolean {
    if (startsWith(b, s, e, LAYER)) {
      const n = parseFixed(b, s + LAYER.length, e, 0);
      if (Number.isNaN(n)) return false;
      this.w.u8(OP_LAYER);
      this.w.signed(n);
      return true;
    }
    if (startsWith(b, s, e, TYPE) && e - s <= TYPE.length + 32) {
      const i = FEATURE_KEYS.get(keyOf(b, s + TYPE.length, e));
      if (i === undefined) return false;
      this.w.u8(OP_TYPE);
      this.w.u8(i);
      return true;
    }
    if (startsWith(b, s, e, ELAPSED)) {
      const ms = parseFixed(b, s + ELAPSED.length, e, 3);
      if (!(ms >= 0)) return false;
      this.w.u8(OP_ELAPSED);
      this.w.varint(ms);
      return true;
    }
    return false;
  }

  /** Any other line, as its bytes; short ones through the block's dictionary. */
  private text(b: Uint8Array, s: number, e: number): void {
    const w = this.w;
    const dict = this.st.dictionary;
    if (e - s <= MAX_DEFINE_LENGTH) {
      const key = keyOf(b, s, e);
      const i = dict.get(key);
      if (i !== undefined) {
        w.u8(OP_REPEAT);
        w.varint(i);
        return;
      }
      if (dict.size < MAX_DICTIONARY) {
        dict.set(key, dict.size);
        w.u8(OP_DEFINE);
        w.varint(e - s);
        w.raw(b, s, e);
        return;
      }
    }
    w.u8(OP_TEXT);
    w.varint(e - s);
    w.raw(b, s, e);
  }
}
