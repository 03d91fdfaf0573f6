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
  for (const p of placed) {
    const out = [0, 1, 2].some((a) => p.box.min[a]! < lo[a]! - EPS_MM || p.box.max[a]! > hi[a]! + EPS_MM);
    if (!out) continue;
    const f = (v: number[]) => v.map((c) => c.toFixed(1)).join(', ');
    throw new WorkspaceError(
      `model '${p.input.name}' (${p.path}) lies outside the build volume of ${s.machineName}: it spans (${f(p.box.min)})…(${f(p.box.max)}) mm, the printer (${f(lo)})…(${f(hi)}) mm`,
      p.path,
    );
  }
}
