// Workspace (.rvwj / .json) → the models to print and the modifiers. The file's vertices are already
// in absolute bed millimetres (ModelPositions, a triangle list indexed by ModelIndices), so models
// keep their position. Every key is accepted in either casing; every value is checked, and a problem
// is reported with its JSON path as the file spells it (`Models[1].ModelIndices[42] …`).
import { describeValue } from '../../profiles/describe-value.js';
import type { Mesh, ModelInput } from '../../engine/types.js';
import { NAME_CONTROL } from '../../engine/output/comment-text.js';
import { caseTwin, isObject, keyName, prop, type JsonObject } from './keys.js';
import { meshBox, readMesh, readPoint, weldMesh } from './read-mesh.js';
import { WorkspaceError, failAt } from './workspace-error.js';

export { WorkspaceError } from './workspace-error.js';

const MAX_MODELS = 1000;

export interface WorkspaceModifier {
  name: string;
  /** JSON path of the entry, for messages (`Models[2]`) */
  path: string;
  priority: number;
  /** FillDensityFactor in [0, 1]; undefined for a point-cloud modifier */
  fillDensity?: number;
  /** the PC_SV file name a point-cloud modifier refers to */
  fileReference?: string;
  mesh: Mesh;
  box: { min: [number, number, number]; max: [number, number, number] };
}

export interface WorkspaceModel {
  input: ModelInput;
  path: string;
  box: { min: [number, number, number]; max: [number, number, number] };
}

export interface Workspace {
  /** the models to print, in file order */
  models: ModelInput[];
  /** the same with their JSON path and bounds */
  placed: WorkspaceModel[];
  modifiers: WorkspaceModifier[];
  warnings: string[];
}

/**
 * The file's text: UTF-8, with or without a byte-order mark, or UTF-16 with one (.NET's
 * Encoding.UTF8 and Encoding.Unicode write them; JSON.parse refuses a mark as an unexpected token).
 */
export function workspaceText(bytes: Uint8Array): string {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return b.toString('utf8', 3);
  if (b[0] === 0xff && b[1] === 0xfe) return b.toString('utf16le', 2);
  if (b[0] === 0xfe && b[1] === 0xff) {
    // big-endian: swapped into a copy (swap16 wants an even length; a stray last byte is dropped)
    const be = Buffer.from(b.subarray(2, 2 + ((b.length - 2) & ~1)));
    return be.swap16().toString('utf16le');
  }
  return b.toString('utf8');
}

export function readWorkspace(bytes: Uint8Array, fileName: string): Workspace {
  let root: unknown;
  try {
    root = JSON.parse(workspaceText(bytes));
  } catch (err) {
    throw new WorkspaceError(`workspace '${fileName}' is not valid JSON: ${(err as Error).message}`);
  }
  if (!isObject(root)) throw new WorkspaceError(`workspace '${fileName}' must be a JSON object`);
  const rootTwin = caseTwin(root, ROOT_KEYS);
  if (rootTwin) throw new WorkspaceError(`workspace '${fileName}' has both '${rootTwin[0]}' and '${rootTwin[1]}': ${TWIN_PROBLEM}`, rootTwin[0]);
  const modelsKey = keyName(root, 'Models');
  const list = prop(root, 'Models');
  if (list === undefined) throw new WorkspaceError(`workspace '${fileName}' has no models array (Models)`, 'Models');
  if (!Array.isArray(list)) failAt(modelsKey, 'must be an array of models');
  if (list.length > MAX_MODELS) failAt(modelsKey, `holds ${list.length} models, more than ${MAX_MODELS}`);

  const out: Workspace = { models: [], placed: [], modifiers: [], warnings: [] };
  list.forEach((raw, i) => readEntry(raw, `${modelsKey}[${i}]`, i, out));
  if (out.models.length === 0) throw new WorkspaceError(`workspace '${fileName}' holds no model to print`);
  return out;
}

/** The keys read at each level: one of them in two casings is refused (lookups ignore case). */
const ROOT_KEYS = ['Models'];
const ENTRY_KEYS = ['metaData', 'ModelPositions', 'ModelIndices', 'BoundsPositions', 'BoundsIndices', 'position', 'scale', 'rotationX', 'rotationY', 'rotationZ', 'FlipedX', 'FlipedY', 'FlipedZ'];
const META_KEYS = ['Name', 'SlicingPriority', 'Modifier', 'FileReference'];
const MODIFIER_KEYS = ['FillDensityFactor'];

const TWIN_PROBLEM = 'one key in two casings, and which one counts would be a guess';

