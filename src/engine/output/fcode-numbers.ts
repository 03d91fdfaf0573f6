// Decimal numbers of G-code text as fixed-point integers, read and written straight from and to
// bytes. Only the one canonical spelling of a value is accepted (no '+', no leading zeros, no
// trailing fraction zeros, no "-0", at most `decimals` decimals), so writing the integer back gives
// the very same bytes; a line with any other spelling is kept as text instead.
import type { ByteWriter } from './fcode-bytes.js';

const ZERO = 48;
const NINE = 57;
const MINUS = 45;
const DOT = 46;

export const POW10 = [1, 10, 100, 1000, 10000, 100000, 1000000, 10000000];

/** The value of bytes[start, end) × 10^decimals, or NaN when the text is not canonical. */
export function parseFixed(b: Uint8Array, start: number, end: number, decimals: number): number {
  let i = start;
  let negative = false;
  if (i < end && b[i] === MINUS) {
    negative = true;
    i++;
  }
  const intStart = i;
  let v = 0;
  while (i < end && b[i]! >= ZERO && b[i]! <= NINE) v = v * 10 + (b[i++]! - ZERO);
  const intDigits = i - intStart;
  if (intDigits === 0 || (intDigits > 1 && b[intStart] === ZERO)) return NaN;
  let fracDigits = 0;
  if (i < end && b[i] === DOT) {
    i++;
    while (i < end && b[i]! >= ZERO && b[i]! <= NINE) {
      v = v * 10 + (b[i++]! - ZERO);
      fracDigits++;
    }
    if (fracDigits === 0 || fracDigits > decimals || b[i - 1] === ZERO) return NaN;
  }
  // 15 digits at the stored scale keep every value (and the difference of two) exact in a double
  if (i !== end || intDigits + decimals > 15) return NaN;
  v *= POW10[decimals - fracDigits]!;
  if (negative) {
    if (v === 0) return NaN;
    v = -v;
  }
  return v;
}

/** A non-negative integer's digits, written from the last one back (no temporary objects). */
function writeDigits(w: ByteWriter, v: number): void {
  let n = 1;
  for (let t = v; t >= 10; t = Math.floor(t / 10)) n++;
  const b = w.bytes;
  let i = w.length + n;
  w.length = i;
  do {
    const q = Math.floor(v / 10);
    b[--i] = ZERO + (v - q * 10);
    v = q;
  } while (v > 0);
}

/** Writes value / 10^decimals in the canonical spelling parseFixed accepts. */
export function writeFixed(w: ByteWriter, value: number, decimals: number): void {
  w.reserve(32);
  if (value < 0) {
    w.bytes[w.length++] = MINUS;
    value = -value;
  }
  const scale = POW10[decimals]!;
  const whole = Math.floor(value / scale);
  let frac = value - whole * scale;
  writeDigits(w, whole);
  if (frac === 0) return;
  let digits = decimals;
  while (frac % 10 === 0) {
    frac /= 10;
    digits--;
  }
  w.bytes[w.length++] = DOT;
  // leading zeros of the fraction, then its digits
  for (let d = POW10[digits - 1]!; d > frac; d /= 10) w.bytes[w.length++] = ZERO;
  writeDigits(w, frac);
}
