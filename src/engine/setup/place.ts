// Placement: a job's models are centred together on the bed and dropped to z = 0 (as the peers do),
// unless they come already placed (workspaces); then the result must fit the build volume.
// Modifiers move with the models (same transform) but take no part in centring or the volume check.
// A model with a `transform` (legacy v0.2 placement) is scaled, rotated and put at its offset from
// the bed centre first, and then counts as already placed.
import type { Bounds3, DensityField, ModelInput, ModelTransform, ModifierSpec } from '../types.js';
import type { FieldUm } from '../regions/density.js';
import { SliceError } from '../types.js';
import type { SliceSettings } from '../settings.js';
import { sizeText } from './size-text.js';
import { checkNothingFloats } from './floating.js';
import { coarsenField, minFieldCellUm } from '../regions/coarsen-field.js';

export interface PlacedModel {
  name: string;
  /** x, y, z per vertex in µm, printer coordinates */
  positions: Float64Array;
  indices: Uint32Array;
  /** 'modifier': sliced for its sections only, never printed */
  role?: 'model' | 'modifier';
  modifier?: ModifierSpec;
  /** the model's or modifier's density field, moved to printer coordinates (µm) */
  field?: FieldUm;
}

function boundsOf(positions: Float32Array | Float64Array, into: Bounds3): void {
  for (let i = 0; i < positions.length; i += 3) {
    for (let a = 0; a < 3; a++) {
      const v = positions[i + a];
      if (v < into.min[a]) into.min[a] = v;
      if (v > into.max[a]) into.max[a] = v;
    }
  }
}

const fmt = (v: number) => v.toFixed(1);

