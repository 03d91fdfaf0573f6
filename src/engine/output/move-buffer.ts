// A growable list of machine moves in millimetres, stored column-wise in typed arrays: a big print is
// around a million moves, and a million small objects would cost far more memory and time.
import { MAX_FILE_BYTES } from './byte-chunks.js';

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
  /** the five columns side by side in one block, so that its memory can be taken over whole */
  private block: ArrayBuffer;

  constructor(capacity = 1024) {
    const n = Math.max(16, capacity);
    this.block = new ArrayBuffer(5 * 8 * n);
    [this.dx, this.dy, this.dz, this.de, this.feed] = columns(this.block, n);
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

  /**
   * The block's memory as bytes, for a caller done with the moves (the G-code writer writes the
   * file's text there once the moves are simulated, instead of allocating as much again while the
   * moves are still waiting to be collected). The buffer is left empty.
   */
  takeMemory(maxBytes = MAX_FILE_BYTES): Uint8Array {
    // at most what one Uint8Array holds (a view of a block of 100 million moves and more, 4 GB and
    // up, threw "Invalid typed array length" after minutes of slicing)
    const bytes = new Uint8Array(this.block, 0, Math.min(this.block.byteLength, maxBytes));
    this.block = new ArrayBuffer(5 * 8 * 16);
    [this.dx, this.dy, this.dz, this.de, this.feed] = columns(this.block, 16);
    this.length = 0;
    return bytes;
  }

  private grow(): void {
    const n = this.dx.length * 2;
    const block = new ArrayBuffer(5 * 8 * n);
    const cols = columns(block, n);
    cols[0].set(this.dx);
    cols[1].set(this.dy);
    cols[2].set(this.dz);
    cols[3].set(this.de);
    cols[4].set(this.feed);
    this.block = block;
    [this.dx, this.dy, this.dz, this.de, this.feed] = cols;
  }
}

function columns(block: ArrayBuffer, n: number): [Float64Array, Float64Array, Float64Array, Float64Array, Float64Array] {
  return [0, 1, 2, 3, 4].map((k) => new Float64Array(block, 8 * n * k, n)) as [
    Float64Array,
    Float64Array,
    Float64Array,
    Float64Array,
    Float64Array,
  ];
}
