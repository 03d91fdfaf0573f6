// Welding: vertices with bit-identical coordinates become one (files repeat each shared vertex,
// STL for every triangle), so triangles share vertex indices and the slicer can chain by edge.
// Then triangles that collapsed (two equal indices) or have no area are dropped, so are duplicate
// triangles (duplicates.ts), and vertices no triangle uses any more are removed.
//
// Each hot loop lives in its own small function: V8 optimises a loop on the fly, and code after it
// that has not run yet would otherwise throw the optimised code away (costly on a one-shot parse).
import type { Mesh } from '../types.js';
import { dropDuplicateTriangles } from './duplicates.js';
import { MAX_COORD_MM } from './raw-mesh.js';
import { firstOfEqual, probeBudget } from './first-of-equal.js';

export interface WeldResult {
  mesh: Mesh;
  /** triangles dropped because two of their corners are the same vertex */
  collapsed: number;
  /** triangles dropped because their corners are on one line */
  flat: number;
  /** triangles dropped as copies of another (the same three vertices, wound the same way) */
  repeated: number;
  /** triangles dropped because copies wound opposite ways cancel in pairs */
  cancelled: number;
  /** set when some coordinate is NaN or infinite (the mesh is then unusable) */
  nonFinite: 'NaN' | 'infinite' | null;
  /**
   * a coordinate beyond ±MAX_COORD_MM, when some vertex has one (a corrupt value, 1e20: found here,
   * before its triangle turns degenerate in float arithmetic and is dropped as if that were a repair)
   */
  far: number | null;
}

/**
 * A triangle whose height over its longest edge is below this fraction of that edge is flat:
 * float32 coordinates carry about 7 significant digits, so anything thinner is rounding noise.
 */
const FLAT_RATIO = 1e-7;

interface Unique {
  /** input vertex → unique vertex */
  remap: Uint32Array;
  /** unique vertices, as float32 (viewing the bit patterns that were hashed) */
  positions: Float32Array;
}

function hash3(a: number, b: number, c: number): number {
  const h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b ^ (b >>> 16), 0x85ebca77) ^ Math.imul(c ^ (c >>> 13), 0xc2b2ae3d);
  return h ^ (h >>> 15);
}

/** Open addressing on the three coordinate bit patterns (−0 counted as +0). */
function uniqueVertices(bits: Uint32Array, nIn: number): Unique {
  // a mesh shares each vertex among about six triangles, so nIn/2 slots are rarely a quarter full
  // (a small table stays in cache); the table doubles when half full
  let size = 1024;
  while (size < nIn / 2) size <<= 1;
  let mask = size - 1;
  let table: Int32Array = new Int32Array(size).fill(-1);
  const remap = new Uint32Array(nIn);
  let uniq: Uint32Array = new Uint32Array(Math.max(1024, nIn >> 2) * 3);
  let nu = 0;
  let probes = probeBudget(nIn);
  for (let v = 0; v < nIn; v++) {
    let a = bits[3 * v];
    let b = bits[3 * v + 1];
    let c = bits[3 * v + 2];
    if (a === 0x80000000) a = 0;
    if (b === 0x80000000) b = 0;
    if (c === 0x80000000) c = 0;
    let h = hash3(a, b, c) & mask;
    for (;;) {
      const u = table[h];
      if (u < 0) {
        if (3 * nu + 3 > uniq.length) uniq = grow(uniq, nIn * 3);
        table[h] = nu;
        uniq[3 * nu] = a;
        uniq[3 * nu + 1] = b;
        uniq[3 * nu + 2] = c;
        remap[v] = nu++;
        break;
      }
      if (uniq[3 * u] === a && uniq[3 * u + 1] === b && uniq[3 * u + 2] === c) {
        remap[v] = u;
        break;
      }
      h = (h + 1) & mask;
      if (--probes < 0) return uniqueVerticesSorted(bits, nIn);
    }
    if (nu * 2 > size) {
      size <<= 1;
      mask = size - 1;
      const bigger = rehash(uniq, nu, size, probes);
      if (!bigger) return uniqueVerticesSorted(bits, nIn);
      table = bigger;
    }
  }
  return { remap, positions: new Float32Array(uniq.buffer, 0, nu * 3) };
}

/** The same as uniqueVertices, by sorting: for keys that collide in the hash table. */
function uniqueVerticesSorted(bits: Uint32Array, nIn: number): Unique {
  const at = (v: number, axis: number) => {
    const x = bits[3 * v + axis];
    return x === 0x80000000 ? 0 : x;
  };
  const first = firstOfEqual(nIn, (p, q) => at(p, 0) - at(q, 0) || at(p, 1) - at(q, 1) || at(p, 2) - at(q, 2));
  const remap = new Uint32Array(nIn);
  const uniq = new Uint32Array(nIn * 3);
  let nu = 0;
  for (let v = 0; v < nIn; v++) {
    if (first[v] !== v) {
      remap[v] = remap[first[v]]; // the first is earlier: already numbered
      continue;
    }
    for (let a = 0; a < 3; a++) uniq[3 * nu + a] = at(v, a);
    remap[v] = nu++;
  }
  return { remap, positions: new Float32Array(uniq.buffer, 0, nu * 3) };
}

function grow(a: Uint32Array, cap: number): Uint32Array {
  const bigger = new Uint32Array(Math.min(cap, a.length * 2));
  bigger.set(a);
  return bigger;
}

/** The table at the new size; null past `probes` probes (colliding keys). */
function rehash(uniq: Uint32Array, nu: number, size: number, probes: number): Int32Array | null {
  const mask = size - 1;
  const table = new Int32Array(size).fill(-1);
  for (let u = 0; u < nu; u++) {
    let k = hash3(uniq[3 * u], uniq[3 * u + 1], uniq[3 * u + 2]) & mask;
    while (table[k] >= 0) {
      k = (k + 1) & mask;
      if (--probes < 0) return null;
    }
    table[k] = u;
  }
  return table;
}

