// Forgiving name matching for presets and setting keys: case, spaces and punctuation do not matter
// ("creality ender-3" finds "Creality Ender 3"), and a name that matches nothing gets a short list
// of close names, ranked by edit distance and shared words.

/** Lower-case letters and digits only; '+' becomes "plus" so "PLA+" and "PLA" stay different. */
export function normalizeName(name: string): string {
  return name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/\+/g, 'plus')
    .replace(/[^a-z0-9]/g, '');
}

/** Words of a name: split at punctuation, spaces, camelCase humps and letter/digit boundaries. */
export function nameTokens(name: string): string[] {
  return name
    .normalize('NFKD')
    .replace(/\+/g, ' plus ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([a-zA-Z])(\d)/g, '$1 $2')
    .replace(/(\d)([a-zA-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((t) => t.length > 0);
}

/** Levenshtein distance (insert, delete, substitute all cost 1). */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let prev = new Array<number>(b.length + 1);
  let cur = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const sub = prev[j - 1]! + (a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1);
      cur[j] = Math.min(sub, prev[j]! + 1, cur[j - 1]! + 1);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length]!;
}

/** The same word, or one a longer form of the other ("retract", "retraction"; five letters at least). */
function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  return short.length >= 5 && long.startsWith(short);
}

/** A name as it can be looked up: `key` is what is typed, `canonical` what it stands for. */
export interface NameEntry {
  key: string;
  canonical: string;
}

/**
 * Canonical names close to `query`, best first (at most `limit`, each once). A candidate counts as
 * close when its normalised form is within a third of its length in edit distance, when one contains
 * the other, or when they share a word of two or more characters that is not just a number.
 */
export function closeMatches(query: string, entries: readonly NameEntry[], limit = 5): string[] {
  const q = normalizeName(query);
  const qTokens = new Set(nameTokens(query));
  const best = new Map<string, number>();
  for (const { key, canonical } of entries) {
    const k = normalizeName(key);
    if (k.length === 0 || q.length === 0) continue;
    const dist = editDistance(q, k);
    const allowed = Math.max(2, Math.floor(Math.max(q.length, k.length) / 3));
    let score = Infinity;
    if (dist <= allowed) score = dist / Math.max(q.length, k.length);
    if (k.includes(q) || q.includes(k)) score = Math.min(score, 0.5 + 0.1 * (1 - Math.min(q.length, k.length) / Math.max(q.length, k.length)));
    const kTokens = nameTokens(key);
    // One-letter and all-digit words ("s", "3") say too little to count as a match.
    const shared = kTokens.filter((t) => t.length >= 2 && !/^\d+$/.test(t) && [...qTokens].some((q) => sameWord(q, t))).length;
    if (shared > 0) {
      const overlap = shared / new Set([...kTokens, ...qTokens]).size;
      score = Math.min(score, 1 - overlap * 0.5);
    }
    if (score < (best.get(canonical) ?? Infinity)) best.set(canonical, score);
  }
  return [...best.entries()]
    .sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]))
    .slice(0, limit)
    .map(([name]) => name);
}

/** An index from normalised names and aliases to presets. Duplicate keys are a programming error. */
export class NameIndex<T> {
  private readonly byKey = new Map<string, T>();
  readonly entries: NameEntry[] = [];

  constructor(items: readonly T[], names: (item: T) => { name: string; aliases: readonly string[] }) {
    for (const item of items) {
      const { name, aliases } = names(item);
      for (const key of [name, ...aliases]) {
        const norm = normalizeName(key);
        const existing = this.byKey.get(norm);
        if (existing !== undefined && existing !== item) throw new Error(`duplicate preset name or alias: ${key}`);
        this.byKey.set(norm, item);
        this.entries.push({ key, canonical: name });
      }
    }
  }

  find(name: string): T | undefined {
    return this.byKey.get(normalizeName(name));
  }
}

/** "unknown printer "X"; close matches: A, B" (the name shortened if very long). */
export function unknownMessage(kind: string, name: string, suggestions: readonly string[]): string {
  const shown = name.length > 80 ? `${name.slice(0, 80)}…` : name;
  const close = suggestions.length > 0 ? `; close matches: ${suggestions.join(', ')}` : '';
  return `unknown ${kind} "${shown}"${close}`;
}
