// A model's size for a message: "20.0 × 20.0 × 0.0 mm" with one decimal, but never "0.0" for a size
// that is not 0 (a 0.05 mm sheet is "0.05"), and in micrometres when the model is under a
// millimetre every way ("20 × 20 × 20 µm": a 20 µm cube was once called "0.0 × 0.0 × 0.0 mm").

/** One decimal, or two significant digits below 1 (never rounded to "0.0" unless it is 0). */
function digits(v: number): string {
  if (v === 0 || v >= 1) return v.toFixed(1);
  return String(Number(v.toPrecision(2)));
}

/** Whole micrometres, or two significant digits under 10 µm. */
function micrometres(u: number): string {
  return u >= 10 ? String(Math.round(u)) : String(Number(u.toPrecision(2)));
}

/** The size `x × y × z` (mm) as a message shows it. */
export function sizeText(x: number, y: number, z: number): string {
  if (Math.max(x, y, z) < 1) return `${[x, y, z].map((v) => micrometres(v * 1000)).join(' × ')} µm`;
  return `${digits(x)} × ${digits(y)} × ${digits(z)} mm`;
}
