// Workspace (.rvwj / .json) → the engine's ModelInput[]. The file's vertices are already in
// absolute bed millimetres (ModelPositions, a triangle list indexed by ModelIndices), so models keep
// their position. Modifiers (SlicingPriority > 0 or a Modifier object) and point-cloud references
// are not geometry to print; until density regions land they are skipped with a warning.
import type { ModelInput } from '../../engine/types.js';
import { isObject, numberProp, prop, stringProp, type JsonObject } from './keys.js';

/** A workspace that cannot be sliced: the message is for the user (task error SF000). */
export class WorkspaceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkspaceError';
  }
}

export interface WorkspaceModifier {
  name: string;
  priority: number;
  /** FillDensityFactor in [0, 1]; undefined for a point-cloud modifier */
  fillDensity?: number;
  /** the PC_SV file name a point-cloud modifier refers to */
  fileReference?: string;
  mesh: ModelInput['mesh'];
}

export interface Workspace {
  models: ModelInput[];
  modifiers: WorkspaceModifier[];
  warnings: string[];
}

export function readWorkspace(bytes: Uint8Array, fileName: string): Workspace {
  let root: unknown;
  try {
    root = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  } catch (err) {
    throw new WorkspaceError(`workspace '${fileName}' is not valid JSON: ${(err as Error).message}`);
  }
  if (!isObject(root)) throw new WorkspaceError(`workspace '${fileName}' must be a JSON object`);
  const list = prop(root, 'models');
  if (!Array.isArray(list)) throw new WorkspaceError(`workspace '${fileName}' has no models array`);

  const out: Workspace = { models: [], modifiers: [], warnings: [] };
  list.forEach((raw, i) => {
    if (!isObject(raw)) throw new WorkspaceError(`model ${i} of workspace '${fileName}' is not an object`);
    const meta = isObject(prop(raw, 'metaData')) ? (prop(raw, 'metaData') as JsonObject) : {};
    const name = stringProp(meta, 'Name') || `model ${i + 1}`;
    const priority = numberProp(meta, 'SlicingPriority') ?? 0;
    const modifier = prop(meta, 'Modifier');
    const mesh = readMesh(raw, name);
    if (priority > 0 || isObject(modifier)) {
      const m: WorkspaceModifier = { name, priority, mesh };
      const density = isObject(modifier) ? numberProp(modifier, 'FillDensityFactor') : undefined;
      const ref = stringProp(meta, 'FileReference');
      if (density !== undefined) m.fillDensity = density;
      if (ref) m.fileReference = ref;
      out.modifiers.push(m);
      out.warnings.push(
        ref
          ? `point-cloud modifier '${name}' (${ref}) is not applied yet; the model is sliced with uniform infill`
          : `modifier '${name}' is not applied yet; the model is sliced with uniform infill`,
      );
      return;
    }
    if (mesh.indices.length === 0) {
      out.warnings.push(`model '${name}' has no triangles and was left out`);
      return;
    }
    out.models.push({ name, mesh, keepPosition: true });
  });
  if (out.models.length === 0) throw new WorkspaceError(`workspace '${fileName}' holds no model to print`);
  return out;
}

function coordinate(v: unknown, i: number, name: string): [number, number, number] {
  let x: unknown, y: unknown, z: unknown;
  if (Array.isArray(v)) [x, y, z] = v;
  else if (isObject(v)) {
    x = v.X ?? v.x ?? prop(v, 'x');
    y = v.Y ?? v.y ?? prop(v, 'y');
    z = v.Z ?? v.z ?? prop(v, 'z');
  }
  if (typeof x !== 'number' || typeof y !== 'number' || typeof z !== 'number' || !isFinite(x + y + z)) {
    throw new WorkspaceError(`model '${name}': ModelPositions[${i}] is not a point with numbers X, Y, Z`);
  }
  return [x, y, z];
}

function readMesh(model: JsonObject, name: string): ModelInput['mesh'] {
  const positions = prop(model, 'ModelPositions');
  if (!Array.isArray(positions)) throw new WorkspaceError(`model '${name}' has no ModelPositions`);
  const pos = new Float32Array(positions.length * 3);
  positions.forEach((p, i) => pos.set(coordinate(p, i, name), i * 3));

  const rawIndices = prop(model, 'ModelIndices');
  let indices: Uint32Array;
  if (Array.isArray(rawIndices) && rawIndices.length > 0) {
    indices = new Uint32Array(rawIndices.length);
    for (let i = 0; i < rawIndices.length; i++) {
      const v = rawIndices[i];
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v >= positions.length) {
        throw new WorkspaceError(`model '${name}': ModelIndices[${i}] does not index ModelPositions`);
      }
      indices[i] = v;
    }
  } else {
    // no indices: the positions themselves are the triangle list
    indices = Uint32Array.from({ length: positions.length }, (_, i) => i);
  }
  if (indices.length % 3 !== 0) {
    throw new WorkspaceError(`model '${name}': ModelIndices holds ${indices.length} entries, not a multiple of 3`);
  }
  return { positions: pos, indices };
}
