// Every workspace model must lie inside the printer's build volume (interface 2.6). Checked per model
// so the failed task names the one that is off the bed, not just "the models".
import type { SliceSettings } from '../../engine/settings.js';
import type { WorkspaceModel } from './read-workspace.js';
import { WorkspaceError } from './workspace-error.js';

const EPS_MM = 1e-3;

export function checkModelsOnBed(
  placed: WorkspaceModel[],
  s: Pick<SliceSettings, 'bedWidth' | 'bedDepth' | 'bedHeight' | 'originCenter' | 'machineName'>,
): void {
  const x0 = s.originCenter ? -s.bedWidth / 2 : 0;
  const y0 = s.originCenter ? -s.bedDepth / 2 : 0;
  const lo = [x0, y0, 0];
  const hi = [x0 + s.bedWidth, y0 + s.bedDepth, s.bedHeight];
  // the engine sets the lowest model on the bed, all models moving together in z (place.ts): a
  // floating job is lowered, not refused, so heights are checked as they will print
  const dz = placed.length > 0 ? -Math.min(...placed.map((p) => p.box.min[2])) : 0;
  for (const p of placed) {
    const min = [p.box.min[0], p.box.min[1], p.box.min[2] + dz];
    const max = [p.box.max[0], p.box.max[1], p.box.max[2] + dz];
    const out = [0, 1, 2].some((a) => min[a]! < lo[a]! - EPS_MM || max[a]! > hi[a]! + EPS_MM);
    if (!out) continue;
    const f = (v: number[]) => v.map((c) => c.toFixed(1)).join(', ');
    const moved = Math.abs(dz) > EPS_MM ? ` once the models are ${dz < 0 ? 'lowered' : 'raised'} ${Math.abs(dz).toFixed(1)} mm onto the bed` : '';
    throw new WorkspaceError(
      `model '${p.input.name}' (${p.path}) lies outside the build volume of ${s.machineName}: it spans (${f(min)})…(${f(max)}) mm${moved}, the printer (${f(lo)})…(${f(hi)}) mm`,
      p.path,
    );
  }
}
