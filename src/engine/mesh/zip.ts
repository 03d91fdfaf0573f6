// A small reader for zip archives (what a 3MF is): finds the central directory, lists entries and
// inflates one on request. Stored and deflated entries, zip64 sizes. Every offset is bounds-checked:
// a hostile archive gives a BAD_MODEL error, never an out-of-range read or an unbounded inflate.
import { createRequire } from 'node:module';
import type * as Zlib from 'node:zlib';
import { badModel } from './raw-mesh.js';

export interface ZipEntry {
  /** path inside the archive, as stored */
  name: string;
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  localOffset: number;
}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
/** No 3MF part a slicer can handle is larger; beyond this an entry is refused (zip bombs). */
const MAX_ENTRY_BYTES = 1 << 30;
/**
 * Nor may an entry inflate to more than this many times its compressed size, once past
 * RATIO_FREE_BYTES: a 3MF's model XML packs 4–10× (3DBenchy's 5.5×), while deflate reaches ~1000×
 * on filler. Without it a 0.9 MiB file of XML whitespace took 6 s and 1.9 GiB to refuse.
 */
const MAX_RATIO = 64;
const RATIO_FREE_BYTES = 64 << 20;

/**
 * node:zlib, loaded on the first deflated entry: loading it (and the stream modules it needs) took
 * a few ms of every slice's start, 3MF or not.
 */
let zlib: typeof Zlib | undefined;
const inflateRawSync: typeof Zlib.inflateRawSync = (data, options) => (zlib ??= createRequire(import.meta.url)('node:zlib') as typeof Zlib).inflateRawSync(data, options!);

/** The most an entry of this compressed size may inflate to. */
function inflateLimit(compressedSize: number): number {
  return Math.min(MAX_ENTRY_BYTES, Math.max(RATIO_FREE_BYTES, compressedSize * MAX_RATIO));
}

export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 3 && bytes[3] === 4;
}

function corrupt(why: string): Error {
  return badModel(`corrupt 3MF/zip archive: ${why}`);
}

