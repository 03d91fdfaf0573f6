// Settings resolution: a request naming a printer, a filament and a quality preset (or carrying an
// XML configuration instead of the last two), plus overrides, becomes one validated SliceSettings.
// Order: defaults ← printer ← filament ← quality ← filament speed caps ← overrides.
import type { SliceSettings } from '../engine/settings.js';
import { crossCheckSettings } from './cross-check.js';
import { DEFAULT_SETTINGS } from './defaults.js';
import { DEFAULT_FILAMENT, filamentSettings, filamentSpeedCaps, getFilament } from './filaments.js';
import { DEFAULT_PRINTER, getPrinter, printerSettings } from './printers.js';
import { DEFAULT_QUALITY, getQuality, qualitySettings } from './qualities.js';
import { validateOverrides } from './validate.js';
import { parseXmlConfiguration } from './xml-config.js';

export interface ResolveRequest {
  /** printer name or alias; absent or blank = "Creality Ender 3" */
  printer?: string;
  /** filament preset; absent or blank = "Generic_PLA"; ignored when `xml` is given */
  filament?: string;
  /** quality preset; absent or blank = "Recommended"; ignored when `xml` is given */
  quality?: string;
  /** SliceSettings keys and values, typed as JSON (numbers as numbers); applied last */
  overrides?: Record<string, unknown>;
  /** XML custom configuration: replaces the filament and quality presets */
  xml?: string | Uint8Array;
}

export interface ResolvedSettings {
  settings: SliceSettings;
  warnings: string[];
}

const given = (name: string | undefined): name is string => typeof name === 'string' && name.trim().length > 0;

/**
 * Resolves a request into settings. Throws ProfileError for unknown preset names (with close
 * matches) and XML problems, SettingsError for bad overrides or a combination that cannot print.
 */
export function resolveSettings(req: ResolveRequest = {}): ResolvedSettings {
  const warnings: string[] = [];
  // Check everything the caller sent before doing any work, so errors come in a stable order.
  const printer = getPrinter(given(req.printer) ? req.printer : DEFAULT_PRINTER);
  const overrides = validateOverrides(req.overrides);
  const xml = req.xml !== undefined ? parseXmlConfiguration(req.xml) : undefined;

  // An overridden nozzle is in place before the quality preset sizes layers for it.
  let s: SliceSettings = { ...DEFAULT_SETTINGS, ...printerSettings(printer, overrides.nozzleDiameter ?? printer.nozzleDiameter) };

  if (xml) {
    if (given(req.filament) || given(req.quality)) {
      warnings.push('the XML configuration replaces the filament and quality presets: the preset names are ignored');
    }
    warnings.push(...xml.warnings);
    s = { ...s, ...xml.settings };
  } else {
    const filament = getFilament(given(req.filament) ? req.filament : DEFAULT_FILAMENT);
    const quality = getQuality(given(req.quality) ? req.quality : DEFAULT_QUALITY);
    const f = filamentSettings(filament, s);
    warnings.push(...f.warnings);
    s = { ...s, ...f.settings };
    s = { ...s, ...qualitySettings(quality, s) };
    s = { ...s, ...filamentSpeedCaps(filament, s) };
  }

  s = { ...s, ...overrides };
  warnings.push(...crossCheckSettings(s));
  return { settings: s, warnings };
}
