// Infill density that varies inside a model (issue 4): a layer's sparse area is split into regions of
// one density each. The model's base density comes first, then the model's own density field, then
// the modifiers in ascending priority; where they overlap the one applied last wins. Density fields
// are voxel grids; their values are quantised into steps so a layer has few regions, not one per voxel.
import type { DensityField, Paths } from '../types.js';
import { difference, intersection, union } from '../geom/clipper.js';

/** A density field in printer coordinates: DensityField's shape with the box in µm. */
export type FieldUm = DensityField;

/** A modifier's cross-section on one layer, with what it does. */
export interface LayerModifier {
  section: Paths;
  priority: number;
  /** infill density inside, % */
  density: number;
  field?: FieldUm;
}

/** An area whose infill density is set, in the order overrides are applied. */
export interface DensityOverride {
  area: Paths;
  density: number;
}

export interface DensityRegion {
  area: Paths;
  /** % (0 = no infill, ≥ 100 solid) */
  density: number;
}

/** Field values are rounded to this many percent. */
export const DENSITY_STEP = 5;

export function quantiseDensity(d: number, step = DENSITY_STEP): number {
  return Math.min(100, Math.max(0, Math.round(d / step) * step));
}

/**
 * The field's areas at height z (µm), one per quantised density step: the union of the voxel
 * rectangles of the voxel layer that contains z. Empty when z is outside the field's box. Runs of
 * equal steps along y are merged into one rectangle before the union, to keep the union small.
 */
export function fieldAreas(f: FieldUm, z: number, step = DENSITY_STEP): DensityOverride[] {
  const sz = (f.max[2] - f.min[2]) / f.nz;
  if (!(sz > 0) || z < f.min[2] || z > f.max[2]) return [];
  const iz = Math.min(f.nz - 1, Math.floor((z - f.min[2]) / sz));
  const sx = (f.max[0] - f.min[0]) / f.nx;
  const sy = (f.max[1] - f.min[1]) / f.ny;
  const xAt = (i: number) => Math.round(f.min[0] + i * sx);
  const yAt = (i: number) => Math.round(f.min[1] + i * sy);
  const rects = new Map<number, Paths>();
  for (let ix = 0; ix < f.nx; ix++) {
    let runStart = 0;
    let runQ = NaN;
    const flush = (end: number) => {
      if (Number.isNaN(runQ)) return;
      const x0 = xAt(ix), x1 = xAt(ix + 1), y0 = yAt(runStart), y1 = yAt(end);
      let list = rects.get(runQ);
      if (!list) rects.set(runQ, (list = []));
      list.push([x0, y0, x1, y0, x1, y1, x0, y1]);
    };
    for (let iy = 0; iy < f.ny; iy++) {
      const v = f.density[(ix * f.ny + iy) * f.nz + iz];
      // a voxel without a finite value leaves the density to what lies under the field
      const q = Number.isFinite(v) ? quantiseDensity(v, step) : NaN;
      if (q === runQ || (Number.isNaN(q) && Number.isNaN(runQ))) continue;
      flush(iy);
      runStart = iy;
      runQ = q;
    }
    flush(f.ny);
  }
  return [...rects.entries()].sort((a, b) => a[0] - b[0]).map(([density, list]) => ({ density, area: union(list) }));
}

/**
 * Overrides of one model on one layer, in application order: its own field, then each modifier
 * (sorted by ascending priority) clipped to its section — a modifier with a field sets its
 * densityFactor first and the field's steps over it, so the field wins inside its box.
 */
export function layerOverrides(modelField: FieldUm | undefined, modifiers: LayerModifier[], z: number): DensityOverride[] {
  const out: DensityOverride[] = modelField ? fieldAreas(modelField, z) : [];
  for (const m of modifiers) {
    if (m.section.length === 0) continue;
    out.push({ area: m.section, density: m.density });
    if (m.field) {
      for (const fa of fieldAreas(m.field, z)) {
        const inside = intersection(fa.area, m.section);
        if (inside.length > 0) out.push({ area: inside, density: fa.density });
      }
    }
  }
  return out;
}

/**
 * Splits `area` into density regions: `base` where no override applies, else the density of the
 * last override covering it. Regions of equal density are merged; empty ones dropped.
 */
export function densityRegions(area: Paths, base: number, overrides: DensityOverride[]): DensityRegion[] {
  if (overrides.length === 0) return [{ area, density: base }];
  const parts = new Map<number, Paths>();
  const add = (density: number, p: Paths) => {
    if (p.length === 0) return;
    const list = parts.get(density);
    if (list) list.push(...p);
    else parts.set(density, [...p]);
  };
  let remaining = area;
  // walk from the last applied (the winner) down, taking what each still finds free
  for (let i = overrides.length - 1; i >= 0 && remaining.length > 0; i--) {
    const o = overrides[i];
    add(o.density, intersection(remaining, o.area));
    remaining = difference(remaining, o.area);
  }
  add(base, remaining);
  const out: DensityRegion[] = [];
  for (const [density, list] of parts) {
    const merged = union(list);
    if (merged.length > 0) out.push({ area: merged, density });
  }
  return out;
}
