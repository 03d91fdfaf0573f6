// ASCII STL: `solid name` / `facet normal …` / `outer loop` / `vertex x y z` ×3 / `endloop` /
// `endfacet` / `endsolid`. Read token by token, so CRLF, tabs, extra white space, missing names and
// several solids in one file all read the same. A loop with more than three vertices is fanned.
import { type RawMesh, MAX_TRIANGLES, badModel, tooManyTriangles } from './raw-mesh.js';
import { isSpace, tokenIs, parseNumber, lineAt, bytesToString, DECIMAL_TEXT } from './text-scan.js';

/** A growable float32 array of coordinates. */
class Floats {
  data = new Float32Array(1 << 12);
  length = 0;
  push3(x: number, y: number, z: number): void {
    if (this.length + 3 > this.data.length) {
      const next = new Float32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = x;
    this.data[this.length++] = y;
    this.data[this.length++] = z;
  }
}

/**
 * Up to this size the file is read as one Latin-1 string with regular expressions, which V8 runs as
 * native code from the first match on: most of a small model's parse is done before the byte
 * scanner's JavaScript would have been optimised (overhang_bridging_cooling, 270 kB, in a fresh
 * process: 30–40 ms → 14–18 ms). Larger files use the byte scanner, which never holds the text
 * twice (and is optimised early in a long parse anyway).
 */
export const STRING_PATH_MAX_BYTES = 8 << 20;

export function readAsciiStl(bytes: Uint8Array): RawMesh {
  return bytes.length <= STRING_PATH_MAX_BYTES ? readAsciiStlText(bytes) : readAsciiStlBytes(bytes);
}

// Tokens are runs of anything but ASCII white space (as isSpace); keywords match without case. A
// `vertex` match takes the three tokens after it too (whatever they are: a keyword there is a bad
// coordinate, as for the byte scanner), so most of the file is read by the expression engine.
const W = '[ \\t\\n\\v\\f\\r]';
const T = '[^ \\t\\n\\v\\f\\r]';
const KEYWORD = new RegExp(
  `(?<!${T})(?:(vertex)(?:${W}+(${T}+)(?:${W}+(${T}+)(?:${W}+(${T}+))?)?)?|endloop|endfacet|facet)(?!${T})`,
  'gi',
);

/** The same reading as readAsciiStlBytes (same triangles, warnings and errors), through a string. */
export function readAsciiStlText(bytes: Uint8Array): RawMesh {
  // Latin-1: one character per byte, so a match's index is its byte offset
  const text = new TextDecoder('latin1').decode(bytes);
  const facets = new FacetCollector();
  const loop = facets.loop;
  KEYWORD.lastIndex = 0;
  for (let m = KEYWORD.exec(text); m !== null; m = KEYWORD.exec(text)) {
    if (m[1] === undefined) {
      facets.flush(); // endloop, endfacet, or a facet whose end markers are missing
      continue;
    }
    for (let a = 2; a <= 4; a++) {
      const token = m[a];
      const v = token !== undefined && DECIMAL_TEXT.test(token) ? Number(token) : NaN; // as parseNumber reads it
      if (!Number.isFinite(v)) throw badCoordinate(bytes, m, a);
      loop.push(v);
    }
  }
  return facets.finish();
}

/** The byte scanner's error for the a-th capture of a vertex match (2–4) that is not a finite number. */
function badCoordinate(bytes: Uint8Array, m: RegExpExecArray, a: number): Error {
  const token = m[a];
  let at: number;
  if (token === undefined) {
    // the file ends (or only white space follows) before this coordinate
    at = bytes.length;
  } else {
    // position of capture a: after the keyword and the captures before it, past white space
    at = m.index + m[1]!.length;
    for (let k = 2; k <= a; k++) {
      while (at < bytes.length && isSpace(bytes[at]!)) at++;
      if (k < a) at += m[k]!.length;
    }
  }
  if (token === undefined) return truncatedVertex(bytes, at);
  return badModel(`ASCII STL: vertex coordinate '${bytesToString(bytes, at, at + token.length)}' on line ${lineAt(bytes, at)} is not a finite number`);
}

function truncatedVertex(bytes: Uint8Array, at: number): Error {
  return badModel(`ASCII STL: the file ends in the middle of a vertex on line ${lineAt(bytes, at)} (is it truncated?)`);
}

/** Vertices of the facet being read, fanned into triangles when the facet ends. */
class FacetCollector {
  readonly out = new Floats();
  readonly loop: number[] = [];
  triangles = 0;
  shortLoops = 0;

  flush(): void {
    const loop = this.loop;
    const n = loop.length / 3;
    if (n >= 3) {
      // fan from the first vertex
      for (let k = 1; k + 1 < n; k++) {
        this.out.push3(loop[0], loop[1], loop[2]);
        this.out.push3(loop[3 * k], loop[3 * k + 1], loop[3 * k + 2]);
        this.out.push3(loop[3 * k + 3], loop[3 * k + 4], loop[3 * k + 5]);
        if (++this.triangles > MAX_TRIANGLES) throw tooManyTriangles(`more than ${MAX_TRIANGLES.toLocaleString('en-US')}`);
      }
    } else if (n > 0) this.shortLoops++;
    loop.length = 0;
  }

  finish(): RawMesh {
    const warnings: string[] = [];
    if (this.loop.length > 0) {
      warnings.push('ASCII STL ends inside a facet (truncated file?): the last facet was read as far as it goes');
      this.flush();
    }
    if (this.triangles === 0) throw badModel('ASCII STL without any facets');
    if (this.shortLoops > 0) warnings.push(`ASCII STL: skipped ${this.shortLoops} facet(s) with fewer than 3 vertices`);
    return { positions: this.out.data.slice(0, this.out.length), indices: null, unitsKnown: false, warnings };
  }
}

/** The byte scanner: any size, no string made of the file. */
export function readAsciiStlBytes(bytes: Uint8Array): RawMesh {
  const facets = new FacetCollector();
  const loop = facets.loop;

  const len = bytes.length;
  let i = 0;
  const nextToken = (): [number, number] => {
    while (i < len && isSpace(bytes[i])) i++;
    const s = i;
    while (i < len && !isSpace(bytes[i])) i++;
    return [s, i];
  };

  while (i < len) {
    const [s, e] = nextToken();
    if (s === e) break;
    const c = bytes[s] | 0x20;
    if (c === 118 && tokenIs(bytes, s, e, 'vertex')) {
      for (let a = 0; a < 3; a++) {
        const [ns, ne] = nextToken();
        const v = parseNumber(bytes, ns, ne);
        if (!Number.isFinite(v)) {
          if (ns === ne) throw truncatedVertex(bytes, ns);
          throw badModel(`ASCII STL: vertex coordinate '${bytesToString(bytes, ns, ne)}' on line ${lineAt(bytes, ns)} is not a finite number`);
        }
        loop.push(v);
      }
    } else if (c === 101 && (tokenIs(bytes, s, e, 'endloop') || tokenIs(bytes, s, e, 'endfacet'))) {
      facets.flush();
    } else if (c === 102 && tokenIs(bytes, s, e, 'facet')) {
      facets.flush(); // a facet whose end markers are missing
    }
  }
  return facets.finish();
}
