// `--set key=value` parsing: the value's type is read from its text, so that
// `--set infillDensity=15 --set monotonicSkin=false --set infillPattern=gyroid` just works.
import { DECIMAL_TEXT } from '../engine/mesh/text-scan.js';
import { UsageError } from './errors.js';
import { settingSpec } from '../profiles/settings-schema.js';

/** true/false → boolean, a decimal number → number, "quoted" → JSON string (escapes), else the text. */
export function parseSetValue(text: string): string | number | boolean {
  const t = text.trim();
  if (t === 'true') return true;
  if (t === 'false') return false;
  if (DECIMAL_TEXT.test(t)) return Number(t);
  // a value that opens a quote is a quoted string (JSON escapes): one left open (`startGcode="G28`)
  // was taken as literal text, a `"G28` line the firmware does not run
  if (t.startsWith('"')) {
    if (t.length < 2 || !t.endsWith('"')) throw new UsageError(`--set: the quoted string ${t} is not closed (end it with ")`, 'slice');
    try {
      return JSON.parse(t) as string;
    } catch {
      throw new UsageError(`--set: bad quoted string ${t}`, 'slice');
    }
  }
  return text;
}

/** A choice setting's value in the case its list spells it (`outputFormat=fcode` is FCODE, as `--format fcode` is). */
function enumCase(key: string, value: string | number | boolean): string | number | boolean {
  const spec = settingSpec(key);
  if (spec?.type !== 'enum' || typeof value !== 'string') return value;
  return spec.values.find((v) => v.toLowerCase() === value.trim().toLowerCase()) ?? value;
}

/** Turns repeated `key=value` arguments into an overrides object (a later key wins). */
export function parseSetArgs(args: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const arg of args) {
    const eq = arg.indexOf('=');
    const key = eq < 0 ? '' : arg.slice(0, eq).trim();
    if (!key) throw new UsageError(`--set expects key=value, got "${arg}"`, 'slice');
    // an own key whatever it is called: `--set __proto__=1` must reach validation as an unknown setting
    Object.defineProperty(out, key, { value: enumCase(key, parseSetValue(arg.slice(eq + 1))), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

const SUPPORT_TYPES: Record<string, 'none' | 'everywhere' | 'buildplate'> = {
  n: 'none',
  none: 'none',
  e: 'everywhere',
  everywhere: 'everywhere',
  b: 'buildplate',
  buildplate: 'buildplate',
};

/** `--support n|e|b` (or the full names) → the supportType setting. */
export function parseSupport(text: string): 'none' | 'everywhere' | 'buildplate' {
  const name = text.trim().toLowerCase();
  const type = Object.hasOwn(SUPPORT_TYPES, name) ? SUPPORT_TYPES[name] : undefined;
  if (!type) throw new UsageError(`--support takes n (none), e (everywhere) or b (buildplate), got "${text}"`, 'slice');
  return type;
}
