// Byte buffers of the FCode codec: a growing writer and a bounds-checked reader, little-endian
// integers and LEB128 varints (zigzag for signed values). Values up to 2^53 are exact, so no bit
// operations are used above 31 bits.
import { FCodeError } from './fcode-format.js';

/** Zigzag: 0, -1, 1, -2, 2 … → 0, 1, 2, 3, 4 …, so small negative numbers stay short. */
export function zigzag(n: number): number {
  return n >= 0 ? n * 2 : -n * 2 - 1;
}

export function unzigzag(u: number): number {
  return u % 2 === 0 ? u / 2 : -(u + 1) / 2;
}

export class ByteWriter {
  bytes: Uint8Array;
  length = 0;

  constructor(capacity = 1 << 16) {
    this.bytes = new Uint8Array(capacity);
  }

  /** Room for n more bytes. */
  reserve(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    let cap = this.bytes.length * 2;
    while (cap < this.length + n) cap *= 2;
    const grown = new Uint8Array(cap);
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  u8(v: number): void {
    this.reserve(1);
    this.bytes[this.length++] = v;
  }

  u32(v: number): void {
    this.reserve(4);
    const b = this.bytes;
    b[this.length++] = v & 0xff;
    b[this.length++] = (v >>> 8) & 0xff;
    b[this.length++] = (v >>> 16) & 0xff;
    b[this.length++] = (v >>> 24) & 0xff;
  }

  /** Unsigned LEB128: 7 bits a byte, low bits first, high bit set on every byte but the last. */
  varint(v: number): void {
    this.reserve(8);
    const b = this.bytes;
    while (v >= 0x80) {
      b[this.length++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    b[this.length++] = v;
  }

  signed(v: number): void {
    this.varint(zigzag(v));
  }

  raw(src: Uint8Array, start = 0, end = src.length): void {
    this.reserve(end - start);
    this.bytes.set(src.subarray(start, end), this.length);
    this.length += end - start;
  }

  result(): Uint8Array {
    return this.bytes.slice(0, this.length);
  }
}

/** Reads [pos, end) of a buffer; any read past `end` is an FCodeError naming `what`. */
export class ByteReader {
  constructor(
    readonly bytes: Uint8Array,
    public pos: number,
    readonly end: number,
    /** where a problem is: "block 3" or "metadata" */
    readonly what: string,
    readonly block?: number,
    readonly code: 'BAD_BLOCK' | 'BAD_METADATA' = 'BAD_BLOCK',
  ) {}

  fail(message: string, at = this.pos): never {
    throw new FCodeError(this.code, `${this.what} at byte ${at}: ${message}`, at, this.block);
  }

  need(n: number): void {
    if (this.pos + n > this.end) this.fail(`${n} byte(s) needed, ${this.end - this.pos} left`);
  }

  u8(): number {
    this.need(1);
    return this.bytes[this.pos++]!;
  }

  varint(): number {
    let v = 0;
    let scale = 1;
    const start = this.pos;
    for (let i = 0; i < 8; i++) {
      if (this.pos >= this.end) this.fail('varint runs past the end', start);
      const b = this.bytes[this.pos++]!;
      v += (b & 0x7f) * scale;
      if (b < 0x80) return v;
      scale *= 0x80;
    }
    return this.fail('varint longer than 8 bytes', start);
  }

  signed(): number {
    return unzigzag(this.varint());
  }

  /** n bytes as a view (no copy). */
  take(n: number): Uint8Array {
    this.need(n);
    const v = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return v;
  }
}

export function readU32(b: Uint8Array, at: number): number {
  return (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
}
