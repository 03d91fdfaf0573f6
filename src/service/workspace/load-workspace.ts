// The worker's side of a workspace task: the parsed file plus its point clouds, as engine input.
import type { ModelInput } from '../../engine/types.js';
import type { PointCloudRef } from '../model.js';
import { filamentFor } from './check-workspace.js';
import { modelInputsOf, type LoadedPointCloud } from './model-inputs.js';
import { readWorkspace, type WorkspaceModel } from './read-workspace.js';

/**
 * Whether the engine applies role 'modifier' inputs (issue 4). Until it does, modifiers are left out
 * with a warning: an engine that does not know the role would print them as solid parts.
 */
export const ENGINE_APPLIES_MODIFIERS = false;

export async function loadWorkspace(
  bytes: Uint8Array,
  fileName: string,
  clouds: PointCloudRef[],
  taskFilament: string | undefined,
  read: (blobKey: string, what: string) => Promise<Uint8Array>,
): Promise<{ models: ModelInput[]; placed: WorkspaceModel[]; warnings: string[] }> {
  const ws = readWorkspace(bytes, fileName);
  const referenced = new Set(ws.modifiers.map((m) => m.fileReference?.toLowerCase()).filter((r) => r !== undefined));
  const loaded: LoadedPointCloud[] = [];
  for (const c of clouds) {
    if (!referenced.has(c.fileName.toLowerCase())) continue; // unreferenced clouds are not read
    const filament = filamentFor({ fileName: c.fileName, ...(c.filament ? { filamentName: c.filament } : {}) }, taskFilament);
    const bytes = await read(c.blobKey, `point cloud '${c.fileName}'`);
    loaded.push({ fileName: c.fileName, dims: c.arrayDimensions, bytes, filament });
  }
  const { inputs, warnings } = modelInputsOf(ws, loaded);
  if (!ENGINE_APPLIES_MODIFIERS && ws.modifiers.length > 0) {
    for (const m of ws.modifiers) {
      warnings.push(`modifier '${m.name}' was checked but is not applied yet (this engine build has no density regions): uniform infill`);
    }
    return { models: inputs.filter((m) => m.role !== 'modifier'), placed: ws.placed, warnings: [...ws.warnings, ...warnings] };
  }
  return { models: inputs, placed: ws.placed, warnings: [...ws.warnings, ...warnings] };
}
