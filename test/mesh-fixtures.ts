// Test helpers for the mesh and layer tests: small meshes built by hand and writers for the file
// formats (binary/ASCII STL, OBJ, a minimal zip for 3MF).
import { deflateRawSync } from 'node:zlib';
import { MODELS, SHARED_DIR } from './shared-dir.js';

/** The shared model corpus (see shared-dir.ts), or null when absent. */
export const MODELS_DIR = SHARED_DIR ? MODELS : null;

export interface TestMesh {
  positions: number[];
  indices: number[];
}

/** An axis-aligned box, triangles wound counter-clockwise seen from outside. */
export function box(x0: number, y0: number, z0: number, x1: number, y1: number, z1: number): TestMesh {
  const positions: number[] = [];
  for (let k = 0; k < 8; k++) positions.push(k & 1 ? x1 : x0, k & 2 ? y1 : y0, k & 4 ? z1 : z0);
  const quads = [
    [0, 2, 3, 1], // bottom
    [4, 5, 7, 6], // top
    [0, 1, 5, 4], // front (y0)
    [3, 2, 6, 7], // back (y1)
    [2, 0, 4, 6], // left (x0)
    [1, 3, 7, 5], // right (x1)
  ];
  const indices: number[] = [];
  for (const [a, b, c, d] of quads) indices.push(a, b, c, a, c, d);
  return { positions, indices };
}

/** A square tube: outer square of side `outer`, a centred square hole of side `hole`, height h. */
export function squareTube(outer: number, hole: number, h: number): TestMesh {
  const m = (outer - hole) / 2;
  const o = [[0, 0], [outer, 0], [outer, outer], [0, outer]];
  const i = [[m, m], [m + hole, m], [m + hole, m + hole], [m, m + hole]];
  const positions: number[] = [];
  // 0..3 outer bottom, 4..7 outer top, 8..11 inner bottom, 12..15 inner top
  for (const [ring, z] of [[o, 0], [o, h], [i, 0], [i, h]] as const) for (const [x, y] of ring) positions.push(x, y, z);
  const indices: number[] = [];
  const quad = (a: number, b: number, c: number, d: number) => indices.push(a, b, c, a, c, d);
  for (let k = 0; k < 4; k++) {
    const n = (k + 1) % 4;
    quad(k, n, 4 + n, 4 + k); // outer wall
    quad(8 + n, 8 + k, 12 + k, 12 + n); // inner wall, facing the hole
    quad(4 + k, 4 + n, 12 + n, 12 + k); // top ring
    quad(k, 8 + k, 8 + n, n); // bottom ring
  }
  return { positions, indices };
}

/**
 * A UV sphere: `rings` bands from pole to pole, `segments` around, triangles wound counter-clockwise
 * seen from outside. Its triangles span several layers and enter the sweep at many different planes.
 */
export function uvSphere(cx: number, cy: number, cz: number, r: number, rings: number, segments: number): TestMesh {
  const positions: number[] = [cx, cy, cz - r]; // 0: south pole
  for (let i = 1; i < rings; i++) {
    const lat = -Math.PI / 2 + (Math.PI * i) / rings;
    for (let j = 0; j < segments; j++) {
      const lon = (2 * Math.PI * j) / segments;
      positions.push(cx + r * Math.cos(lat) * Math.cos(lon), cy + r * Math.cos(lat) * Math.sin(lon), cz + r * Math.sin(lat));
    }
  }
  const north = positions.length / 3;
  positions.push(cx, cy, cz + r);
  const at = (i: number, j: number) => 1 + (i - 1) * segments + (j % segments);
  const indices: number[] = [];
  for (let j = 0; j < segments; j++) {
    indices.push(0, at(1, j + 1), at(1, j));
    indices.push(north, at(rings - 1, j), at(rings - 1, j + 1));
    for (let i = 1; i + 1 < rings; i++) indices.push(at(i, j), at(i, j + 1), at(i + 1, j + 1), at(i, j), at(i + 1, j + 1), at(i + 1, j));
  }
  return { positions, indices };
}

/** Several meshes as one (indices shifted). */
export function merge(...meshes: TestMesh[]): TestMesh {
  const out: TestMesh = { positions: [], indices: [] };
  for (const m of meshes) {
    const base = out.positions.length / 3;
    out.positions.push(...m.positions);
    out.indices.push(...m.indices.map((v) => v + base));
  }
  return out;
}

