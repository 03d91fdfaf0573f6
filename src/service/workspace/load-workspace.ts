// The worker's side of a workspace task: the parsed file plus its point clouds, as engine input.
import type { ModelInput } from '../../engine/types.js';
import type { PointCloudRef } from '../model.js';
import { checkWorkspace, filamentFor, type PointCloudEntry } from './check-workspace.js';
import { modelInputsOf, type LoadedPointCloud } from './model-inputs.js';
import { readWorkspace, type WorkspaceModel } from './read-workspace.js';

export async function loadWorkspace(
  bytes: Uint8Array,
  fileName: string,
  clouds: PointCloudRef[],
  taskFilament: string | undefined,
  read: (blobKey: string, what: string) => Promise<Uint8Array>,
): Promise<{ models: ModelInput[]; placed: WorkspaceModel[]; warnings: string[] }> {
  const ws = readWorkspace(bytes, fileName);
  // the task start's checks again: a workspace too large to check at start (check-workspace-task.ts)
  // meets them only here, and one that was checked passes them the same way
  const entries: PointCloudEntry[] = clouds.map((c) => ({
    fileName: c.fileName,
    arrayDimensions: c.arrayDimensions,
    ...(c.filament ? { filamentName: c.filament } : {}),
  }));
  const checked = checkWorkspace(ws, entries, taskFilament);
  const referenced = new Set(ws.modifiers.map((m) => m.fileReference?.toLowerCase()).filter((r) => r !== undefined));
  const loaded: LoadedPointCloud[] = [];
  for (const c of clouds) {
    if (!referenced.has(c.fileName.toLowerCase())) continue; // unreferenced clouds are not read
    const filament = filamentFor({ fileName: c.fileName, ...(c.filament ? { filamentName: c.filament } : {}) }, taskFilament);
    const bytes = await read(c.blobKey, `point cloud '${c.fileName}'`);
    loaded.push({ fileName: c.fileName, dims: c.arrayDimensions, bytes, filament });
  }
  const { inputs, warnings } = modelInputsOf(ws, loaded);
  return { models: inputs, placed: ws.placed, warnings: [...ws.warnings, ...checked.warnings, ...warnings] };
}
