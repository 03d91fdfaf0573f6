// The body of a task start (`POST /{ws|stl}/tasks`), checked for shape and normalised. Which files
// exist and whether the presets exist is the task service's part.
import { badRequest } from './errors.js';
import type { ModelTransform } from '../engine/types.js';
import type { OutputFormat, SupportLetter, TaskSettingsEcho } from './model.js';

export interface FileEntry {
  fileId: string;
  /** as the client wrote it; the stored type is what counts */
  type?: string;
  fileName?: string;
  arrayDimensions?: [number, number, number];
  filamentName?: string;
}

export interface StartTaskInput {
  files: FileEntry[];
  settings: TaskSettingsEcho;
  /** legacy versions only: placement of the STL (v0.2 position, scale, rotation) */
  transform?: ModelTransform;
  /** legacy versions only: a task id the caller chose (early clients' uniqueID); in use → URE007 */
  taskId?: string;
}

const SUPPORT_TYPES = ['n', 'e', 'b'] as const;
const MAX_FILES = 64;
/** Voxels along one axis of a point cloud (its total is capped lower, at 16 000 000). */
const MAX_AXIS_COUNT = 1_000_000;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function optionalString(obj: Record<string, unknown>, key: string, where: string): string | undefined {
  const v = obj[key];
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') throw badRequest(`${where}.${key} must be a string`);
  if (v.length > 200) throw badRequest(`${where}.${key} is too long`);
  return v;
}

export function parseDimensions(v: unknown, where: string): [number, number, number] | undefined {
  if (v === undefined || v === null) return undefined;
  if (
    !Array.isArray(v) ||
    v.length !== 3 ||
    !v.every((n) => typeof n === 'number' && Number.isInteger(n) && n > 0)
  ) {
    throw badRequest(`${where ? `${where}.` : ''}arrayDimensions must be three positive whole numbers (x, y, z counts)`);
  }
  // a count this large can never fit the cloud's total (16 000 000 values, checked with the file);
  // said here so that no later product of counts loses precision
  if (v.some((n: number) => n > MAX_AXIS_COUNT)) {
    throw badRequest(`${where ? `${where}.` : ''}arrayDimensions [${v.join(', ')}]: at most ${MAX_AXIS_COUNT.toLocaleString('en-US')} voxels along an axis`);
  }
  return [v[0], v[1], v[2]];
}

function parseFiles(v: unknown): FileEntry[] {
  if (!Array.isArray(v) || v.length === 0) throw badRequest('files must be a non-empty array of file references');
  if (v.length > MAX_FILES) throw badRequest(`a task takes at most ${MAX_FILES} files`);
  return v.map((raw, i) => {
    const where = `files[${i}]`;
    if (!isObject(raw)) throw badRequest(`${where} must be an object with fileId, fileName and type`);
    const fileId = raw.fileId;
    if (typeof fileId !== 'string' || fileId === '') throw badRequest(`${where}.fileId is required`);
    const entry: FileEntry = { fileId };
    const type = optionalString(raw, 'type', where);
    const fileName = optionalString(raw, 'fileName', where);
    const dims = parseDimensions(raw.arrayDimensions, where);
    const filamentName = optionalString(raw, 'filamentName', where);
    if (type !== undefined) entry.type = type;
    if (fileName !== undefined) entry.fileName = fileName;
    if (dims) entry.arrayDimensions = dims;
    if (filamentName !== undefined) entry.filamentName = filamentName;
    return entry;
  });
}

function parseSettings(v: unknown): TaskSettingsEcho {
  if (!isObject(v)) throw badRequest('settings must be an object with printerModel, supportType and filamentPresetName');
  const printerModel = optionalString(v, 'printerModel', 'settings');
  // a blank name is no printer: it must not slice for the default one
  if (!printerModel?.trim()) throw badRequest('settings.printerModel is required: a printer name (`stratum printers` lists them), not a blank');
  // without it, the overrides or the XML configuration may choose (the task service fills it in)
  const rawSupport = optionalString(v, 'supportType', 'settings');
  const settings: TaskSettingsEcho = { printerModel };
  if (rawSupport !== undefined) {
    const supportType = rawSupport.toLowerCase() as SupportLetter;
    if (!SUPPORT_TYPES.includes(supportType)) {
      throw badRequest(`settings.supportType must be n (none), e (everywhere) or b (build plate only), not '${rawSupport}'`);
    }
    settings.supportType = supportType;
  }
  const filament = optionalString(v, 'filamentPresetName', 'settings');
  const quality = optionalString(v, 'qualityPresetName', 'settings');
  const format = optionalString(v, 'outputFormat', 'settings');
  if (filament) settings.filamentPresetName = filament;
  if (quality) settings.qualityPresetName = quality;
  if (format) {
    const upper = format.toUpperCase();
    if (upper !== 'GCODE' && upper !== 'FCODE') throw badRequest(`settings.outputFormat must be GCODE or FCODE`);
    settings.outputFormat = upper as OutputFormat;
  }
  if (v.overrides !== undefined && v.overrides !== null) {
    if (!isObject(v.overrides)) throw badRequest('settings.overrides must be an object of setting names and values');
    settings.overrides = { ...v.overrides };
  }
  return settings;
}

export function parseStartTask(body: unknown): StartTaskInput {
  if (!isObject(body)) throw badRequest('the request body must be a JSON object with files and settings');
  return { files: parseFiles(body.files), settings: parseSettings(body.settings) };
}

export const SUPPORT_TYPE_SETTING: Record<SupportLetter, string> = {
  n: 'none',
  e: 'everywhere',
  b: 'buildplate',
};

/** The letter of a resolved supportType setting (none, everywhere, buildplate): the table above read backwards. */
export function supportLetterOf(setting: string): SupportLetter {
  return (Object.keys(SUPPORT_TYPE_SETTING) as SupportLetter[]).find((letter) => SUPPORT_TYPE_SETTING[letter] === setting) ?? 'n';
}
