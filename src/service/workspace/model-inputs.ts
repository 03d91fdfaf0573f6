// The engine's input for a checked workspace: the printed models, then every modifier as a
// ModelInput with role 'modifier' (a density factor, or a density field from its point cloud).
import type { ModelInput } from '../../engine/types.js';
import type { FilamentPreset } from '../../profiles/index.js';
import { densityFieldOf, readPointCloud, type Dims } from './point-cloud.js';
import type { Workspace } from './read-workspace.js';
import { WorkspaceError } from './workspace-error.js';

/** A PC_SV file of the task, its bytes already read. */
export interface LoadedPointCloud {
  fileName: string;
  dims: Dims;
  bytes: Uint8Array;
  filament: Pick<FilamentPreset, 'name' | 'shoreToDensity'>;
}

export function modelInputsOf(ws: Workspace, clouds: LoadedPointCloud[]): { inputs: ModelInput[]; warnings: string[] } {
  const inputs: ModelInput[] = [...ws.models];
  const warnings: string[] = [];
  for (const m of ws.modifiers) {
    const input: ModelInput = {
      name: m.name,
      mesh: m.mesh,
      keepPosition: true,
      role: 'modifier',
      modifier: { densityFactor: m.fillDensity ?? 1, priority: m.priority },
    };
    if (m.fileReference !== undefined) {
      const cloud = findCloud(clouds, m.fileReference);
      if (!cloud) {
        throw new WorkspaceError(`modifier '${m.name}' (${m.path}) refers to point cloud '${m.fileReference}', which is not among the task's PC_SV files`);
      }
      const values = readPointCloud(cloud.bytes, cloud.dims, cloud.fileName);
      const d = densityFieldOf(values, cloud.dims, m.box, cloud.filament);
      input.densityField = d.field;
      if (d.clamped > 0) {
        warnings.push(
          `point cloud '${cloud.fileName}': ${d.clamped} of ${values.length} hardness values (range ${d.minShore}…${d.maxShore}) lie outside ${cloud.filament.name}'s calibration table and were clamped`,
        );
      }
    }
    inputs.push(input);
  }
  return { inputs, warnings };
}

/** FileReference is the PC_SV upload's file name: exact match first, then ignoring case and Unicode form. */
export function findCloud<T extends { fileName: string }>(clouds: T[], ref: string): T | undefined {
  const found = cloudMatches(clouds, ref);
  return found.length === 1 ? found[0] : undefined;
}

/**
 * The clouds a FileReference may mean: the one of exactly its name, else all of its name in another
 * case or Unicode form (macOS writes `é` as e + U+0301 where others write one character: the two
 * names look the same).
 */
export function cloudMatches<T extends { fileName: string }>(clouds: T[], ref: string): T[] {
  const exact = clouds.find((c) => c.fileName === ref);
  if (exact) return [exact];
  const loose = (name: string) => name.normalize('NFC').toLowerCase();
  const wanted = loose(ref);
  return clouds.filter((c) => loose(c.fileName) === wanted);
}
