// Number formatting for G-code text, without toFixed (slow, and it keeps trailing zeros).
// Coordinates are integer micrometres inside the engine, so millimetres with 3 decimals are exact.
// NaN and ±Infinity are never formatted: they throw (finite.ts).
import { finite } from './finite.js';

/** ".001" … ".999" with trailing zeros trimmed; "" for 0. */
const FRACTION_3: string[] = Array.from({ length: 1000 }, (_, f) => {
  if (f === 0) return '';
  let s = String(f).padStart(3, '0');
  while (s.endsWith('0')) s = s.slice(0, -1);
  return '.' + s;
});

/** Micrometres as millimetres: 3 decimals at most, trailing zeros trimmed (12500 → "12.5"). */
export function micronsToMm(um: number): string {
  let v = Math.round(finite(um, 'a coordinate'));
  if (v === 0) return '0';
  let sign = '';
  if (v < 0) {
    sign = '-';
    v = -v;
  }
  const whole = Math.floor(v / 1000);
  return sign + whole + FRACTION_3[v - whole * 1000];
}

/** A millimetre value with 3 decimals at most, trailing zeros trimmed. */
export function mm3(v: number): string {
  return micronsToMm(Math.round(v * 1000));
}

/** "000" … "999": three digits, zero-padded. */
const DIGITS_3: string[] = Array.from({ length: 1000 }, (_, f) => String(f).padStart(3, '0'));
/** "" for 0, else two digits zero-padded with trailing zeros trimmed: 5 → "05", 50 → "5". */
const DIGITS_2_TRIMMED: string[] = Array.from({ length: 100 }, (_, f) => {
  if (f === 0) return '';
  const s = String(f).padStart(2, '0');
  return s.endsWith('0') ? s[0]! : s;
});

/**
 * A value with 5 decimals at most, trailing zeros trimmed (E values). The fraction is split into
 * its first three and last two digits and looked up, since this runs once per extrusion line.
 */
export function dec5(v: number): string {
  let n = Math.round(finite(v, 'an extruder position') * 100000);
  if (n === 0) return '0';
  let sign = '';
  if (n < 0) {
    sign = '-';
    n = -n;
  }
  const whole = Math.floor(n / 100000);
  const frac = n - whole * 100000;
  if (frac === 0) return sign + whole;
  const hi = Math.floor(frac / 100);
  const lo = frac - hi * 100;
  return lo === 0 ? sign + whole + FRACTION_3[hi] : sign + whole + '.' + DIGITS_3[hi] + DIGITS_2_TRIMMED[lo];
}

/** Seconds as PrusaSlicer writes durations: "1d 2h 3m 4s", leading zero units left out ("5m 0s"). */
export function durationDhms(seconds: number): string {
  let s = Math.max(0, Math.round(finite(seconds, 'a duration')));
  const d = Math.floor(s / 86400);
  s -= d * 86400;
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  s -= m * 60;
  if (d > 0) return `${d}d ${h}h ${m}m ${s}s`;
  if (h > 0) return `${h}h ${m}m ${s}s`;
  if (m > 0) return `${m}m ${s}s`;
  return `${s}s`;
}
