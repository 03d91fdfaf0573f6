// The metadata block of an FCode file: what a printer shows before it prints (time, filament,
// bounds, layers, who made it). Tag-length-value entries, so readers skip tags they do not know and
// later versions can add some without breaking older readers.
import type { Bounds3 } from '../types.js';
import { ByteReader, ByteWriter } from './fcode-bytes.js';
import {
  META_BOUNDS,
  META_FILAMENT_G,
  META_FILAMENT_MM,
  META_FILAMENT_MM3,
  META_FLAVOR,
  META_GENERATOR,
  META_LAYER_COUNT,
  META_MACHINE,
  META_PRINT_TIME_S,
} from './fcode-format.js';

/** Every field is optional: G-code from elsewhere may not say all of it. */
export interface FCodeMetadata {
  printTimeS?: number;
  filamentMm?: number;
  filamentMm3?: number;
  filamentG?: number;
  /** mm, printer coordinates */
  bounds?: Bounds3;
  layerCount?: number;
  generator?: string;
  /** G-code flavour the commands were written for (marlin, klipper, …) */
  flavor?: string;
  machine?: string;
}

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder('utf-8', { fatal: false });

function entry(w: ByteWriter, tag: number, value: Uint8Array): void {
  w.u8(tag);
  w.u8(value.length & 0xff);
  w.u8(value.length >>> 8);
  w.raw(value);
}

function f64s(values: number[]): Uint8Array {
  const out = new Uint8Array(values.length * 8);
  const view = new DataView(out.buffer);
  values.forEach((v, i) => view.setFloat64(i * 8, v, true));
  return out;
}

function text(s: string): Uint8Array {
  // an entry's length is a u16: longer strings are cut at a character boundary
  let b = utf8.encode(s);
  while (b.length > 0xffff) b = utf8.encode((s = s.slice(0, Math.floor(s.length * 0.9))));
  return b;
}

/** The metadata entries, in tag order. */
export function writeMetadata(w: ByteWriter, m: FCodeMetadata): void {
  if (m.printTimeS !== undefined) entry(w, META_PRINT_TIME_S, f64s([m.printTimeS]));
  if (m.filamentMm !== undefined) entry(w, META_FILAMENT_MM, f64s([m.filamentMm]));
  if (m.filamentMm3 !== undefined) entry(w, META_FILAMENT_MM3, f64s([m.filamentMm3]));
  if (m.filamentG !== undefined) entry(w, META_FILAMENT_G, f64s([m.filamentG]));
  if (m.bounds) entry(w, META_BOUNDS, f64s([...m.bounds.min, ...m.bounds.max]));
  if (m.layerCount !== undefined) {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setUint32(0, Math.max(0, Math.min(0xffffffff, Math.round(m.layerCount))), true);
    entry(w, META_LAYER_COUNT, b);
  }
  if (m.generator !== undefined) entry(w, META_GENERATOR, text(m.generator));
  if (m.flavor !== undefined) entry(w, META_FLAVOR, text(m.flavor));
  if (m.machine !== undefined) entry(w, META_MACHINE, text(m.machine));
}

/** Reads the entries of [r.pos, r.end); a known tag of the wrong size is an error. */
export function readMetadata(r: ByteReader): FCodeMetadata {
  const m: FCodeMetadata = {};
  while (r.pos < r.end) {
    const at = r.pos;
    const tag = r.u8();
    const len = r.u8() | (r.u8() << 8);
    const v = r.take(len);
    const view = new DataView(v.buffer, v.byteOffset, v.byteLength);
    const f64 = (count: number): number[] => {
      if (len !== count * 8) r.fail(`metadata tag ${tag} should hold ${count * 8} bytes, has ${len}`, at);
      return Array.from({ length: count }, (_, i) => view.getFloat64(i * 8, true));
    };
    switch (tag) {
      case META_PRINT_TIME_S: m.printTimeS = f64(1)[0]; break;
      case META_FILAMENT_MM: m.filamentMm = f64(1)[0]; break;
      case META_FILAMENT_MM3: m.filamentMm3 = f64(1)[0]; break;
      case META_FILAMENT_G: m.filamentG = f64(1)[0]; break;
      case META_BOUNDS: {
        const b = f64(6);
        m.bounds = { min: [b[0]!, b[1]!, b[2]!], max: [b[3]!, b[4]!, b[5]!] };
        break;
      }
      case META_LAYER_COUNT:
        if (len !== 4) r.fail(`metadata tag ${tag} should hold 4 bytes, has ${len}`, at);
        m.layerCount = view.getUint32(0, true);
        break;
      case META_GENERATOR: m.generator = fromUtf8.decode(v); break;
      case META_FLAVOR: m.flavor = fromUtf8.decode(v); break;
      case META_MACHINE: m.machine = fromUtf8.decode(v); break;
      default: break; // a later version's entry: skipped
    }
  }
  return m;
}
