// The body of a legacy request with its inline workspaces taken out as text: what a worker thread
// hands back to the HTTP thread for a large body (large-body.ts). `file.WsConfigs` and
// `configfile.WsConfigs` (any key casing, first spelling wins as in legacy-keys.ts) become the
// workspace's JSON text as bytes, checked by readInlineWorkspace itself; every other field
// stays as sent, and together they must stay small.
import { ApiError } from '../../service/errors.js';
import { isObject } from '../../service/legacy-keys.js';
import { readInlineWorkspace } from '../../service/legacy-workspace.js';
import { checkLegacyDepth } from './json-depth.js';
import { parseGuarded } from '../json-guard.js';

/** What the fields other than the workspaces may weigh, as JSON. */
export const MAX_OTHER_FIELDS_BYTES = 1024 * 1024;

const WORKSPACE_HOLDERS = ['file', 'configfile'];

export interface LightBody {
  body: unknown;
  /** the buffers of the workspace texts in `body` (to transfer between threads) */
  buffers: ArrayBuffer[];
}

export function lightBody(text: string): LightBody {
  checkLegacyDepth(text);
  const body = parseGuarded(text);
  const buffers: ArrayBuffer[] = [];
  if (!isObject(body)) return { body, buffers };
  const seen = new Set<string>();
  for (const key of Object.keys(body)) {
    const lower = key.toLowerCase();
    if (!WORKSPACE_HOLDERS.includes(lower)) continue;
    if (seen.has(lower)) {
      // a second spelling is never read (legacy-keys.ts): not worth carrying back
      delete body[key];
      continue;
    }
    seen.add(lower);
    const holder = body[key];
    if (!isObject(holder)) continue;
    // every check readInlineWorkspace makes, in its order; then the text stands in for the value
    const ws = readInlineWorkspace(holder, lower);
    if (!ws) continue;
    for (const k of Object.keys(holder)) if (k.toLowerCase() === 'wsconfigs') delete holder[k];
    const copy = new Uint8Array(ws.bytes.byteLength);
    copy.set(ws.bytes);
    holder.WsConfigs = copy;
    buffers.push(copy.buffer);
  }
  const rest = JSON.stringify(body, (_k, v: unknown) => (v instanceof Uint8Array ? 0 : v)).length;
  if (rest > MAX_OTHER_FIELDS_BYTES) {
    throw new ApiError('URE000', `the request body's fields other than the workspaces take ${rest} bytes, more than ${MAX_OTHER_FIELDS_BYTES}`, undefined, 413);
  }
  return { body, buffers };
}