export function placeModels(models: ModelInput[], s: SliceSettings): { placed: PlacedModel[]; bounds: Bounds3; warnings: string[] } {
  if (models.length === 0) throw new SliceError('nothing to slice: no models', 'EMPTY');
  const all: Bounds3 = { min: [Infinity, Infinity, Infinity], max: [-Infinity, -Infinity, -Infinity] };
  models = models.map((m) => (m.transform ? applyTransform(m, m.transform, s) : m));
  for (const m of models) {
    if (m.mesh.indices.length === 0) throw new SliceError(`model '${m.name}' has no triangles`, 'BAD_MODEL');
    checkDensityInputs(m);
    if (m.role !== 'modifier') boundsOf(m.mesh.positions, all);
  }
  const printed = models.filter((m) => m.role !== 'modifier');
  if (printed.length === 0) throw new SliceError('nothing to slice: only modifiers', 'EMPTY');
  const centreX = s.originCenter ? 0 : s.bedWidth / 2;
  const centreY = s.originCenter ? 0 : s.bedDepth / 2;
  const keep = models.every((m) => m.keepPosition);
  const dx = keep ? 0 : centreX - (all.min[0] + all.max[0]) / 2;
  const dy = keep ? 0 : centreY - (all.min[1] + all.max[1]) / 2;
  const dz = -all.min[2];
  // a round bed (deltas): the model's farthest point from the centre, mm
  let reach = 0;
  const fieldWarnings: string[] = [];
  const placed = models.map((m) => {
    const src = m.mesh.positions;
    const pos = new Float64Array(src.length);
    const measure = s.roundBed && m.role !== 'modifier';
    for (let i = 0; i < src.length; i += 3) {
      pos[i] = (src[i] + dx) * 1000;
      pos[i + 1] = (src[i + 1] + dy) * 1000;
      // z in whole µm, so a face meant to lie on a slicing plane (5.1 mm) lies exactly on it: as float32
      // it is a few nm above or below, and that side, not one rule, decided its layer (layers/segments.ts)
      pos[i + 2] = Math.round((src[i + 2] + dz) * 1000);
      if (measure) reach = Math.max(reach, Math.hypot(src[i] + dx - centreX, src[i + 1] + dy - centreY));
    }
    const p: PlacedModel = { name: m.name, positions: pos, indices: m.mesh.indices };
    if (m.role === 'modifier') {
      p.role = 'modifier';
      p.modifier = m.modifier ?? { densityFactor: 1, priority: 0 };
    }
    if (m.densityField) {
      const { field, merged } = coarsenField(fieldToUm(m.densityField, dx, dy, dz), minFieldCellUm(s.infillLineWidth));
      p.field = field;
      if (merged) fieldWarnings.push(coarsenedWarning(m, field));
    }
    return p;
  });
  const bounds: Bounds3 = {
    min: [all.min[0] + dx, all.min[1] + dy, 0],
    max: [all.max[0] + dx, all.max[1] + dy, all.max[2] + dz],
  };
  const x0 = s.originCenter ? -s.bedWidth / 2 : 0;
  const y0 = s.originCenter ? -s.bedDepth / 2 : 0;
  const eps = 1e-3;
  const [sx, sy, sz] = [0, 1, 2].map((a) => all.max[a] - all.min[a]) as [number, number, number];
  const size = sizeText(sx, sy, sz);
  if (
    (s.roundBed && reach > s.bedWidth / 2 + eps) ||
    bounds.min[0] < x0 - eps ||
    bounds.min[1] < y0 - eps ||
    bounds.max[0] > x0 + s.bedWidth + eps ||
    bounds.max[1] > y0 + s.bedDepth + eps ||
    bounds.max[2] > s.bedHeight + eps
  ) {
    const what = printed.length === 1 ? `model '${printed[0].name}'` : `the ${printed.length} models`;
    throw new SliceError(
      `${what} (${size}) lies outside the build volume of ${s.machineName} (${s.roundBed ? `a round bed ${s.bedWidth} mm across, ${s.bedHeight} mm high` : `${s.bedWidth} × ${s.bedDepth} × ${s.bedHeight} mm`})`,
      'OUT_OF_VOLUME',
    );
  }
  if (sz < s.firstLayerHeight / 2) {
    // not even a line wide either way: a speck, not a sheet
    const what = Math.max(sx, sy) < s.firstLayerLineWidth ? 'too small' : 'flat';
    // named, as the volume check names it: one model of a workspace given in metres is 1000× too small
    const who = printed.length === 1 ? `model '${printed[0]!.name}' is` : `the ${printed.length} models together are`;
    throw new SliceError(`${who} ${what} (${size}): nothing to print at ${s.firstLayerHeight} mm first layer`, 'EMPTY');
  }
  if (keep) checkNothingFloats(placedBoxes(printed, dz), s, Math.max(0, dz));
  const warnings: string[] = [...fieldWarnings];
  // models placed by the client stand where they are in x and y; in z the lowest goes on the bed
  // (a print cannot start in the air), and the client is told how far
  if (keep && dz < -0.05) warnings.push(`no model touched the bed: all were lowered by ${fmt(-dz)} mm, so the lowest stands on it (modifiers and point clouds with them)`);
  return { placed, bounds, warnings };
}

/** Each printed model's box as it will print (moved `dz` in z), mm. */
function placedBoxes(printed: ModelInput[], dz: number): Array<{ name: string; box: Bounds3 }> {
  return printed.map((m) => {
    const box: Bounds3 = { min: [Infinity, Infinity, Infinity], max: [-Infinity, -Infinity, -Infinity] };
    boundsOf(m.mesh.positions, box);
    box.min[2] += dz;
    box.max[2] += dz;
    return { name: m.name, box };
  });
}

function coarsenedWarning(m: ModelInput, f: FieldUm): string {
  const f0 = m.densityField!;
  const mm = (extent: number, n: number) => (extent / n).toFixed(extent / n < 1 ? 2 : 1);
  const was = `${mm(f0.max[0] - f0.min[0], f0.nx)} × ${mm(f0.max[1] - f0.min[1], f0.ny)} mm`;
  const now = `${mm((f.max[0] - f.min[0]) / 1000, f.nx)} × ${mm((f.max[1] - f.min[1]) / 1000, f.ny)} mm`;
  return (
    `${m.role === 'modifier' ? 'modifier' : 'model'} '${m.name}': its density field's voxels (${was}) are finer than infill lines can follow; ` +
    `their densities are averaged over cells of ${now}`
  );
}