function refuseCaseTwins(obj: JsonObject, keys: readonly string[], at: string): void {
  const twin = caseTwin(obj, keys);
  if (twin) failAt(at, `has both '${twin[0]}' and '${twin[1]}': ${TWIN_PROBLEM}`);
}

function readEntry(raw: unknown, at: string, i: number, out: Workspace): void {
  if (!isObject(raw)) failAt(at, 'is not an object');
  refuseCaseTwins(raw, ENTRY_KEYS, at);
  const metaKey = keyName(raw, 'metaData');
  const rawMeta = prop(raw, 'metaData');
  if (rawMeta !== undefined && rawMeta !== null && !isObject(rawMeta)) failAt(`${at}.${metaKey}`, 'must be an object');
  const meta: JsonObject = isObject(rawMeta) ? rawMeta : {};
  const metaAt = `${at}.${metaKey}`;
  refuseCaseTwins(meta, META_KEYS, metaAt);
  const name = readName(meta, metaAt) || `model ${i + 1}`;
  const priority = readPriority(meta, metaAt);
  const modifierKey = keyName(meta, 'Modifier');
  const modifier = prop(meta, 'Modifier');
  if (modifier !== undefined && modifier !== null && !isObject(modifier)) failAt(`${metaAt}.${modifierKey}`, 'must be an object');
  if (isObject(modifier)) refuseCaseTwins(modifier, MODIFIER_KEYS, `${metaAt}.${modifierKey}`);
  const fileReference = optionalString(meta, 'FileReference', metaAt);
  if (fileReference !== undefined && Buffer.byteLength(fileReference) > MAX_FILE_REFERENCE_BYTES) {
    // not echoed: it names an uploaded file, and no file name is that long
    failAt(`${metaAt}.${keyName(meta, 'FileReference')}`, `is ${Buffer.byteLength(fileReference)} bytes long: it names an uploaded PC_SV file, and file names are at most ${MAX_FILE_REFERENCE_BYTES} bytes`);
  }
  checkLegacyTransform(raw, at, name, out.warnings);
  readBounds(raw, at);
  const mesh = weldMesh(readMesh(raw, at, 'ModelPositions', 'ModelIndices'), name, at, out.warnings);

  const isModifier = priority > 0 || isObject(modifier) || fileReference !== undefined;
  if (!isModifier) {
    if (mesh.indices.length === 0) {
      out.warnings.push(`model '${name}' (${at}) has no triangles and was left out`);
      return;
    }
    const input: ModelInput = { name, mesh, keepPosition: true };
    out.models.push(input);
    out.placed.push({ input, path: at, box: meshBox(mesh) });
    return;
  }
  // The public generator rejects a modifier missing its priority or its Modifier object.
  if (priority <= 0) failAt(`${metaAt}.SlicingPriority`, `must be above 0 for modifier '${name}' (it has a Modifier object or a FileReference)`);
  if (!isObject(modifier)) failAt(`${metaAt}.${modifierKey}`, `is missing: modifier '${name}' has SlicingPriority ${priority} but no Modifier object`);
  if (mesh.indices.length === 0) failAt(`${at}.${keyName(raw, 'ModelPositions')}`, `holds no triangle: modifier '${name}' has no volume`);
  const densityKey = keyName(modifier, 'FillDensityFactor');
  const density = prop(modifier, 'FillDensityFactor');
  // the interface gives a modifier one setting; a client that sends more is told it had no effect
  const others = Object.keys(modifier).filter((k) => k.toLowerCase() !== 'filldensityfactor');
  if (others.length > 0) {
    const listed = others.slice(0, 5).map((k) => `'${k.slice(0, 40).replace(/[\u0000-\u001f\u007f]/g, '?')}'`).join(', ') + (others.length > 5 ? ` and ${others.length - 5} more` : '');
    out.warnings.push(`modifier '${name}': ${metaAt}.${modifierKey} sets ${listed}, which a modifier cannot change (only FillDensityFactor): ignored`);
  }
  const m: WorkspaceModifier = { name, path: at, priority, mesh, box: meshBox(mesh) };
  if (density !== undefined && density !== null) {
    if (typeof density !== 'number' || !Number.isFinite(density) || density < 0 || density > 1) {
      failAt(`${metaAt}.${modifierKey}.${densityKey}`, `must be a number from 0 (no infill) to 1 (solid), not ${describeValue(density)}`);
    }
    if (fileReference !== undefined) failAt(`${metaAt}.${modifierKey}.${densityKey}`, `and FileReference exclude each other: modifier '${name}' takes one or the other`);
    m.fillDensity = density;
  } else if (fileReference === undefined) {
    failAt(`${metaAt}.${modifierKey}`, `of modifier '${name}' sets neither FillDensityFactor nor (beside it) a FileReference to a point cloud`);
  } else {
    m.fileReference = fileReference;
  }
  out.modifiers.push(m);
}

