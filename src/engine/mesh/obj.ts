// Wavefront OBJ: `v x y z` vertices and `f a b c …` faces (indices 1-based, negative = relative to
// the last vertex read, each possibly `v/vt/vn` or `v//vn`). Polygons are fanned into triangles;
// everything else (normals, texture coordinates, groups, materials) is ignored. OBJ has no unit.
import { type RawMesh, MAX_TRIANGLES, badModel, tooManyTriangles } from './raw-mesh.js';
import { isSpace, parseNumber, lineAt, bytesToString } from './text-scan.js';

class Growable<T extends Float32Array | Uint32Array> {
  length = 0;
  constructor(public data: T) {}
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new (this.data.constructor as new (n: number) => T)(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
  done(): T {
    return this.data.slice(0, this.length) as T;
  }
}

/** Faces with forward vertex references remembered to name one that points past the last vertex. */
const MAX_FORWARD = 1000;

export function readObj(bytes: Uint8Array): RawMesh {
  const warnings: string[] = [];
  const pos = new Growable(new Float32Array(1 << 12));
  const idx = new Growable(new Uint32Array(1 << 12));
  const face: number[] = [];
  let badFaces = 0;
  let triangles = 0;
  const len = bytes.length;
  /** where the first face that could not be used starts (a byte offset), and why */
  let firstBad: { at: number; why: string } | null = null;
  const forward: Array<{ at: number; max: number }> = [];
  let i = 0;
  while (i < len) {
    // one line: [i, eol)
    let eol = i;
    while (eol < len && bytes[eol] !== 10 && bytes[eol] !== 13) eol++;
    let s = i;
    while (s < eol && (bytes[s] === 32 || bytes[s] === 9)) s++;
    const isVertex = s + 1 < eol && bytes[s] === 118 && (bytes[s + 1] === 32 || bytes[s + 1] === 9);
    const isFace = s + 1 < eol && bytes[s] === 102 && (bytes[s + 1] === 32 || bytes[s + 1] === 9);
    if (isVertex) {
      let p = s + 2;
      for (let a = 0; a < 3; a++) {
        while (p < eol && isSpace(bytes[p])) p++;
        const ts = p;
        while (p < eol && !isSpace(bytes[p])) p++;
        const v = parseNumber(bytes, ts, p);
        if (!Number.isFinite(v)) {
          if (ts === p) throw badModel(`OBJ: the vertex on line ${lineAt(bytes, ts)} has ${a} coordinate${a === 1 ? '' : 's'}, not 3`);
          throw badModel(`OBJ: vertex coordinate '${bytesToString(bytes, ts, p)}' on line ${lineAt(bytes, ts)} is not a finite number`);
        }
        pos.push(v);
      }
    } else if (isFace) {
      face.length = 0;
      const nVerts = pos.length / 3;
      let ok = true;
      let p = s + 2;
      while (p < eol) {
        while (p < eol && isSpace(bytes[p])) p++;
        if (p >= eol) break;
        // the vertex index is the integer before any '/'
        let neg = false;
        if (bytes[p] === 45) {
          neg = true;
          p++;
        }
        let n = 0;
        let digits = 0;
        while (p < eol && bytes[p] >= 48 && bytes[p] <= 57) {
          if (n < 1e12) n = n * 10 + (bytes[p] - 48);
          digits++;
          p++;
        }
        // the integer ends at a '/' or the next space: `1.5` or `1e2` is no vertex number
        if (p < eol && !isSpace(bytes[p]) && bytes[p] !== 47) ok = false;
        while (p < eol && !isSpace(bytes[p])) p++; // skip /vt/vn
        const index = neg ? nVerts - n : n - 1;
        // positive indices may point forward (checked at the end); negative ones are relative
        if (digits === 0 || n === 0 || index < 0) ok = false;
        else face.push(index);
      }
      if (!ok || face.length < 3) {
        badFaces++;
        if (firstBad === null) firstBad = { at: s, why: ok ? 'fewer than 3 vertices' : 'an index that is no vertex number' };
      } else {
        // forward references are allowed (checked once every vertex is read): the first few kept to name a bad one
        if (forward.length < MAX_FORWARD && face.some((v) => v >= nVerts)) forward.push({ at: s, max: face.reduce((m, v) => (v > m ? v : m), 0) });
        for (let k = 1; k + 1 < face.length; k++) {
          idx.push(face[0]);
          idx.push(face[k]);
          idx.push(face[k + 1]);
          if (++triangles > MAX_TRIANGLES) throw tooManyTriangles(`more than ${MAX_TRIANGLES.toLocaleString('en-US')}`);
        }
      }
    }
    i = eol + 1;
  }
  let indices = idx.done();
  const total = pos.length / 3;
  if (indices.some((v) => v >= total)) {
    const beyond = forward.find((f) => f.max >= total);
    if (beyond && (firstBad === null || beyond.at < firstBad.at)) firstBad = { at: beyond.at, why: `it names vertex ${beyond.max + 1}; the file has ${total}` };
    const kept: number[] = [];
    for (let t = 0; t < indices.length; t += 3) {
      if (indices[t] < total && indices[t + 1] < total && indices[t + 2] < total) kept.push(indices[t], indices[t + 1], indices[t + 2]);
      else badFaces++;
    }
    indices = Uint32Array.from(kept);
    triangles = kept.length / 3;
  }
  const where = firstBad ? `, the first on line ${lineAt(bytes, firstBad.at)} (${firstBad.why})` : '';
  if (triangles === 0) {
    throw badModel(pos.length === 0 ? 'OBJ file without vertices or faces' : `OBJ file without any usable face: ${badFaces} skipped${where}`);
  }
  if (badFaces > 0) warnings.push(`OBJ: skipped ${badFaces} face(s) with fewer than 3 vertices or indices out of range${where}`);
  return { positions: pos.done(), indices, unitsKnown: false, warnings };
}
