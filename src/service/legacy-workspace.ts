// Inline workspaces of the legacy versions (v0.1 `file.wsconfigs`, the `configfile` of both):
// `WsConfigs` arrives as a JSON object or as a string holding its JSON; either way it is stored as
// an uploaded file, so the task service treats it like any upload.
import { Readable } from 'node:stream';
import { ApiError, badRequest } from './errors.js';
import type { FileService } from './file-service.js';
import { field, fold, isObject, requiredText } from './legacy-keys.js';
import type { FileRecord } from './model.js';

export interface InlineWorkspace {
  fileName: string;
  bytes: Buffer;
}

/**
 * Reads `{FileName, WsConfigs}` (any key casing). undefined when the whole value is absent or ''
 * (clients send `"configFile": ""` when unused). URE001 for a name that is not .rvwj (or .json),
 * URE004 for empty contents, URE000 for contents that are not a JSON object.
 */
export function readInlineWorkspace(value: unknown, where: string): InlineWorkspace | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (!isObject(value)) throw badRequest(`${where} must be an object with FileName and WsConfigs`);
  const f = fold(value);
  const fileName = requiredText(f, 'filename').trim();
  if (!/\.(rvwj|json)$/i.test(fileName)) throw new ApiError('URE001', `${where}.FileName '${fileName.slice(0, 80)}': a Workspace file (.rvwj or .json) is required`);
  const raw = field(f, 'wsconfigs');
  // a large body's workspaces were turned into their text on a worker thread (api/legacy/large-body.ts)
  const bytes = raw instanceof Uint8Array ? Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength) : workspaceText(raw, where);
  return { fileName, bytes };
}

/**
 * The workspace's JSON text from a `WsConfigs` value: a JSON object, or a string holding one.
 * URE004 for empty contents, URE000 for contents that are not a JSON object.
 */
export function workspaceText(raw: unknown, where: string): Buffer {
  if (raw === undefined || raw === null || raw === '' || (isObject(raw) && Object.keys(raw).length === 0)) {
    throw new ApiError('URE004', `${where}.WsConfigs is empty: the workspace contents are required`);
  }
  let text: string;
  if (typeof raw === 'string') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch (err) {
      throw badRequest(`${where}.WsConfigs is not valid JSON: ${(err as Error).message}`);
    }
    if (!isObject(parsed)) throw badRequest(`${where}.WsConfigs must hold a JSON object (the workspace)`);
    if (Object.keys(parsed).length === 0) throw new ApiError('URE004', `${where}.WsConfigs is empty: the workspace contents are required`);
    text = raw;
  } else if (isObject(raw)) {
    text = JSON.stringify(raw);
  } else {
    throw badRequest(`${where}.WsConfigs must be the workspace as a JSON object or a string holding it`);
  }
  return Buffer.from(text, 'utf8');
}

/** Stores the workspace as the caller's upload of the given type (WS to slice, EXTRA to keep). */
export async function storeInlineWorkspace(files: FileService, accountId: string, ws: InlineWorkspace, type: 'WS' | 'EXTRA'): Promise<FileRecord> {
  const target = files.checkUpload(type, ws.fileName);
  return files.upload(accountId, target, Readable.from([ws.bytes]));
}
