// Request keys of the legacy versions in any casing: the interface's tables write `fileid`, its
// tutorials `fileId`, some clients `FileId`. Objects are read through a lower-cased view.
import { badRequest } from './errors.js';

export type Fields = ReadonlyMap<string, unknown>;

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The object's own keys lower-cased (the first spelling wins when two differ only in case). */
export function fold(obj: unknown): Fields {
  const out = new Map<string, unknown>();
  if (!isObject(obj)) return out;
  for (const [k, v] of Object.entries(obj)) {
    const lower = k.toLowerCase();
    if (!out.has(lower)) out.set(lower, v);
  }
  return out;
}

/** The first of `names` (lower case) that is present and not null. */
export function field(f: Fields, ...names: string[]): unknown {
  for (const n of names) {
    const v = f.get(n);
    if (v !== undefined && v !== null) return v;
  }
  return undefined;
}

/** A string field; '' counts as absent (clients send `"configFile": ""` when unused). */
export function text(f: Fields, ...names: string[]): string | undefined {
  const v = field(f, ...names);
  if (v === undefined || v === '') return undefined;
  if (typeof v === 'number') return String(v);
  if (typeof v !== 'string') throw badRequest(`${names[0]} must be a string`);
  if (v.length > 1000) throw badRequest(`${names[0]} is too long`);
  return v.trim() === '' ? undefined : v;
}

export function requiredText(f: Fields, ...names: string[]): string {
  const v = text(f, ...names);
  if (v === undefined) throw badRequest(`${names[0]} is required`);
  return v;
}