/** Longest model name taken (a file name's limit on most file systems). */
const MAX_NAME = 255;

/** metaData.Name: it names the model in messages and in the G-code's `;MESH:` comments. */
function readName(meta: JsonObject, at: string): string | undefined {
  const name = optionalString(meta, 'Name', at);
  if (name === undefined) return undefined;
  const where = `${at}.${keyName(meta, 'Name')}`;
  if (NAME_CONTROL.test(name)) failAt(where, 'must be one line without control characters');
  if (name.length > MAX_NAME) failAt(where, `must be at most ${MAX_NAME} characters, not ${name.length}`);
  return name;
}

function optionalString(obj: JsonObject, key: string, at: string): string | undefined {
  const v = prop(obj, key);
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') failAt(`${at}.${keyName(obj, key)}`, 'must be a string');
  return v === '' ? undefined : v;
}

/** The highest SlicingPriority (modifiers are ordered by it; no file needs more). */
export const MAX_PRIORITY = 1_000_000;
/** A FileReference names an uploaded file, whose name is at most this many bytes of UTF-8. */
const MAX_FILE_REFERENCE_BYTES = 255;

/** SlicingPriority: absent in 2019 files (= 0); otherwise a whole number from 0 to MAX_PRIORITY. */
function readPriority(meta: JsonObject, at: string): number {
  const v = prop(meta, 'SlicingPriority');
  if (v === undefined || v === null) return 0;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > MAX_PRIORITY) {
    failAt(`${at}.${keyName(meta, 'SlicingPriority')}`, `must be a whole number from 0 to ${MAX_PRIORITY}, not ${describeValue(v)}`);
  }
  return v;
}

/** The convex hull may be a placeholder (one point, index [0]); what is there must still be sound. */
function readBounds(model: JsonObject, at: string): void {
  const pKey = keyName(model, 'BoundsPositions');
  const points = prop(model, 'BoundsPositions');
  if (points === undefined || points === null) return;
  if (!Array.isArray(points)) failAt(`${at}.${pKey}`, 'must be an array of points');
  points.forEach((p, j) => readPoint(p, `${at}.${pKey}[${j}]`));
  const iKey = keyName(model, 'BoundsIndices');
  const indices = prop(model, 'BoundsIndices');
  if (indices === undefined || indices === null) return;
  if (!Array.isArray(indices)) failAt(`${at}.${iKey}`, 'must be an array of point indices');
  indices.forEach((v, j) => {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v >= Math.max(points.length, 1)) {
      failAt(`${at}.${iKey}[${j}]`, `is ${describeValue(v)}: not an index into ${pKey}`);
    }
  });
}

/** position/scale/rotation/Fliped* stay at identity in real files; vertices already carry any transform. */
function checkLegacyTransform(model: JsonObject, at: string, name: string, warnings: string[]): void {
  const identity: Array<[string, number]> = [['position', 0], ['scale', 1]];
  for (const [key, neutral] of identity) {
    const v = prop(model, key);
    if (v === undefined || v === null) continue;
    const p = readPoint(v, `${at}.${keyName(model, key)}`, key === 'scale' ? '' : ' mm');
    if (p.some((c) => c !== neutral)) warnings.push(`model '${name}': ${at}.${keyName(model, key)} is ignored (vertices are already placed)`);
  }
  for (const key of ['rotationX', 'rotationY', 'rotationZ']) {
    const v = prop(model, key);
    if (v === undefined || v === null) continue;
    if (typeof v !== 'number' || !Number.isFinite(v)) failAt(`${at}.${keyName(model, key)}`, 'must be a finite number');
    if (v !== 0) warnings.push(`model '${name}': ${at}.${keyName(model, key)} is ignored (vertices are already placed)`);
  }
  for (const key of ['FlipedX', 'FlipedY', 'FlipedZ']) {
    const v = prop(model, key);
    if (v !== undefined && v !== null && typeof v !== 'boolean') failAt(`${at}.${keyName(model, key)}`, 'must be true or false');
    if (v === true) warnings.push(`model '${name}': ${at}.${keyName(model, key)} is ignored (vertices are already placed)`);
  }
}
