// E prediction for FCode moves (docs/fcode.md, "Extrusion prediction"): an extruding move pushes
// about as much filament per millimetre as the extruding move before it, so only the difference
// from that guess is stored; it is a byte or two shorter on most lines. Integer arithmetic only
// (every intermediate value stays below 2^51), so every reader computes the very same guess.

/** Moves with an X or Y step of 2^24 or more (16.7 m at µm), and such E steps, are not predicted. */
const LIMIT = 2 ** 24;

/** ⌊√n⌋ for an integer 0 ≤ n < 2^53. */
export function isqrt(n: number): number {
  let r = Math.floor(Math.sqrt(n));
  while (r * r > n) r--;
  while ((r + 1) * (r + 1) <= n) r++;
  return r;
}

/** ⌊a / b⌋ for integers 0 ≤ a < 2^53, 0 < b. */
function floorDiv(a: number, b: number): number {
  let q = Math.floor(a / b);
  while (q * b > a) q--;
  while ((q + 1) * b <= a) q++;
  return q;
}

export class EPredictor {
  /** E step and XY length of the last predicting move; length 0 = none yet */
  private stepE = 0;
  private stepLen = 0;
  private len = 0;

  reset(): void {
    this.stepE = 0;
    this.stepLen = 0;
    this.len = 0;
  }

  /** The guessed E step of an extruding move by (dx, dy), fixed-point units. */
  predict(dx: number, dy: number): number {
    if (Math.abs(dx) >= LIMIT || Math.abs(dy) >= LIMIT) {
      this.len = 0;
      return 0;
    }
    this.len = isqrt(dx * dx + dy * dy);
    if (this.stepLen === 0) return 0;
    const q = floorDiv(Math.abs(this.stepE) * this.len * 2 + this.stepLen, 2 * this.stepLen);
    return this.stepE < 0 ? -q : q;
  }

  /** The move just predicted had this E step: the next guess follows its ratio. */
  learn(stepE: number): void {
    if (this.len > 0 && Math.abs(stepE) < LIMIT) {
      this.stepE = stepE;
      this.stepLen = this.len;
    }
  }
}
