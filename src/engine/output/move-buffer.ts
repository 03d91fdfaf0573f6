// A growable list of machine moves in millimetres, stored column-wise in typed arrays: a big print is
// around a million moves, and a million small objects would cost far more memory and time.

/** One move as a plain object (convenient for tests); the simulation reads a MoveBuffer. */
export interface MoveInput {
  dx: number;
  dy: number;
  dz?: number;
  /** filament delta, mm (negative = retract) */
  de?: number;
  /** requested feedrate, mm/s */
  feed: number;
}

export class MoveBuffer {
  length = 0;
  dx: Float64Array;
  dy: Float64Array;
  dz: Float64Array;
  de: Float64Array;
  feed: Float64Array;

  constructor(capacity = 1024) {
    const n = Math.max(16, capacity);
    this.dx = new Float64Array(n);
    this.dy = new Float64Array(n);
    this.dz = new Float64Array(n);
    this.de = new Float64Array(n);
    this.feed = new Float64Array(n);
  }

  static from(moves: readonly MoveInput[]): MoveBuffer {
    const b = new MoveBuffer(moves.length);
    for (const m of moves) b.push(m.dx, m.dy, m.dz ?? 0, m.de ?? 0, m.feed);
    return b;
  }

  /** Appends a move; feed in mm/s. Moves that go nowhere are kept (they take no time). */
  push(dx: number, dy: number, dz: number, de: number, feed: number): void {
    if (this.length === this.dx.length) this.grow();
    const i = this.length++;
    this.dx[i] = dx;
    this.dy[i] = dy;
    this.dz[i] = dz;
    this.de[i] = de;
    this.feed[i] = feed;
  }

  private grow(): void {
    const n = this.dx.length * 2;
    const widen = (a: Float64Array): Float64Array => {
      const b = new Float64Array(n);
      b.set(a);
      return b;
    };
    this.dx = widen(this.dx);
    this.dy = widen(this.dy);
    this.dz = widen(this.dz);
    this.de = widen(this.de);
    this.feed = widen(this.feed);
  }
}