function fieldToUm(f: DensityField, dx: number, dy: number, dz: number): FieldUm {
  const d = [dx, dy, dz];
  const um = (v: [number, number, number]): [number, number, number] => [0, 1, 2].map((a) => Math.round((v[a] + d[a]) * 1000)) as [number, number, number];
  return { min: um(f.min), max: um(f.max), nx: f.nx, ny: f.ny, nz: f.nz, density: f.density };
}

/** The service validates workspaces; this guards the engine against a caller that did not. */
function checkDensityInputs(m: ModelInput): void {
  const bad = (what: string) => new SliceError(`${m.role === 'modifier' ? 'modifier' : 'model'} '${m.name}': ${what}`, 'BAD_MODEL');
  if (m.role === 'modifier' && m.modifier) {
    const { densityFactor, priority } = m.modifier;
    if (!(densityFactor >= 0 && densityFactor <= 1)) throw bad(`density factor ${densityFactor} is not within 0…1`);
    if (!Number.isFinite(priority)) throw bad(`priority ${priority} is not a number`);
  }
  const f = m.densityField;
  if (!f) return;
  for (const n of [f.nx, f.ny, f.nz]) if (!(Number.isInteger(n) && n > 0)) throw bad(`density field size ${f.nx} × ${f.ny} × ${f.nz} is not a positive grid`);
  if (f.density.length !== f.nx * f.ny * f.nz) throw bad(`density field has ${f.density.length} values for ${f.nx} × ${f.ny} × ${f.nz} voxels`);
  for (let a = 0; a < 3; a++) {
    if (!(Number.isFinite(f.min[a]) && Number.isFinite(f.max[a]) && f.max[a] > f.min[a])) throw bad('density field box is empty or not finite');
  }
}

const DEG = Math.PI / 180;

function emptyBounds(): Bounds3 {
  return { min: [Infinity, Infinity, Infinity], max: [-Infinity, -Infinity, -Infinity] };
}

/**
 * Scale about the bounding-box centre, rotate about X, then Y, then Z (fixed axes, right-handed),
 * then move the box centre to the bed centre + position (x, y) and the lowest point to z = 0.
 */
function applyTransform(m: ModelInput, t: ModelTransform, s: SliceSettings): ModelInput {
  const [sx, sy, sz] = t.scale ?? [1, 1, 1];
  const [rx, ry, rz] = (t.rotation ?? [0, 0, 0]).map((d) => d * DEG) as [number, number, number];
  const [px, py] = t.position ?? [0, 0];
  for (const v of [sx, sy, sz]) {
    if (!(Number.isFinite(v) && v > 0)) throw new SliceError(`model '${m.name}': scale ${v} is not a positive number`, 'BAD_SETTINGS');
  }
  for (const v of [rx, ry, rz, px, py]) {
    if (!Number.isFinite(v)) throw new SliceError(`model '${m.name}': rotation and position must be finite numbers`, 'BAD_SETTINGS');
  }
  if (m.densityField) throw new SliceError(`model '${m.name}': a density field cannot be moved by a transform`, 'BAD_SETTINGS');
  const src = m.mesh.positions;
  const box = emptyBounds();
  boundsOf(src, box);
  const c = [0, 1, 2].map((a) => (box.min[a] + box.max[a]) / 2);
  // rotation matrix R = Rz · Ry · Rx (X is applied first)
  const [cx, snx, cy, sny, cz, snz] = [Math.cos(rx), Math.sin(rx), Math.cos(ry), Math.sin(ry), Math.cos(rz), Math.sin(rz)];
  const r = [
    cz * cy, cz * sny * snx - snz * cx, cz * sny * cx + snz * snx,
    snz * cy, snz * sny * snx + cz * cx, snz * sny * cx - cz * snx,
    -sny, cy * snx, cy * cx,
  ];
  const moved = new Float64Array(src.length);
  for (let i = 0; i < src.length; i += 3) {
    const x = (src[i] - c[0]) * sx;
    const y = (src[i + 1] - c[1]) * sy;
    const z = (src[i + 2] - c[2]) * sz;
    moved[i] = r[0] * x + r[1] * y + r[2] * z;
    moved[i + 1] = r[3] * x + r[4] * y + r[5] * z;
    moved[i + 2] = r[6] * x + r[7] * y + r[8] * z;
  }
  const after = emptyBounds();
  boundsOf(moved, after);
  const tx = (s.originCenter ? 0 : s.bedWidth / 2) + px - (after.min[0] + after.max[0]) / 2;
  const ty = (s.originCenter ? 0 : s.bedDepth / 2) + py - (after.min[1] + after.max[1]) / 2;
  const tz = -after.min[2];
  const positions = new Float32Array(src.length);
  for (let i = 0; i < src.length; i += 3) {
    positions[i] = moved[i] + tx;
    positions[i + 1] = moved[i + 1] + ty;
    positions[i + 2] = moved[i + 2] + tz;
  }
  const { transform: _applied, ...rest } = m;
  return { ...rest, mesh: { positions, indices: m.mesh.indices }, keepPosition: true };
}

