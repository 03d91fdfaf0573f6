// Byte-level helpers for the text formats (ASCII STL, OBJ, 3MF XML): they read the file's bytes
// directly, so files of any size parse without building one giant string (only an ASCII STL of up
// to 8 MiB is read as a string, with regular expressions: stl-ascii.ts).

/** True for ASCII white space: space, \t, \n, \v, \f, \r. */
export function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

/**
 * True when a sample of bytes reads as text: control characters other than white space are rare
 * (a binary STL body is full of zero bytes). Bytes ≥ 128 count as text (UTF-8 names).
 */
export function looksLikeText(bytes: Uint8Array, start = 0, end = bytes.length): boolean {
  let controls = 0;
  for (let i = start; i < end; i++) {
    const c = bytes[i];
    if ((c < 32 && !isSpace(c)) || c === 127) controls++;
  }
  return controls <= (end - start) / 100;
}

/** 1-based line number of a byte position, for error messages. */
export function lineAt(bytes: Uint8Array, pos: number): number {
  let line = 1;
  for (let i = 0; i < pos && i < bytes.length; i++) if (bytes[i] === 10) line++;
  return line;
}

/** The bytes [start, end) as a string for messages: printable ASCII as it is, other bytes as \xNN; cut to `max` bytes. */
export function bytesToString(bytes: Uint8Array, start: number, end: number, max = 40): string {
  const e = Math.min(end, start + max);
  let s = '';
  // a byte outside printable ASCII (a NUL, a control character, half of a UTF-8 sequence) would be
  // invisible or garbled in the message: it is shown as \xNN
  for (let i = start; i < e; i++) {
    const b = bytes[i];
    s += b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`;
  }
  return end - start > max ? s + '…' : s;
}

/** Case-insensitive comparison of bytes [start, end) with a lower-case ASCII word. */
export function tokenIs(bytes: Uint8Array, start: number, end: number, word: string): boolean {
  if (end - start !== word.length) return false;
  for (let i = 0; i < word.length; i++) {
    if ((bytes[start + i] | 0x20) !== word.charCodeAt(i)) return false;
  }
  return true;
}

/**
 * A plain decimal number as text (sign, digits with an optional point, optional exponent): what the
 * readers and settings take as a number. Number() of anything else may still be a number ('',
 * '0x10', 'Infinity'), which none of them wants.
 * Linear in the text's length: `\d+\.?\d*` let the digits before and after an absent point split a
 * run of digits every way, and a 100,000-digit token followed by a letter took 11 s to refuse.
 */
export const DECIMAL_TEXT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;

const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];

/**
 * Parses a decimal number from bytes [start, end); NaN when the token is not a number.
 * The common short forms (≤ 15 digits, small exponent) are computed exactly the way Number() would
 * round them (one exact integer divided or multiplied by an exact power of ten); everything else
 * falls back to Number() on the text.
 */
export function parseNumber(bytes: Uint8Array, start: number, end: number): number {
  let i = start;
  let neg = false;
  if (i < end && (bytes[i] === 45 || bytes[i] === 43)) {
    neg = bytes[i] === 45;
    i++;
  }
  let mant = 0;
  let digits = 0;
  let frac = 0;
  let any = false;
  while (i < end && bytes[i] >= 48 && bytes[i] <= 57) {
    if (mant !== 0 || bytes[i] !== 48) digits++;
    mant = mant * 10 + (bytes[i] - 48);
    any = true;
    i++;
  }
  if (i < end && bytes[i] === 46) {
    i++;
    while (i < end && bytes[i] >= 48 && bytes[i] <= 57) {
      if (mant !== 0 || bytes[i] !== 48) digits++;
      mant = mant * 10 + (bytes[i] - 48);
      frac++;
      any = true;
      i++;
    }
  }
  if (!any) return slowNumber(bytes, start, end);
  let exp = 0;
  if (i < end && (bytes[i] | 0x20) === 101) {
    i++;
    let eneg = false;
    if (i < end && (bytes[i] === 45 || bytes[i] === 43)) {
      eneg = bytes[i] === 45;
      i++;
    }
    let ed = 0;
    while (i < end && bytes[i] >= 48 && bytes[i] <= 57 && ed < 6) {
      exp = exp * 10 + (bytes[i] - 48);
      ed++;
      i++;
    }
    if (ed === 0) return NaN;
    if (eneg) exp = -exp;
  }
  if (i !== end || digits > 15) return slowNumber(bytes, start, end);
  const e = exp - frac;
  let v: number;
  if (e === 0) v = mant;
  else if (e < 0 && e >= -22) v = mant / POW10[-e];
  else if (e > 0 && e <= 22) v = mant * POW10[e];
  else return slowNumber(bytes, start, end);
  return neg ? -v : v;
}

const LATIN1 = new TextDecoder('latin1');

/**
 * Number() of the token's text, if it is a plain decimal (or an infinity or NaN word, which the
 * callers refuse by name). Any length, as the ASCII STL string path reads it: a coordinate written
 * with 66 zeros is still 1.
 */
function slowNumber(bytes: Uint8Array, start: number, end: number): number {
  // a short token character by character (cheaper than a decoder call), a long one in one go (a byte
  // outside printable ASCII, which bytesToString spells \xNN, fails DECIMAL_TEXT either way)
  const s = end - start <= 64 ? bytesToString(bytes, start, end, 64) : LATIN1.decode(bytes.subarray(start, end));
  // Number('') is 0 and Number('0x10') is 16: neither is a coordinate
  if (!DECIMAL_TEXT.test(s) && !/^[+-]?(infinity|inf|nan)$/i.test(s)) return NaN;
  const low = s.toLowerCase();
  if (low.endsWith('inf') || low.endsWith('infinity')) return low.startsWith('-') ? -Infinity : Infinity;
  return Number(s);
}
