// Workspace files come with either casing of every key (`Models`/`models`, `metaData`/`MetaData`,
// `X`/`x`): look keys up without regard to case.

export type JsonObject = Record<string, unknown>;

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** obj[key] with the key matched case-insensitively (exact spelling first, it is the common case). */
export function prop(obj: JsonObject, key: string): unknown {
  if (key in obj) return obj[key];
  const lower = key.toLowerCase();
  for (const k of Object.keys(obj)) if (k.toLowerCase() === lower) return obj[k];
  return undefined;
}

export function numberProp(obj: JsonObject, key: string): number | undefined {
  const v = prop(obj, key);
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

export function stringProp(obj: JsonObject, key: string): string | undefined {
  const v = prop(obj, key);
  return typeof v === 'string' ? v : undefined;
}

/**
 * The first of `keys` the object holds in two casings (`Models` and `models`), as [spelling, spelling],
 * or undefined. Only the keys a reader looks up: lookups ignore case, so with two it would take one
 * of them without a word.
 */
export function caseTwin(obj: JsonObject, keys: readonly string[]): [string, string] | undefined {
  const wanted = new Set(keys.map((k) => k.toLowerCase()));
  const seen = new Map<string, string>();
  for (const k of Object.keys(obj)) {
    const lower = k.toLowerCase();
    if (!wanted.has(lower)) continue;
    const other = seen.get(lower);
    if (other !== undefined) return [other, k];
    seen.set(lower, k);
  }
  return undefined;
}

/** The key as the file spells it (for error paths), or `key` itself when absent. */
export function keyName(obj: JsonObject, key: string): string {
  if (key in obj) return key;
  const lower = key.toLowerCase();
  for (const k of Object.keys(obj)) if (k.toLowerCase() === lower) return k;
  return key;
}
