// The preset fields of the legacy task starts (v0.2 StartSlicingTask, v0.1 ProvideFile) mapped onto
// the task settings v1 uses, so the one task service resolves and validates them (URE003 with close
// matches for unknown names). Decisions where the interface is silent are in docs/api-legacy.md.
import { DEFAULT_PRINTER, findFilament, findPrinter, findQuality } from '../profiles/index.js';
import { badRequest } from './errors.js';
import { text, type Fields } from './legacy-keys.js';
import type { TaskSettingsEcho } from './model.js';

const SUPPORT_TYPES = ['n', 'e', 'b'];

/** `<vendor>_PLA` of the printer's vendor when we have such a preset; else the resolver's default. */
export function defaultFilamentFor(printerModel: string): string | undefined {
  const vendor = findPrinter(printerModel)?.vendor;
  if (!vendor) return undefined;
  const name = `${vendor.replace(/\s+/g, '')}_PLA`;
  return findFilament(name) ? findFilament(name)!.name : undefined;
}

/**
 * printermodel (or, when absent, a machinepresetname that names a printer, or with a configfile the
 * default printer); supporttype n|e|b
 * (default n); quality = qualitypresetname, else the deprecated configpresetname, else a
 * machinepresetname that names a quality preset, else Recommended; filamentpresetname, else the
 * printer vendor's PLA. applicationpresetname has no counterpart and is ignored.
 */
export function legacySettings(f: Fields, opts: { withConfigFile?: boolean } = {}): TaskSettingsEcho {
  const machinePreset = text(f, 'machinepresetname');
  let printerModel = text(f, 'printermodel') ?? (machinePreset && findPrinter(machinePreset) ? machinePreset : undefined);
  // with a custom configuration "the preset-name fields are left empty": the default printer then
  // (the Creality Ender 3, the printer of the workspaces' only documented Printer.Dummy [3, 0, 1])
  if (!printerModel && opts.withConfigFile) printerModel = DEFAULT_PRINTER;
  if (!printerModel) throw badRequest('printermodel is required');
  const rawSupport = text(f, 'supporttype') ?? 'n';
  const supportType = rawSupport.toLowerCase();
  if (!SUPPORT_TYPES.includes(supportType)) {
    throw badRequest(`supporttype must be n (none), e (everywhere) or b (build plate only), not '${rawSupport.slice(0, 40)}'`);
  }
  const settings: TaskSettingsEcho = { printerModel, supportType: supportType as TaskSettingsEcho['supportType'] };
  const quality =
    text(f, 'qualitypresetname') ?? text(f, 'configpresetname') ?? (machinePreset && findQuality(machinePreset) ? machinePreset : undefined);
  if (quality) settings.qualityPresetName = quality;
  const filament = text(f, 'filamentpresetname') ?? defaultFilamentFor(printerModel);
  if (filament) settings.filamentPresetName = filament;
  return settings;
}
