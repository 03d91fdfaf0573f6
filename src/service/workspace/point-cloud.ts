// PC_SV shore-value point clouds (DESIGN.md, "Point cloud"): little-endian float64, no header,
// row-major [nx][ny][nz] (z fastest), exactly nx·ny·nz·8 bytes. The grid spans the bounding box of
// the modifier that references the file; each value is a Shore hardness that the filament's
// calibration table turns into an infill density.
import type { DensityField } from '../../engine/types.js';
import { densityForShore, type FilamentPreset } from '../../profiles/index.js';
import { WorkspaceError } from './workspace-error.js';

export type Dims = [number, number, number];

/** More voxels than this is no longer a hardness map but a memory problem (≈ 128 MB of doubles). */
export const MAX_VOXELS = 16_000_000;

/**
 * What is wrong with a PC_SV file of `byteLength` bytes for `dims` (too many values, or not 8 bytes
 * a value), or undefined: checked at task start from the upload's size, and again when it is read.
 */
export function pointCloudSizeProblem(dims: Dims, byteLength: number, fileName: string): string | undefined {
  const count = dims[0] * dims[1] * dims[2];
  if (count > MAX_VOXELS) return `point cloud '${fileName}': arrayDimensions ${dims.join('×')} are ${count} values, more than ${MAX_VOXELS}`;
  if (byteLength !== count * 8) {
    return `point cloud '${fileName}' has ${byteLength} bytes; arrayDimensions ${dims.join('×')} need ${count * 8} (8 bytes per value)`;
  }
  return undefined;
}

/** The hardness values, checked: the right byte count, every value a finite number. */
export function readPointCloud(bytes: Uint8Array, dims: Dims, fileName: string): Float64Array {
  const problem = pointCloudSizeProblem(dims, bytes.byteLength, fileName);
  if (problem) throw new WorkspaceError(problem);
  const count = dims[0] * dims[1] * dims[2];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const values = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const v = view.getFloat64(i * 8, true);
    if (!Number.isFinite(v)) {
      const iz = i % dims[2];
      const iy = Math.floor(i / dims[2]) % dims[1];
      const ix = Math.floor(i / (dims[1] * dims[2]));
      throw new WorkspaceError(`point cloud '${fileName}': value [${ix}][${iy}][${iz}] (byte ${i * 8}) is ${v}, not a hardness`);
    }
    values[i] = v;
  }
  return values;
}

export interface PointCloudDensity {
  field: DensityField;
  /** values outside the filament's table, clamped to its ends */
  clamped: number;
  minShore: number;
  maxShore: number;
}

/** Hardness → infill density (%) voxel by voxel over the modifier's box. */
export function densityFieldOf(
  values: Float64Array,
  dims: Dims,
  box: { min: [number, number, number]; max: [number, number, number] },
  filament: Pick<FilamentPreset, 'name' | 'shoreToDensity'>,
): PointCloudDensity {
  const density = new Float32Array(values.length);
  let clamped = 0;
  let minShore = Infinity;
  let maxShore = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const shore = values[i]!;
    const d = densityForShore(filament, shore);
    density[i] = d.density;
    if (d.clamped) clamped++;
    if (shore < minShore) minShore = shore;
    if (shore > maxShore) maxShore = shore;
  }
  const field: DensityField = { min: [...box.min], max: [...box.max], nx: dims[0], ny: dims[1], nz: dims[2], density };
  return { field, clamped, minShore, maxShore };
}

/** Writes hardness values as a PC_SV file (the CLI's `pointcloud` and the tests). */
export function encodePointCloud(values: ArrayLike<number>): Uint8Array {
  const out = new Uint8Array(values.length * 8);
  const view = new DataView(out.buffer);
  for (let i = 0; i < values.length; i++) view.setFloat64(i * 8, values[i]!, true);
  return out;
}
