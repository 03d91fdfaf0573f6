// One model's triangle list from a workspace entry, every value checked: points are finite numbers
// within a sane size, indices whole numbers that index the points, three a triangle.
import { describeValue } from '../../profiles/describe-value.js';
import type { Mesh } from '../../engine/types.js';
import { weld } from '../../engine/mesh/weld.js';
import { failAt } from './workspace-error.js';
import { isObject, keyName, prop, type JsonObject } from './keys.js';

/** Coordinates beyond this many millimetres are no printable model (and overflow µm integers). */
export const MAX_COORDINATE_MM = 100_000;
/** Upper bound on the triangles of one workspace (about 1.2 GB as JSON). */
export const MAX_TRIANGLES = 20_000_000;

/** A point [x, y, z] or {X, Y, Z}; `unit` names what its numbers are in the error (a scale's are factors). */
export function readPoint(v: unknown, path: string, unit = ' mm'): [number, number, number] {
  let x: unknown, y: unknown, z: unknown;
  if (Array.isArray(v)) {
    if (v.length !== 3) failAt(path, `must be three numbers [x, y, z], not ${v.length}`);
    [x, y, z] = v;
  } else if (isObject(v)) {
    x = prop(v, 'X');
    y = prop(v, 'Y');
    z = prop(v, 'Z');
  } else failAt(path, 'is not a point (an object with X, Y, Z)');
  const xyz = [x, y, z] as unknown[];
  for (let a = 0; a < 3; a++) {
    const c = xyz[a];
    const at = isObject(v) ? `${path}.${keyName(v, 'XYZ'[a]!)}` : `${path}[${a}]`;
    // (1e309 arrives as Infinity, which describeValue shows as such)
    if (typeof c !== 'number' || !Number.isFinite(c)) failAt(at, `must be a finite number, not ${describeValue(c)}`);
    if (Math.abs(c) > MAX_COORDINATE_MM) failAt(at, `is ${c}${unit}, beyond ±${MAX_COORDINATE_MM}${unit}`);
  }
  return [x as number, y as number, z as number];
}

/** Points and indices under `positionsKey`/`indicesKey`; no indices = the points are the triangle list. */
export function readMesh(model: JsonObject, at: string, positionsKey: string, indicesKey: string): Mesh {
  const pKey = keyName(model, positionsKey);
  const positions = prop(model, positionsKey);
  if (!Array.isArray(positions)) failAt(`${at}.${pKey}`, 'is missing: a model needs its triangle points');
  if (positions.length > MAX_TRIANGLES * 3) failAt(`${at}.${pKey}`, `holds ${positions.length} points, more than ${MAX_TRIANGLES * 3}`);
  const pos = new Float32Array(positions.length * 3);
  for (let i = 0; i < positions.length; i++) pos.set(readPoint(positions[i], `${at}.${pKey}[${i}]`), i * 3);

  const iKey = keyName(model, indicesKey);
  const rawIndices = prop(model, indicesKey);
  let indices: Uint32Array;
  const pointsAreTriangles = rawIndices === undefined || rawIndices === null || (Array.isArray(rawIndices) && rawIndices.length === 0);
  if (pointsAreTriangles) {
    indices = Uint32Array.from({ length: positions.length }, (_, i) => i);
  } else {
    if (!Array.isArray(rawIndices)) failAt(`${at}.${iKey}`, 'must be an array of point indices');
    if (rawIndices.length > MAX_TRIANGLES * 3) failAt(`${at}.${iKey}`, `holds more than ${MAX_TRIANGLES} triangles`);
    indices = new Uint32Array(rawIndices.length);
    for (let i = 0; i < rawIndices.length; i++) {
      const v = rawIndices[i];
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v >= positions.length) {
        const range = positions.length === 0 ? 'which holds no point' : `(0…${positions.length - 1})`;
        failAt(`${at}.${iKey}[${i}]`, `is ${describeValue(v)}: not an index into ${pKey} ${range}`);
      }
      indices[i] = v;
    }
  }
  if (indices.length % 3 !== 0) {
    failAt(`${at}.${pointsAreTriangles ? pKey : iKey}`, `holds ${indices.length} entries, not a multiple of 3 (three per triangle)`);
  }
  return { positions: pos, indices };
}

/**
 * Welds a workspace mesh as a model file's is welded: equal points become one vertex, and
 * degenerate and duplicate triangles are dropped (with a warning). Clients often send each
 * triangle's own three points (indices 0…N-1); unwelded, every layer's outline would have to be
 * stitched together from loose segments (3DBenchy's layers: 1.25 s against 0.08 s welded).
 */
export function weldMesh(mesh: Mesh, name: string, at: string, warnings: string[]): Mesh {
  const triangles = mesh.indices.length / 3;
  const w = weld(mesh.positions, mesh.indices);
  const degenerate = w.collapsed + w.flat;
  const duplicates = w.repeated + w.cancelled;
  if (degenerate + duplicates > 0) {
    const parts = [degenerate > 0 ? `${degenerate} degenerate` : '', duplicates > 0 ? `${duplicates} duplicate` : ''].filter(Boolean);
    const left = w.mesh.indices.length / 3;
    warnings.push(`model '${name}' (${at}): dropped ${parts.join(' and ')} triangle(s) of ${triangles}${left === 0 ? ', none left' : ''}`);
  }
  return w.mesh;
}

/** Axis-aligned bounds of the points the triangles use, mm. */
export function meshBox(mesh: Mesh): { min: [number, number, number]; max: [number, number, number] } {
  const min: [number, number, number] = [Infinity, Infinity, Infinity];
  const max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  const p = mesh.positions;
  for (const i of mesh.indices) {
    for (let a = 0; a < 3; a++) {
      const v = p[i * 3 + a]!;
      if (v < min[a]!) min[a] = v;
      if (v > max[a]!) max[a] = v;
    }
  }
  return { min, max };
}