export class ZipArchive {
  private readonly view: DataView;
  readonly entries: ZipEntry[] = [];

  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.readDirectory();
  }

  private u16(o: number): number {
    if (o < 0 || o + 2 > this.bytes.length) throw corrupt('a record runs past the end of the file');
    return this.view.getUint16(o, true);
  }
  private u32(o: number): number {
    if (o < 0 || o + 4 > this.bytes.length) throw corrupt('a record runs past the end of the file');
    return this.view.getUint32(o, true);
  }
  private u64(o: number): number {
    const lo = this.u32(o);
    const hi = this.u32(o + 4);
    if (hi > 0x1fffff) throw corrupt('a 64-bit size is out of range');
    return hi * 0x100000000 + lo;
  }

  private readDirectory(): void {
    const len = this.bytes.length;
    // the end-of-central-directory record sits in the last 22 + 65535 (comment) bytes
    let eocd = -1;
    for (let o = len - 22; o >= Math.max(0, len - 22 - 0xffff); o--) {
      if (this.view.getUint32(o, true) === EOCD) {
        eocd = o;
        break;
      }
    }
    if (eocd < 0) throw corrupt('no central directory (is the file truncated?)');
    let count = this.u16(eocd + 10);
    let dirOffset = this.u32(eocd + 16);
    if ((count === 0xffff || dirOffset === 0xffffffff) && eocd >= 20 && this.u32(eocd - 20) === ZIP64_LOCATOR) {
      const rec = this.u64(eocd - 20 + 8);
      if (this.u32(rec) !== ZIP64_EOCD) throw corrupt('bad zip64 directory record');
      count = this.u64(rec + 32);
      dirOffset = this.u64(rec + 48);
    }
    let o = dirOffset;
    for (let k = 0; k < count; k++) {
      if (this.u32(o) !== CENTRAL) throw corrupt(`central directory entry ${k + 1} of ${count} is damaged`);
      const method = this.u16(o + 10);
      let compressedSize = this.u32(o + 20);
      let uncompressedSize = this.u32(o + 24);
      const nameLen = this.u16(o + 28);
      const extraLen = this.u16(o + 30);
      const commentLen = this.u16(o + 32);
      let localOffset = this.u32(o + 42);
      const nameStart = o + 46;
      if (nameStart + nameLen + extraLen > len) throw corrupt('an entry name runs past the end of the file');
      const name = new TextDecoder().decode(this.bytes.subarray(nameStart, nameStart + nameLen));
      // zip64 extra field: the 64-bit values of the fields that hold 0xffffffff, in this order
      let e = nameStart + nameLen;
      const extraEnd = e + extraLen;
      while (e + 4 <= extraEnd) {
        const id = this.u16(e);
        const size = this.u16(e + 2);
        if (id === 1) {
          let f = e + 4;
          if (uncompressedSize === 0xffffffff && f + 8 <= e + 4 + size) (uncompressedSize = this.u64(f)), (f += 8);
          if (compressedSize === 0xffffffff && f + 8 <= e + 4 + size) (compressedSize = this.u64(f)), (f += 8);
          if (localOffset === 0xffffffff && f + 8 <= e + 4 + size) localOffset = this.u64(f);
        }
        e += 4 + size;
      }
      this.entries.push({ name, method, compressedSize, uncompressedSize, localOffset });
      o = extraEnd + commentLen;
    }
  }

  /** Finds an entry by path, ignoring case and a leading '/' (3MF part names are case-insensitive). */
  find(path: string): ZipEntry | undefined {
    const want = normalise(path);
    return this.entries.find((en) => normalise(en.name) === want);
  }

  /** The uncompressed bytes of an entry. */
  read(entry: ZipEntry): Uint8Array {
    const o = entry.localOffset;
    if (this.u32(o) !== LOCAL) throw corrupt(`the local header of '${entry.name}' is damaged`);
    const start = o + 30 + this.u16(o + 26) + this.u16(o + 28);
    const end = start + entry.compressedSize;
    if (end > this.bytes.length) throw corrupt(`'${entry.name}' runs past the end of the file (truncated?)`);
    const data = this.bytes.subarray(start, end);
    if (entry.method === 0) return data;
    if (entry.method !== 8) throw badModel(`3MF/zip entry '${entry.name}' uses an unsupported compression method (${entry.method})`);
    const limit = inflateLimit(data.length);
    const tooLarge = () =>
      badModel(
        `3MF/zip entry '${entry.name}' inflates to more than ${mib(limit)} from ${mib(data.length)}: refused as a likely zip bomb` +
          ` (an entry may grow to ${mib(RATIO_FREE_BYTES)} or ${MAX_RATIO}× its packed size, at most ${mib(MAX_ENTRY_BYTES)})`,
      );
    if (entry.uncompressedSize > limit) throw tooLarge();
    try {
      // one output chunk as large as the entry says it is: in zlib's default 16 KiB chunks the inflate
      // of 3DBenchy's 17 MB model part made ~1,000 of them and then copied them into one buffer
      // (120–180 ms cold against 58–64 ms). A size that lies costs more chunks or unused slack, no more
      // than the limit.
      const chunkSize = Math.min(limit + 1, Math.max(1 << 16, entry.uncompressedSize + 1024));
      const out = inflateRawSync(data, { maxOutputLength: limit, chunkSize });
      return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
    } catch (err) {
      // the declared size can lie: zlib stops at the limit
      if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge();
      throw corrupt(`'${entry.name}' does not decompress (${(err as Error).message})`);
    }
  }
}

function mib(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(bytes < 2 ** 20 ? 2 : 0)} MiB`;
}

function normalise(path: string): string {
  return path.replace(/\\/g, '/').replace(/^\/+/, '').toLowerCase();
}
