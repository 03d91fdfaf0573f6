// Assembly of the G-code file as bytes, so that a big print's text is never held as one giant
// string: the file is written once, into one exactly sized Uint8Array, from small encoded parts and
// parts (the layers' text) that are produced only as they are written.
const encoder = new TextEncoder();
/** A part written only when the file is assembled: exactly `length` bytes, into `into`. */
export interface DeferredPart {
  length: number;
  write(into: Uint8Array): void;
}

/** Parts of a file joined with '\n', like `string[].join('\n')` but into bytes. */
export class ByteParts {
  private readonly parts: Array<Uint8Array | DeferredPart> = [];

  push(...items: Array<string | Uint8Array | DeferredPart>): void {
    for (const s of items) this.parts.push(typeof s === 'string' ? encoder.encode(s) : s);
  }

  /** The file; deferred parts are written in order. */
  join(): Uint8Array {
    let total = Math.max(0, this.parts.length - 1);
    for (const p of this.parts) total += p.length;
    const out = new Uint8Array(total);
    let k = 0;
    this.parts.forEach((p, i) => {
      if (i > 0) out[k++] = 10; // '\n'
      if (p instanceof Uint8Array) out.set(p, k);
      else p.write(out.subarray(k, k + p.length));
      k += p.length;
    });
    return out;
  }
}

/** Bytes `s` takes in UTF-8. */
export function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 2; // a surrogate pair: 4 bytes for 2 units
        i++;
      } else n += 2;
    } else n += 2;
  }
  return n;
}

/** Writes `s` as UTF-8 into exactly the whole of `into`. */
export function writeUtf8(s: string, into: Uint8Array): void {
  const r = encoder.encodeInto(s, into);
  if (r.read !== s.length || r.written !== into.length) throw new Error('G-code text changed between the two passes');
}
