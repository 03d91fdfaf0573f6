// The v0.3 task start body: keys in any casing are renamed to v1's spelling (`Files`, `fileid`,
// `PrinterModel` …) before validation, and a top-level `arrayDimensions` (where v0.3 clients may
// send the point-cloud grid) is given to the PC_SV entry that has none of its own.
import { isObject } from '../../service/legacy-keys.js';
import { parseDimensions } from '../../service/task-request.js';

const CANONICAL = new Map(
  [
    'files', 'settings', 'arrayDimensions',
    'fileId', 'fileName', 'type', 'filamentName',
    'printerModel', 'supportType', 'filamentPresetName', 'qualityPresetName', 'outputFormat', 'overrides',
  ].map((k) => [k.toLowerCase(), k]),
);

/** Renames this object's keys (not those inside `overrides`, which are setting names). */
function renameKeys(obj: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    const name = CANONICAL.get(k.toLowerCase()) ?? k;
    if (!Object.hasOwn(out, name)) Object.defineProperty(out, name, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

export function canonicalStartBody(body: unknown): unknown {
  if (!isObject(body)) return body;
  const out = renameKeys(body);
  if (isObject(out.settings)) out.settings = renameKeys(out.settings);
  if (Array.isArray(out.files)) {
    out.files = out.files.map((e) => (isObject(e) ? renameKeys(e) : e));
    // checked here: with no PC_SV entry to take it, nothing else would look at it
    const dims = parseDimensions(out.arrayDimensions, '');
    if (dims !== undefined) {
      const cloud = (out.files as unknown[]).find(
        (e) => isObject(e) && typeof e.type === 'string' && e.type.toUpperCase() === 'PC_SV' && e.arrayDimensions === undefined,
      );
      if (cloud) (cloud as Record<string, unknown>).arrayDimensions = dims;
    }
  }
  delete out.arrayDimensions;
  return out;
}
