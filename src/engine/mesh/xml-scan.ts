// A minimal, forgiving XML tag scanner over bytes, enough for 3MF model parts: it reports start
// tags with their attributes and end tags, by local name (namespace prefix dropped). Text content,
// comments, processing instructions, CDATA and DOCTYPE are skipped. Linear in the input, no recursion.
import { isSpace, parseNumber } from './text-scan.js';

/** The attributes of the tag being reported; valid only during the callback. */
export class XmlAttributes {
  count = 0;
  /** per attribute: local-name start, name end, value start, value end */
  ranges = new Int32Array(64);
  constructor(private readonly bytes: Uint8Array) {}

  private indexOf(name: string): number {
    const b = this.bytes;
    for (let a = 0; a < this.count; a++) {
      const s = this.ranges[4 * a];
      const e = this.ranges[4 * a + 1];
      if (e - s !== name.length) continue;
      let same = true;
      for (let k = 0; k < name.length && same; k++) same = b[s + k] === name.charCodeAt(k);
      if (same) return a;
    }
    return -1;
  }

  /** The attribute's value as a string (entities other than the five predefined ones are left as they are). */
  get(name: string): string | undefined {
    const a = this.indexOf(name);
    if (a < 0) return undefined;
    const text = new TextDecoder().decode(this.bytes.subarray(this.ranges[4 * a + 2], this.ranges[4 * a + 3]));
    return text.includes('&') ? decodeEntities(text) : text;
  }

  /** The attribute as a number: NaN when missing or not a number. */
  number(name: string): number {
    const a = this.indexOf(name);
    if (a < 0) return NaN;
    let s = this.ranges[4 * a + 2];
    let e = this.ranges[4 * a + 3];
    while (s < e && isSpace(this.bytes[s])) s++;
    while (e > s && isSpace(this.bytes[e - 1])) e--;
    return parseNumber(this.bytes, s, e);
  }
}

function decodeEntities(s: string): string {
  return s.replace(/&(lt|gt|amp|quot|apos);/g, (_m, n: string) => ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" })[n] ?? '');
}

export interface XmlHandler {
  start(name: string, attrs: XmlAttributes, selfClosing: boolean): void;
  end(name: string): void;
}

function skipPast(bytes: Uint8Array, from: number, marker: string): number {
  const m0 = marker.charCodeAt(0);
  outer: for (let i = from; i + marker.length <= bytes.length; i++) {
    if (bytes[i] !== m0) continue;
    for (let k = 1; k < marker.length; k++) if (bytes[i + k] !== marker.charCodeAt(k)) continue outer;
    return i + marker.length;
  }
  return bytes.length;
}

/** Where the local part (after any prefix) of the name readName last read starts. */
let nameLocal = 0;

/**
 * Reads a name starting at i; returns its end and leaves its local part's start in nameLocal (no
 * array per call: a model part has a few names per vertex, and while the scanner is still cold
 * V8 allocated one for each, over a million for 3DBenchy).
 */
function readName(bytes: Uint8Array, i: number): number {
  nameLocal = i;
  while (i < bytes.length) {
    const c = bytes[i];
    if (isSpace(c) || c === 47 || c === 62 || c === 61) break; // '/', '>', '='
    i++;
    if (c === 58) nameLocal = i; // ':'
  }
  return i;
}

/**
 * Element names as strings, interned: a document repeats a few names hundreds of thousands of
 * times, so each distinct name is built once (keyed by a hash, checked byte by byte).
 */
class NameTable {
  private readonly byHash = new Map<number, string[]>();
  get(bytes: Uint8Array, s: number, e: number): string {
    if (e - s > 64) e = s + 64;
    let h = 0x811c9dc5;
    for (let i = s; i < e; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
    const list = this.byHash.get(h);
    if (list) {
      for (const name of list) if (sameBytes(name, bytes, s, e)) return name;
    }
    let name = '';
    for (let i = s; i < e; i++) name += String.fromCharCode(bytes[i]);
    if (list) list.push(name);
    else this.byHash.set(h, [name]);
    return name;
  }
}

function sameBytes(name: string, bytes: Uint8Array, s: number, e: number): boolean {
  if (name.length !== e - s) return false;
  for (let k = 0; k < name.length; k++) if (name.charCodeAt(k) !== bytes[s + k]) return false;
  return true;
}

export function scanXml(bytes: Uint8Array, handler: XmlHandler): void {
  const attrs = new XmlAttributes(bytes);
  const names = new NameTable();
  const len = bytes.length;
  let i = 0;
  while (i < len) {
    if (bytes[i] !== 60) {
      i++;
      continue;
    }
    const c = bytes[i + 1];
    if (c === 33) {
      // <!-- comment -->, <![CDATA[ … ]]>, <!DOCTYPE …>
      if (bytes[i + 2] === 45 && bytes[i + 3] === 45) i = skipPast(bytes, i + 4, '-->');
      else if (bytes[i + 2] === 91) i = skipPast(bytes, i + 2, ']]>');
      else i = skipPast(bytes, i + 2, '>');
      continue;
    }
    if (c === 63) {
      i = skipPast(bytes, i + 2, '?>');
      continue;
    }
    if (c === 47) {
      const e = readName(bytes, i + 2);
      handler.end(names.get(bytes, nameLocal, e));
      i = skipPast(bytes, e, '>');
      continue;
    }
    const ne = readName(bytes, i + 1);
    const ns = nameLocal;
    let p = ne;
    attrs.count = 0;
    let selfClosing = false;
    while (p < len) {
      while (p < len && isSpace(bytes[p])) p++;
      if (p >= len) break;
      if (bytes[p] === 62) {
        p++;
        break;
      }
      if (bytes[p] === 47) {
        selfClosing = true;
        p++;
        continue;
      }
      const ae = readName(bytes, p);
      const as = nameLocal;
      p = ae;
      if (ae === as && p < len && !isSpace(bytes[p]) && bytes[p] !== 61) p++; // stray character: step over it
      while (p < len && isSpace(bytes[p])) p++;
      if (bytes[p] !== 61) continue; // attribute without a value
      p++;
      while (p < len && isSpace(bytes[p])) p++;
      const q = bytes[p];
      if (q !== 34 && q !== 39) continue;
      const vs = p + 1;
      let ve = vs;
      while (ve < len && bytes[ve] !== q) ve++;
      p = ve + 1;
      if (attrs.count * 4 + 4 > attrs.ranges.length) {
        const bigger = new Int32Array(attrs.ranges.length * 2);
        bigger.set(attrs.ranges);
        attrs.ranges = bigger;
      }
      const r = attrs.ranges;
      const b = attrs.count * 4;
      r[b] = as;
      r[b + 1] = ae;
      r[b + 2] = vs;
      r[b + 3] = Math.min(ve, len);
      attrs.count++;
    }
    handler.start(names.get(bytes, ns, ne), attrs, selfClosing);
    i = p;
  }
}
