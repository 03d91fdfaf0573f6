// What a format reader hands to the clean-up stage, and the limits every reader enforces.
import { SliceError } from '../types.js';

/**
 * Where the welder reads vertices from: it asks for them in blocks, as the bit patterns of their
 * float32 x, y, z (so a binary STL is read straight from the file, without a copy of every vertex).
 */
export interface VertexSource {
  /** number of vertices */
  count: number;
  /** writes x, y, z bits of vertices [start, start + n) to out[0 .. 3n) */
  fill(start: number, n: number, out: Uint32Array): void;
}

/** Vertices held in a Float32Array (x, y, z per vertex). */
export function arraySource(positions: Float32Array): VertexSource {
  const bits = new Uint32Array(positions.buffer, positions.byteOffset, positions.length);
  return {
    count: (positions.length / 3) | 0,
    fill: (start, n, out) => out.set(bits.subarray(3 * start, 3 * (start + n))),
  };
}

/** Triangles as read: positions in the file's units converted to mm, before welding. */
export interface RawMesh {
  /** the vertices (mm) */
  vertices: VertexSource;
  /** three vertex indices per triangle; null = vertices are already in triangle order (0,1,2, 3,4,5, …) */
  indices: Uint32Array | null;
  /** true when the file states its unit (3MF); false for STL/OBJ, where a tiny model is taken to be in metres */
  unitsKnown: boolean;
  warnings: string[];
}

/** More triangles than any printable model needs; refusing early keeps memory bounded. */
export const MAX_TRIANGLES = 10_000_000;
/** No printer is a kilometre wide: coordinates beyond this are a broken file, not a model. */
export const MAX_COORD_MM = 1e6;

export function badModel(message: string): SliceError {
  return new SliceError(message, 'BAD_MODEL');
}

export function tooManyTriangles(count: number | string): SliceError {
  return badModel(`the model has ${count} triangles, more than the limit of ${MAX_TRIANGLES.toLocaleString('en-US')}`);
}
