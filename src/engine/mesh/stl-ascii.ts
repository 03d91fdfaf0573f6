// ASCII STL: `solid name` / `facet normal …` / `outer loop` / `vertex x y z` ×3 / `endloop` /
// `endfacet` / `endsolid`. Read token by token, so CRLF, tabs, extra white space, missing names and
// several solids in one file all read the same. A loop with more than three vertices is fanned.
import { type RawMesh, MAX_TRIANGLES, badModel, tooManyTriangles } from './raw-mesh.js';
import { isSpace, tokenIs, parseNumber, lineAt, bytesToString } from './text-scan.js';

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

export function readAsciiStl(bytes: Uint8Array): RawMesh {
  const warnings: string[] = [];
  const out = new Floats();
  const loop: number[] = []; // vertices of the facet being read
  let triangles = 0;
  let shortLoops = 0;

  const flush = () => {
    const n = loop.length / 3;
    if (n >= 3) {
      // fan from the first vertex
      for (let k = 1; k + 1 < n; k++) {
        out.push3(loop[0], loop[1], loop[2]);
        out.push3(loop[3 * k], loop[3 * k + 1], loop[3 * k + 2]);
        out.push3(loop[3 * k + 3], loop[3 * k + 4], loop[3 * k + 5]);
        if (++triangles > MAX_TRIANGLES) throw tooManyTriangles(`more than ${MAX_TRIANGLES.toLocaleString('en-US')}`);
      }
    } else if (n > 0) shortLoops++;
    loop.length = 0;
  };

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
          const what = ns === ne ? 'end of file' : `'${bytesToString(bytes, ns, ne)}'`;
          throw badModel(`ASCII STL: vertex coordinate ${what} on line ${lineAt(bytes, ns)} is not a finite number`);
        }
        loop.push(v);
      }
    } else if (c === 101 && (tokenIs(bytes, s, e, 'endloop') || tokenIs(bytes, s, e, 'endfacet'))) {
      flush();
    } else if (c === 102 && tokenIs(bytes, s, e, 'facet')) {
      flush(); // a facet whose end markers are missing
    }
  }
  if (loop.length > 0) {
    warnings.push('ASCII STL ends inside a facet (truncated file?): the last facet was read as far as it goes');
    flush();
  }
  if (triangles === 0) throw badModel('ASCII STL without any facets');
  if (shortLoops > 0) warnings.push(`ASCII STL: skipped ${shortLoops} facet(s) with fewer than 3 vertices`);
  return { positions: out.data.slice(0, out.length), indices: null, unitsKnown: false, warnings };
}