/** What makes each kind of adhesion take less room around the model. */
const ADHESION_FIXES: Record<SliceSettings['adhesionType'], string> = {
  none: 'or move it away from the bed edge',
  skirt: 'fewer skirtLoops, a shorter skirtMinLength, a smaller skirtDistance, or adhesionType none',
  brim: 'a narrower brimWidth, or adhesionType none or skirt',
  raft: 'a smaller raftMargin, or adhesionType none or skirt',
};

/**
 * After the toolpaths are made: everything the layers print, skirt, brim and raft included, lies on
 * the bed. The model may fit while its adhesion does not (a 20 mm cube on a 30 mm bed has a skirt from
 * -1.2 to 31.2 mm): Klipper stops the print at the first such move ("Move out of range"), Marlin drags
 * the nozzle along the edge. Nor may anything rise above the build height (a raft raises the model).
 */
export function checkPrintOnBed(bounds: Bounds3, s: SliceSettings, bedReach = 0): void {
  const x0 = s.originCenter ? -s.bedWidth / 2 : 0;
  const y0 = s.originCenter ? -s.bedDepth / 2 : 0;
  const over = s.roundBed
    ? bedReach - s.bedWidth / 2
    : Math.max(x0 - bounds.min[0], y0 - bounds.min[1], bounds.max[0] - (x0 + s.bedWidth), bounds.max[1] - (y0 + s.bedDepth));
  const above = bounds.max[2] - s.bedHeight;
  if (above > 1e-3) {
    const cause = s.adhesionType === 'raft' ? `the raft under the model raises it; choose fewer raftLayers, a smaller raftAirGap, or adhesionType none, skirt or brim` : 'choose a smaller model';
    throw new SliceError(`the print reaches z ${fmt(bounds.max[2])} mm, above the build height of ${s.machineName} (${s.bedHeight} mm): ${cause}`, 'OUT_OF_VOLUME');
  }
  if (!(over > 1e-3)) return;
  const what = s.adhesionType === 'none' ? 'toolpaths' : `${s.adhesionType} (adhesionType)`;
  const bed = s.roundBed ? `a round bed ${s.bedWidth} mm across` : `${s.bedWidth} × ${s.bedDepth} mm`;
  throw new SliceError(
    `the print reaches ${fmt(Math.max(0.1, over))} mm beyond the bed of ${s.machineName} (${bed}): ` +
      `its ${what} around the model does not fit; choose a smaller model, ${ADHESION_FIXES[s.adhesionType]}`,
    'OUT_OF_VOLUME',
  );
}
