// Byte storage for the G-code file, so that a big print's text is never held as one giant string:
// layer bodies go into UTF-8 chunks as they are written, and the file is assembled once, into one
// exactly sized Uint8Array, from small parts and views of those chunks.
const encoder = new TextEncoder();
/** Chunk size for layer text: large enough for most layers, small enough that a tail left unused
 * when a layer does not fit costs little. */
const CHUNK_BYTES = 1 << 20;

/** Text pieces stored as UTF-8 in large chunks; a piece never spans two chunks. */
export class ByteChunks {
  private readonly chunks: Uint8Array[] = [];
  private used = 0;
  /** per piece: chunk, start, end */
  private readonly where: number[] = [];

  /** Stores `s` and returns its piece number. */
  append(s: string): number {
    let chunk = this.chunks[this.chunks.length - 1];
    let r = chunk ? encoder.encodeInto(s, chunk.subarray(this.used)) : undefined;
    if (!chunk || r!.read < s.length) {
      // does not fit in what is left: start a chunk (UTF-8 takes at most 3 bytes per UTF-16 unit)
      chunk = new Uint8Array(Math.max(CHUNK_BYTES, s.length * 3));
      this.chunks.push(chunk);
      this.used = 0;
      r = encoder.encodeInto(s, chunk);
    }
    this.where.push(this.chunks.length - 1, this.used, this.used + r!.written);
    this.used += r!.written;
    return this.where.length / 3 - 1;
  }

  /** A view of piece `i`'s bytes. */
  piece(i: number): Uint8Array {
    const w = this.where;
    return this.chunks[w[i * 3]!]!.subarray(w[i * 3 + 1]!, w[i * 3 + 2]!);
  }
}

/** Parts of a file joined with '\n', like `string[].join('\n')` but into bytes. */
export class ByteParts {
  private readonly parts: Uint8Array[] = [];

  push(...items: Array<string | Uint8Array>): void {
    for (const s of items) this.parts.push(typeof s === 'string' ? encoder.encode(s) : s);
  }

  join(): Uint8Array {
    let total = Math.max(0, this.parts.length - 1);
    for (const p of this.parts) total += p.length;
    const out = new Uint8Array(total);
    let k = 0;
    this.parts.forEach((p, i) => {
      if (i > 0) out[k++] = 10; // '\n'
      out.set(p, k);
      k += p.length;
    });
    return out;
  }
}
