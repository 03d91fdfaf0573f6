// Types of the settings schema: what a setting's entry says about it (type, unit, range, default,
// description, category). The entries themselves are in settings-schema.ts.
import type { SliceSettings } from '../engine/settings.js';

export type SettingCategory =
  | 'machine'
  | 'limits'
  | 'filament'
  | 'layers'
  | 'walls'
  | 'topBottom'
  | 'infill'
  | 'speed'
  | 'travel'
  | 'cooling'
  | 'adhesion'
  | 'support';

/** Category titles in documentation order. */
export const CATEGORY_TITLES: Readonly<Record<SettingCategory, string>> = {
  machine: 'Machine',
  limits: 'Machine limits (print-time estimate)',
  filament: 'Filament',
  layers: 'Layers and line widths',
  walls: 'Walls',
  topBottom: 'Top and bottom skins',
  infill: 'Infill',
  speed: 'Speeds',
  travel: 'Retraction and travel',
  cooling: 'Cooling',
  adhesion: 'Adhesion',
  support: 'Support',
};

interface SpecBase {
  description: string;
  category: SettingCategory;
  /** unit of the value, e.g. "mm", "mm/s", "°C", "%" */
  unit?: string;
}

export interface NumberSpec extends SpecBase {
  /** 'integer' accepts whole numbers only */
  type: 'number' | 'integer';
  min: number;
  max: number;
}

export interface BooleanSpec extends SpecBase {
  type: 'boolean';
}

export interface StringSpec extends SpecBase {
  type: 'string';
  maxLength: number;
  /** G-code templates may span lines; other strings are one line */
  multiline?: boolean;
}

export interface EnumSpec<T extends string = string> extends SpecBase {
  type: 'enum';
  values: readonly T[];
  /** one short phrase per value, for the documentation */
  valueDescriptions: Readonly<Record<T, string>>;
}

/** The kind of entry a setting of value type T needs (an enum for string unions, a string otherwise). */
export type SpecFor<T> = [T] extends [number]
  ? NumberSpec
  : [T] extends [boolean]
    ? BooleanSpec
    : string extends T
      ? StringSpec
      : [T] extends [string]
        ? EnumSpec<T>
        : never;

/** One entry per SliceSettings key: a missing or extra key does not compile. */
export type SpecShape = { [K in keyof SliceSettings]: SpecFor<SliceSettings[K]> };

/** A schema entry with its key and default value. */
export type SettingSpec = (NumberSpec | BooleanSpec | StringSpec | EnumSpec) & {
  key: keyof SliceSettings;
  default: number | boolean | string;
};

/** Builds an enum entry from a record of all values, so a value missing from the union is a compile error. */
export function enumSpec<T extends string>(
  valueDescriptions: Readonly<Record<T, string>>,
  rest: SpecBase,
): EnumSpec<T> {
  return { type: 'enum', values: Object.keys(valueDescriptions) as T[], valueDescriptions, ...rest };
}
