// Validation of settings from outside: overrides sent by clients (JSON), `--set` from the CLI, and
// the text values of an XML configuration. Unknown keys are rejected with close names suggested;
// values must have the schema's type and lie in its range (a number: 0, or at least
// NUMBER_RESOLUTION away from it). Strings are turned into numbers or booleans only when the caller
// says the source is text (`fromText`: the XML path).
import { describeValue } from './describe-value.js';
import type { SliceSettings } from '../engine/settings.js';
import { DECIMAL_TEXT } from '../engine/mesh/text-scan.js';
import { SettingsError } from './errors.js';
import { closeMatches, type NameEntry } from './names.js';
import { PEER_SETTING_NAMES } from './peer-setting-names.js';
import { NUMBER_RESOLUTION, SETTING_KEYS, settingSpec } from './settings-schema.js';
import type { SettingSpec } from './schema-types.js';

export interface ValidateOptions {
  /**
   * The values come from text (XML configuration): decimal strings become numbers, "true"/"false"
   * (also 1/0, yes/no) become booleans and enum values match case-insensitively. Off for JSON
   * overrides, whose values must already have the right type.
   */
  fromText?: boolean;
}

// our names, and what CuraEngine and PrusaSlicer call them (for suggestions only)
const KEY_ENTRIES: NameEntry[] = [
  ...SETTING_KEYS.map((key) => ({ key, canonical: key })),
  ...PEER_SETTING_NAMES.map(([key, canonical]) => ({ key, canonical })),
];
const TRUE_WORDS = new Set(['true', '1', 'yes', 'on']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'off']);
// Control characters other than tab, newline and carriage return (allowed in G-code templates only).
const CONTROL_MULTILINE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const CONTROL_ANY = /[\u0000-\u001f\u007f]/;

/** Setting names close to `key`, for "did you mean" messages. */
export function suggestSettingKeys(key: string): string[] {
  return closeMatches(key, KEY_ENTRIES, 3);
}

function unknownKey(key: string): SettingsError {
  const suggestions = suggestSettingKeys(key);
  const hint = suggestions.length > 0 ? `; did you mean ${suggestions.map((s) => `"${s}"`).join(', ')}?` : '';
  const shown = key.length > 60 ? `${key.slice(0, 60)}…` : key;
  return new SettingsError('UNKNOWN_KEY', key, `unknown setting "${shown}"${hint}`, suggestions);
}

function badValue(spec: SettingSpec, value: unknown, expected: string): SettingsError {
  return new SettingsError('BAD_VALUE', spec.key, `${spec.key} must be ${expected}, got ${describeValue(value)}`);
}

function unitText(spec: SettingSpec): string {
  return spec.unit && !spec.unit.startsWith('%') && spec.unit !== '×' ? ` ${spec.unit}` : spec.unit === '%' ? ' %' : '';
}

function rangeText(spec: SettingSpec & { min: number; max: number }): string {
  return `between ${spec.min} and ${spec.max}${unitText(spec)}`;
}

/** What a number too close to 0 is told it must be (see NUMBER_RESOLUTION). */
function resolutionText(spec: SettingSpec & { min: number; max: number }): string {
  const range = spec.min >= 0 ? `between ${NUMBER_RESOLUTION} and ${spec.max}${unitText(spec)}` : `at least ${NUMBER_RESOLUTION}${unitText(spec)} from 0, ${rangeText(spec)}`;
  return `0 or ${range} (no setting takes a finer non-zero value)`;
}

/** Checks (and, from text, converts) one value against its setting's schema entry. */
export function validateValue(key: string, value: unknown, options: ValidateOptions = {}): SliceSettings[keyof SliceSettings] {
  const spec = settingSpec(key);
  if (!spec) throw unknownKey(key);
  const fromText = options.fromText === true;
  switch (spec.type) {
    case 'number':
    case 'integer': {
      let n = value;
      if (fromText && typeof value === 'string' && DECIMAL_TEXT.test(value.trim())) n = Number(value.trim());
      const kind = spec.type === 'integer' ? 'a whole number' : 'a number';
      if (typeof n !== 'number') throw badValue(spec, value, `${kind} ${rangeText(spec)}`);
      if (!Number.isFinite(n)) throw badValue(spec, value, `a finite number ${rangeText(spec)}`);
      if (spec.type === 'integer' && !Number.isInteger(n)) throw badValue(spec, value, `${kind} ${rangeText(spec)}`);
      if (n < spec.min || n > spec.max) throw badValue(spec, value, rangeText(spec));
      if (n !== 0 && Math.abs(n) < NUMBER_RESOLUTION) throw badValue(spec, value, resolutionText(spec));
      return n;
    }
    case 'boolean': {
      if (typeof value === 'boolean') return value;
      if (fromText && typeof value === 'string') {
        const word = value.trim().toLowerCase();
        if (TRUE_WORDS.has(word)) return true;
        if (FALSE_WORDS.has(word)) return false;
      }
      throw badValue(spec, value, 'true or false');
    }
    case 'enum': {
      const values = spec.values;
      if (typeof value === 'string') {
        if (values.includes(value)) return value as SliceSettings[keyof SliceSettings];
        if (fromText) {
          const match = values.find((v) => v.toLowerCase() === value.trim().toLowerCase());
          if (match !== undefined) return match as SliceSettings[keyof SliceSettings];
        }
      }
      throw badValue(spec, value, `one of ${values.map((v) => `"${v}"`).join(', ')}`);
    }
    case 'string': {
      if (typeof value !== 'string') throw badValue(spec, value, 'a string');
      // G-code templates keep their layout, except the blank lines around an XML element's text.
      const text = spec.multiline && !fromText ? value : value.trim();
      if (text.length > spec.maxLength) {
        throw badValue(spec, value, `at most ${spec.maxLength} characters`);
      }
      if ((spec.multiline ? CONTROL_MULTILINE : CONTROL_ANY).test(text)) {
        throw badValue(spec, value, spec.multiline ? 'text without control characters' : 'one line without control characters');
      }
      return text;
    }
  }
}

/**
 * Validates an overrides object: every key must name a setting and every value must fit it.
 * `undefined` or `null` means no overrides. Throws SettingsError on the first problem.
 */
export function validateOverrides(obj: unknown, options: ValidateOptions = {}): Partial<SliceSettings> {
  if (obj === undefined || obj === null) return {};
  if (typeof obj !== 'object' || Array.isArray(obj)) {
    throw new SettingsError('BAD_VALUE', '', `overrides must be an object of setting names and values, got ${describeValue(obj)}`);
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(obj)) {
    if (value === undefined) continue;
    out[key] = validateValue(key, value, options);
  }
  return out as Partial<SliceSettings>;
}
