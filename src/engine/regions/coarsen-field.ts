// A density field finer than infill can follow is averaged onto coarser cells before slicing. Infill
// lines lie millimetres apart, so a voxel of 0.1 mm cannot get a density of its own: a region that
// small gets no line at all (alternating 50/95 % voxels of 0.1 mm printed no infill), and a noisy
// scan at that size cut each layer into hundreds of thousands of tiny regions (a 100 mm plate ran
// past the 30 min task limit). Averaging keeps what a print can show: the density over the area.
import type { FieldUm } from './density.js';

/** The smallest cell (µm) a field is averaged onto: 2 mm, or 5 infill lines wide when that is more. */
export function minFieldCellUm(infillLineWidthMm: number): number {
  return Math.max(2000, Math.round(5 * infillLineWidthMm * 1000));
}

export interface CoarsenedField {
  field: FieldUm;
  /** true when cells were merged (the caller tells the user) */
  merged: boolean;
}

/**
 * The field on cells at least about `cellUm` wide in x and y (z is left alone: each layer reads one
 * voxel layer whatever its height). Each new cell takes the mean of the finite values of the voxels
 * whose centres it holds, NaN when none is finite. The box stays the same.
 */
export function coarsenField(f: FieldUm, cellUm: number): CoarsenedField {
  const cells = (n: number, extent: number) => Math.min(n, Math.max(1, Math.round(extent / cellUm)));
  const nx = cells(f.nx, f.max[0] - f.min[0]);
  const ny = cells(f.ny, f.max[1] - f.min[1]);
  if (nx === f.nx && ny === f.ny) return { field: f, merged: false };
  const nz = f.nz;
  const sum = new Float64Array(nx * ny * nz);
  const count = new Uint32Array(nx * ny * nz);
  for (let ix = 0; ix < f.nx; ix++) {
    const cx = Math.floor(((ix + 0.5) * nx) / f.nx);
    for (let iy = 0; iy < f.ny; iy++) {
      const cy = Math.floor(((iy + 0.5) * ny) / f.ny);
      const from = (ix * f.ny + iy) * nz;
      const to = (cx * ny + cy) * nz;
      for (let iz = 0; iz < nz; iz++) {
        const v = f.density[from + iz]!;
        if (!Number.isFinite(v)) continue;
        sum[to + iz] += v;
        count[to + iz]++;
      }
    }
  }
  const density = new Float32Array(nx * ny * nz);
  for (let i = 0; i < density.length; i++) density[i] = count[i]! > 0 ? sum[i]! / count[i]! : NaN;
  return { field: { min: f.min, max: f.max, nx, ny, nz, density }, merged: true };
}