/** Signed volume (positive when the winding faces outwards). */
export function signedVolume(m: { positions: ArrayLike<number>; indices: ArrayLike<number> }): number {
  let v = 0;
  const p = m.positions;
  for (let t = 0; t < m.indices.length; t += 3) {
    const a = 3 * m.indices[t];
    const b = 3 * m.indices[t + 1];
    const c = 3 * m.indices[t + 2];
    v += p[a] * (p[b + 1] * p[c + 2] - p[b + 2] * p[c + 1]) - p[a + 1] * (p[b] * p[c + 2] - p[b + 2] * p[c]) + p[a + 2] * (p[b] * p[c + 1] - p[b + 1] * p[c]);
  }
  return v / 6;
}

/** Triangle soup (9 numbers a triangle) of a mesh. */
export function soup(m: TestMesh): number[] {
  const out: number[] = [];
  for (const v of m.indices) out.push(m.positions[3 * v], m.positions[3 * v + 1], m.positions[3 * v + 2]);
  return out;
}

/** A binary STL of a triangle soup; `header` fills the 80-byte header, `count` overrides the count. */
export function binaryStl(tris: number[], header = 'test', count?: number): Uint8Array {
  const n = tris.length / 9;
  const out = new Uint8Array(84 + 50 * n);
  const dv = new DataView(out.buffer);
  out.set(new TextEncoder().encode(header).subarray(0, 80));
  dv.setUint32(80, count ?? n, true);
  for (let t = 0; t < n; t++) for (let k = 0; k < 9; k++) dv.setFloat32(84 + 50 * t + 12 + 4 * k, tris[9 * t + k], true);
  return out;
}

/** An ASCII STL of a triangle soup, with a configurable line ending and indentation. */
export function asciiStl(tris: number[], name = 'test', eol = '\n', indent = '  '): string {
  let s = `solid ${name}${eol}`;
  for (let t = 0; t < tris.length; t += 9) {
    s += `${indent}facet normal 0 0 0${eol}${indent}${indent}outer loop${eol}`;
    for (let k = 0; k < 9; k += 3) s += `${indent.repeat(3)}vertex ${tris[t + k]} ${tris[t + k + 1]} ${tris[t + k + 2]}${eol}`;
    s += `${indent}${indent}endloop${eol}${indent}endfacet${eol}`;
  }
  return s + `endsolid ${name}${eol}`;
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(b: Uint8Array): number {
  let c = 0xffffffff;
  for (const v of b) c = CRC_TABLE[(c ^ v) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A zip archive of the given files (deflated unless `store`). */
export function zip(files: Record<string, string | Uint8Array>, store = false): Uint8Array {
  const local: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(files)) {
    const data = typeof content === 'string' ? new TextEncoder().encode(content) : content;
    const packed = store ? data : new Uint8Array(deflateRawSync(data));
    const nameBytes = new TextEncoder().encode(name);
    const crc = crc32(data);
    const lh = new Uint8Array(30 + nameBytes.length);
    const lv = new DataView(lh.buffer);
    lv.setUint32(0, 0x04034b50, true);
    lv.setUint16(4, 20, true);
    lv.setUint16(8, store ? 0 : 8, true);
    lv.setUint32(14, crc, true);
    lv.setUint32(18, packed.length, true);
    lv.setUint32(22, data.length, true);
    lv.setUint16(26, nameBytes.length, true);
    lh.set(nameBytes, 30);
    const ch = new Uint8Array(46 + nameBytes.length);
    const cv = new DataView(ch.buffer);
    cv.setUint32(0, 0x02014b50, true);
    cv.setUint16(4, 20, true);
    cv.setUint16(6, 20, true);
    cv.setUint16(10, store ? 0 : 8, true);
    cv.setUint32(16, crc, true);
    cv.setUint32(20, packed.length, true);
    cv.setUint32(24, data.length, true);
    cv.setUint16(28, nameBytes.length, true);
    cv.setUint32(42, offset, true);
    ch.set(nameBytes, 46);
    local.push(lh, packed);
    central.push(ch);
    offset += lh.length + packed.length;
  }
  const dirSize = central.reduce((s, c) => s + c.length, 0);
  const end = new Uint8Array(22);
  const ev = new DataView(end.buffer);
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, central.length, true);
  ev.setUint16(10, central.length, true);
  ev.setUint32(12, dirSize, true);
  ev.setUint32(16, offset, true);
  const parts = [...local, ...central, end];
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** Signed area of a flat closed path. */
export function area(p: number[]): number {
  let a = 0;
  for (let i = 0; i < p.length; i += 2) {
    const j = (i + 2) % p.length;
    a += p[i] * p[j + 1] - p[j] * p[i + 1];
  }
  return a / 2;
}

/** A tiny seeded random generator (mulberry32), so fuzz tests are repeatable. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
