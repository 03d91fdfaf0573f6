// What an upload's type and name must look like, checked before a byte of the body is read.
import { ApiError, badRequest } from './errors.js';
import { NAME_CONTROL } from '../engine/output/comment-text.js';

export const KNOWN_FILE_TYPES = ['WS', 'PC_SV', 'PC_DE', 'XML', 'STL', 'EXTRA'] as const;

/** Caller-named extra types ("SNAPSHOT", "notes-v2"): a short plain word. */
const CUSTOM_TYPE = /^[A-Za-z0-9_-]{1,32}$/;
const MAX_NAME_BYTES = 255;

/** Known types in upper case; anything else must be a plain word and is kept as sent. */
export function normaliseFileType(raw: string): string {
  const upper = raw.toUpperCase();
  if ((KNOWN_FILE_TYPES as readonly string[]).includes(upper)) return upper;
  if (!CUSTOM_TYPE.test(raw)) {
    throw badRequest(`'${raw.slice(0, 40)}' is not a file type: use WS, PC_SV, PC_DE, XML, STL, EXTRA or a plain word`);
  }
  return raw;
}

/** A file name is a name, never a path: the interface echoes it and downloads derive theirs from it. */
export function checkFileName(name: string): void {
  if (name.length === 0) throw badRequest('the file name is empty');
  if (Buffer.byteLength(name, 'utf8') > MAX_NAME_BYTES) {
    throw badRequest(`the file name is longer than ${MAX_NAME_BYTES} bytes`);
  }
  if (name.includes('/') || name.includes('\\')) throw badRequest('the file name must not contain a path separator');
  if (NAME_CONTROL.test(name)) throw badRequest('the file name must not contain control characters (line breaks, bidirectional overrides)');
  if (name === '.' || name === '..') throw badRequest(`'${name}' is not a file name`);
}

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

export const MODEL_EXTENSIONS = ['stl', 'obj', '3mf'];

/** The extension rules of the interface's error codes (URE001 for workspaces, URE002 for XML). */
export function checkExtension(type: string, name: string): void {
  const ext = extensionOf(name);
  if (type === 'WS' && ext !== 'rvwj' && ext !== 'json') {
    throw new ApiError('URE001', `'${name}': a Workspace file (.rvwj or .json) is required`);
  }
  if (type === 'XML' && ext !== 'xml') {
    throw new ApiError('URE002', `'${name}': a configuration file must have the extension .xml`);
  }
  if (type === 'STL' && !MODEL_EXTENSIONS.includes(ext)) {
    throw badRequest(`'${name}': an STL model (.stl; .obj and .3mf are read too) is required`);
  }
}

/** "benchy.rvwj" → "benchy" (the output is named after its input). */
export function baseName(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

/**
 * The printer file's name: the input's base name with `ext`, its base cut (at a character, never
 * inside one) so the whole stays within the 255 bytes a name may have: a 255-byte `….stl` would
 * otherwise give a 257-byte `….gcode`, which no common file system can save.
 */
export function outputFileName(inputName: string, ext: '.gcode' | '.fcode'): string {
  const chars = Array.from(baseName(inputName));
  const room = MAX_NAME_BYTES - Buffer.byteLength(ext);
  let bytes = Buffer.byteLength(chars.join(''));
  while (bytes > room) bytes -= Buffer.byteLength(chars.pop()!);
  return chars.join('') + ext;
}
