// `stratum slice WORKSPACE.json`: a Workspace file (several placed models, modifiers, point-cloud
// modifiers) sliced on this machine as the service slices a workspace task, with the same reading,
// checks and placement (src/service/workspace/). Point clouds come from files named with
// --pointcloud FILE:NX,NY,NZ[:FILAMENT]; a modifier's FileReference names the file by its base name.
import { basename } from 'node:path';
import { initGeometry, slice, type SliceSettings } from '../engine/index.js';
import { loadWorkspace } from '../service/workspace/load-workspace.js';
import { checkModelsOnBed } from '../service/workspace/on-bed.js';
import type { PointCloudRef } from '../service/model.js';
import { readInputFile } from './read-input.js';
import type { SliceOpts, ThreadResult } from './slice-thread.js';
import type { CloudArg } from './workspace-input.js';

export async function sliceWorkspaceInProcess(
  bytes: Uint8Array,
  name: string,
  settings: SliceSettings,
  opts: SliceOpts,
  clouds: readonly CloudArg[],
  filament: string | undefined,
): Promise<ThreadResult> {
  const refs: PointCloudRef[] = clouds.map((c) => ({
    fileName: basename(c.path),
    arrayDimensions: c.dims,
    // the file's path stands where the service has its blob's key
    blobKey: c.path,
    ...(c.filament ? { filament: c.filament } : {}),
  }));
  const ws = await loadWorkspace(bytes, name, refs, filament, (path) => readInputFile(path)).catch((err: unknown) => {
    // the service's words for a task's files; here they are the command's --pointcloud values
    if (err instanceof Error && /but the task has no PC_SV file of that name/.test(err.message)) {
      err.message = `${err.message.replace(/the task has no PC_SV file of that name \(its PC_SV files: ([^)]*)\)/, 'no --pointcloud file has that name (given: $1)')}; add --pointcloud FILE:NX,NY,NZ`;
    }
    throw err;
  });
  checkModelsOnBed(ws.placed, settings);
  await initGeometry();
  const result = await slice(ws.models, settings, opts);
  const triangles = ws.models.filter((m) => m.role !== 'modifier').reduce((sum, m) => sum + m.mesh.indices.length / 3, 0);
  return { ...result, triangles, parseWarnings: ws.warnings };
}
