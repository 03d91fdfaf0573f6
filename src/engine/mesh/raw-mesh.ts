// What a format reader hands to the clean-up stage, and the limits every reader enforces.
import { SliceError } from '../types.js';

/** Triangles as read: positions in the file's units converted to mm, before welding. */
export interface RawMesh {
  /** x, y, z per vertex (mm). */
  positions: Float32Array;
  /** three vertex indices per triangle; null = vertices are already in triangle order (0,1,2, 3,4,5, …) */
  indices: Uint32Array | null;
  /** true when the file states its unit (3MF); false for STL/OBJ, where a tiny model is taken to be in metres */
  unitsKnown: boolean;
  warnings: string[];
  /**
   * separate printed objects, when the file places several (a 3MF's build items): each one's
   * vertices and triangle indices are contiguous runs of `positions` and `indices`
   */
  parts?: RawPart[];
}

export interface RawPart {
  /** the object's own name in the file, if it has one */
  name?: string;
  vertexStart: number;
  vertexEnd: number;
  indexStart: number;
  indexEnd: number;
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