/** The first coordinate that is not a number, or lies beyond ±MAX_COORD_MM (whatever the unit: metres are smaller). */
function firstBadCoordinate(p: Float32Array): Pick<WeldResult, 'nonFinite' | 'far'> {
  for (let i = 0; i < p.length; i++) {
    const v = p[i]!;
    // one comparison for the usual case; NaN fails it too
    if (v <= MAX_COORD_MM && v >= -MAX_COORD_MM) continue;
    if (!Number.isFinite(v)) return { nonFinite: Number.isNaN(v) ? 'NaN' : 'infinite', far: null };
    return { nonFinite: null, far: v };
  }
  return { nonFinite: null, far: null };
}

interface Kept {
  tris: Uint32Array;
  count: number;
  collapsed: number;
  flat: number;
}

/**
 * Maps triangles to unique vertices, dropping collapsed and flat ones. Written without branches in
 * the loop body: the rare "drop" path would otherwise have no type feedback when V8 optimises the
 * loop, and hitting it later throws the optimised code away.
 */
function keepTriangles(upos: Float32Array, remap: Uint32Array, indices: Uint32Array | null, nTri: number): Kept {
  const tris = new Uint32Array(nTri * 3 + 3);
  let nt = 0;
  let collapsed = 0;
  let flat = 0;
  const limit = FLAT_RATIO * FLAT_RATIO;
  for (let t = 0; t < nTri; t++) {
    const i0 = remap[indices ? indices[3 * t] : 3 * t];
    const i1 = remap[indices ? indices[3 * t + 1] : 3 * t + 1];
    const i2 = remap[indices ? indices[3 * t + 2] : 3 * t + 2];
    const ux = upos[3 * i1] - upos[3 * i0];
    const uy = upos[3 * i1 + 1] - upos[3 * i0 + 1];
    const uz = upos[3 * i1 + 2] - upos[3 * i0 + 2];
    const vx = upos[3 * i2] - upos[3 * i0];
    const vy = upos[3 * i2 + 1] - upos[3 * i0 + 1];
    const vz = upos[3 * i2 + 2] - upos[3 * i0 + 2];
    const cx = uy * vz - uz * vy;
    const cy = uz * vx - ux * vz;
    const cz = ux * vy - uy * vx;
    const cross2 = cx * cx + cy * cy + cz * cz; // (2·area)²
    const wx = vx - ux;
    const wy = vy - uy;
    const wz = vz - uz;
    const longest2 = Math.max(ux * ux + uy * uy + uz * uz, vx * vx + vy * vy + vz * vz, wx * wx + wy * wy + wz * wz);
    const isCollapsed = +(i0 === i1 || i1 === i2 || i0 === i2);
    // height = 2·area / longest edge; flat when height ≤ FLAT_RATIO · longest
    const isFlat = +(cross2 <= limit * longest2 * longest2) & (1 - isCollapsed);
    collapsed += isCollapsed;
    flat += isFlat;
    // always write; advance only for a kept triangle (the spare slot at the end absorbs the last write)
    tris[3 * nt] = i0;
    tris[3 * nt + 1] = i1;
    tris[3 * nt + 2] = i2;
    nt += 1 - isCollapsed - isFlat;
  }
  return { tris: tris.subarray(0, nt * 3), count: nt, collapsed, flat };
}

/** Removes vertices no kept triangle uses (they would still count in the bounds). */
function dropUnused(upos: Float32Array, tris: Uint32Array): Mesh {
  const nu = upos.length / 3;
  const renum = new Int32Array(nu).fill(-1);
  for (let i = 0; i < tris.length; i++) renum[tris[i]] = 0;
  let nk = 0;
  for (let u = 0; u < nu; u++) if (renum[u] === 0) renum[u] = nk++;
  if (nk === nu) return { positions: upos.slice(), indices: tris };
  const positions = new Float32Array(nk * 3);
  for (let u = 0; u < nu; u++) {
    const k = renum[u];
    if (k < 0) continue;
    positions[3 * k] = upos[3 * u];
    positions[3 * k + 1] = upos[3 * u + 1];
    positions[3 * k + 2] = upos[3 * u + 2];
  }
  for (let i = 0; i < tris.length; i++) tris[i] = renum[tris[i]];
  return { positions, indices: tris };
}

/** Welds `positions` (x, y, z per vertex) with `indices` (or, if null, vertices in triangle order). */
export function weld(positions: Float32Array, indices: Uint32Array | null): WeldResult {
  const nIn = (positions.length / 3) | 0;
  const bits = new Uint32Array(positions.buffer, positions.byteOffset, nIn * 3);
  const { remap, positions: upos } = uniqueVertices(bits, nIn);
  // every coordinate of the input is among the unique vertices: check them once
  const bad = firstBadCoordinate(upos);
  if (bad.nonFinite || bad.far !== null) return { mesh: { positions: new Float32Array(0), indices: new Uint32Array(0) }, collapsed: 0, flat: 0, repeated: 0, cancelled: 0, ...bad };
  const nTri = indices ? (indices.length / 3) | 0 : (nIn / 3) | 0;
  const kept = keepTriangles(upos, remap, indices, nTri);
  const unique = dropDuplicateTriangles(kept.tris, kept.count);
  const tris = kept.tris.subarray(0, 3 * unique.count);
  return { mesh: dropUnused(upos, tris), collapsed: kept.collapsed, flat: kept.flat, repeated: unique.repeated, cancelled: unique.cancelled, nonFinite: null, far: null };
}
