// What can be known about a workspace task before slicing, checked at task start so a bad file is
// answered at once (URE000) rather than as a failed task: modifiers' point-cloud references name a
// PC_SV file of the task, a point-cloud modifier encloses the models it touches, and the filament that
// maps its hardness has a Shore table.
import { DEFAULT_FILAMENT, ProfileError, getFilament, type FilamentPreset } from '../../profiles/index.js';
import { cloudMatches } from './model-inputs.js';
import type { Dims } from './point-cloud.js';
import type { Workspace, WorkspaceModifier } from './read-workspace.js';
import { WorkspaceError } from './workspace-error.js';

/** A PC_SV file as the task lists it. */
export interface PointCloudEntry {
  fileName: string;
  arrayDimensions: Dims;
  filamentName?: string;
}

/** A model may touch its point-cloud modifier's box within this much (mm) and still count as enclosed. */
const ENCLOSE_TOLERANCE_MM = 0.01;

export function checkWorkspace(ws: Workspace, clouds: PointCloudEntry[], taskFilament: string | undefined): { warnings: string[] } {
  const warnings: string[] = [];
  const used = new Set<PointCloudEntry>();
  for (const m of ws.modifiers) {
    if (m.fileReference === undefined) {
      if (!ws.placed.some((p) => overlaps(p.box, m.box))) warnings.push(`modifier '${m.name}' (${m.path}) touches no model and changes nothing`);
      continue;
    }
    const matches = cloudMatches(clouds, m.fileReference);
    if (matches.length > 1) {
      throw new WorkspaceError(
        `${m.path}.metaData.FileReference names '${m.fileReference}', which matches the task's PC_SV files ${matches.map((c) => `'${c.fileName}'`).join(' and ')} only ignoring letter case: name one exactly`,
        `${m.path}.metaData.FileReference`,
      );
    }
    const cloud = matches[0];
    if (!cloud) {
      const names = clouds.map((c) => `'${c.fileName}'`).join(', ') || 'none';
      throw new WorkspaceError(
        `${m.path}.metaData.FileReference names '${m.fileReference}', but the task has no PC_SV file of that name (its PC_SV files: ${names})`,
        `${m.path}.metaData.FileReference`,
      );
    }
    used.add(cloud);
    checkEncloses(m, ws);
    filamentFor(cloud, taskFilament);
  }
  for (const c of clouds) {
    if (used.has(c)) continue;
    // a filament name that names nothing is the client's mistake whether or not the cloud is used
    if (c.filamentName !== undefined) getFilament(c.filamentName);
    warnings.push(`point cloud '${c.fileName}' is referenced by no modifier and takes no part in slicing`);
  }
  return { warnings };
}

/** The preset that maps a cloud's hardness: its own filamentName, else the task's filament. */
export function filamentFor(cloud: { fileName: string; filamentName?: string }, taskFilament: string | undefined): FilamentPreset {
  const preset = getFilament(cloud.filamentName ?? taskFilament ?? DEFAULT_FILAMENT);
  if (!preset.shoreToDensity || preset.shoreToDensity.length === 0) {
    throw new ProfileError(
      'NO_SHORE_TABLE',
      `filament ${preset.name} has no Shore calibration table, so point cloud '${cloud.fileName}' cannot be mapped to infill density: name a filament with one (filamentName of the PC_SV entry; see \`stratum filaments\`)`,
    );
  }
  return preset;
}

/** A point-cloud modifier must fully enclose every model it touches (interface P1), and touch one. */
function checkEncloses(m: WorkspaceModifier, ws: Workspace): void {
  const touched = ws.placed.filter((p) => overlaps(p.box, m.box));
  if (touched.length === 0) {
    throw new WorkspaceError(`point-cloud modifier '${m.name}' (${m.path}) does not enclose any model: its box ${boxText(m.box)} touches none`, m.path);
  }
  for (const p of touched) {
    const inside = [0, 1, 2].every(
      (a) => p.box.min[a]! >= m.box.min[a]! - ENCLOSE_TOLERANCE_MM && p.box.max[a]! <= m.box.max[a]! + ENCLOSE_TOLERANCE_MM,
    );
    if (!inside) {
      throw new WorkspaceError(
        `point-cloud modifier '${m.name}' (${m.path}) does not enclose model '${p.input.name}' (${p.path}): modifier box ${boxText(m.box)}, model box ${boxText(p.box)}`,
        m.path,
      );
    }
  }
}

type Box = { min: [number, number, number]; max: [number, number, number] };

function overlaps(a: Box, b: Box): boolean {
  return [0, 1, 2].every((i) => a.min[i]! < b.max[i]! && b.min[i]! < a.max[i]!);
}

function boxText(b: Box): string {
  const f = (p: number[]) => p.map((v) => Math.round(v * 100) / 100).join(', ');
  return `(${f(b.min)})…(${f(b.max)})`;
}
