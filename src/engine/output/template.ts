// Start/end G-code templates: `{name}` placeholders filled from the settings. A placeholder we do not
// know stays as written, so a firmware macro's own braces survive.
import type { SliceSettings } from '../settings.js';
import { mm3 } from './number-format.js';

/** A G-code line's code: what comes before its `;` comment, trimmed. */
export function codeOf(line: string): string {
  const semi = line.indexOf(';');
  return (semi >= 0 ? line.slice(0, semi) : line).trim();
}

/** Every placeholder the writer fills, with what it stands for (the settings check and docs/settings.md list these). */
export const TEMPLATE_PLACEHOLDERS: Readonly<Record<string, string>> = {
  nozzle_temperature: 'nozzleTemperature (°C)',
  bed_temperature: 'bedTemperature (°C); 0 without a heated bed',
  first_layer_nozzle_temperature: 'firstLayerNozzleTemperature (°C)',
  first_layer_bed_temperature: 'firstLayerBedTemperature (°C); 0 without a heated bed',
  bed_width: 'bedWidth (mm)',
  bed_depth: 'bedDepth (mm)',
  bed_height: 'bedHeight (mm)',
  filament_diameter: 'filamentDiameter (mm)',
  nozzle_diameter: 'nozzleDiameter (mm)',
  layer_height: 'layerHeight (mm)',
  first_layer_height: 'firstLayerHeight (mm)',
  machine_name: 'machineName',
  filament_name: 'filamentName',
  layer_count: 'the number of layers printed',
};

/** Placeholder values for a template, by name (`layer_count` comes in `extra`). */
export function templateValues(s: SliceSettings, extra: Record<string, string | number> = {}): Record<string, string> {
  // without a heated bed, a template written for one (a preset's, with heatedBed turned off) heats nothing
  const bed = s.heatedBed ? 1 : 0;
  const values: Record<string, string | number> = {
    nozzle_temperature: s.nozzleTemperature,
    bed_temperature: bed * s.bedTemperature,
    first_layer_nozzle_temperature: s.firstLayerNozzleTemperature,
    first_layer_bed_temperature: bed * s.firstLayerBedTemperature,
    bed_width: mm3(s.bedWidth),
    bed_depth: mm3(s.bedDepth),
    bed_height: mm3(s.bedHeight),
    filament_diameter: mm3(s.filamentDiameter),
    nozzle_diameter: mm3(s.nozzleDiameter),
    layer_height: mm3(s.layerHeight),
    first_layer_height: mm3(s.firstLayerHeight),
    machine_name: s.machineName,
    filament_name: s.filamentName,
    ...extra,
  };
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) out[k] = typeof v === 'number' ? mm3(v) : v;
  return out;
}

export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(values, name) ? values[name]! : whole,
  );
}

/**
 * Which temperatures a start template sets itself: an M104/M109 (nozzle) or M140/M190 (bed) command,
 * or a temperature placeholder handed to a macro (`START_PRINT BED={first_layer_bed_temperature}`).
 * The writer then leaves that command out of its own preamble.
 */
export function templateSetsTemperatures(template: string): { nozzle: boolean; bed: boolean } {
  let nozzle = false;
  let bed = false;
  for (const raw of template.split('\n')) {
    const code = codeOf(raw);
    if (code === '') continue;
    if (/^M10[49](?![0-9])/i.test(code) || /\{(first_layer_)?nozzle_temperature\}/.test(code)) nozzle = true;
    if (/^M1(40|90)(?![0-9])/i.test(code) || /\{(first_layer_)?bed_temperature\}/.test(code)) bed = true;
  }
  return { nozzle, bed };
}

/**
 * A filled template without its bed heating commands (M140, M190, and FlashForge's bed wait `M7 T0`),
 * for a printer without a heated bed: a preset's template keeps them when `heatedBed` is turned off in
 * the settings.
 */
export function withoutBedHeating(text: string): string {
  return text
    .split('\n')
    .filter((raw) => {
      const code = codeOf(raw);
      return !/^M1(40|90)(?![0-9])/i.test(code) && !/^M7\s+T\d+$/i.test(code);
    })
    .join('\n');
}
