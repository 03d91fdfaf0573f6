// The header at the top of the file, with the final totals: Cura's keys (what Moonraker, OctoPrint
// plugins and viewers read), or the Ultimaker Griffin block followed by the same totals.
import type { SliceSettings } from '../settings.js';
import type { Bounds3 } from '../types.js';
import type { FlavorRules } from './flavors.js';
import { dec5, mm3 } from './number-format.js';

export interface HeaderTotals {
  printTimeS: number;
  filamentMm: number;
  filamentMm3: number;
  filamentG: number;
  bounds: Bounds3;
}

export function headerLines(rules: FlavorRules, s: SliceSettings, totals: HeaderTotals, generator: string): string[] {
  const { bounds } = totals;
  const time = Math.round(totals.printTimeS);
  const lines: string[] = [];
  if (rules.griffinHeader) {
    const cut = generator.lastIndexOf(' ');
    const name = cut > 0 ? generator.slice(0, cut) : generator;
    const version = cut > 0 ? generator.slice(cut + 1) : '';
    lines.push(
      ';START_OF_HEADER',
      ';HEADER_VERSION:0.1',
      `;FLAVOR:${rules.name}`,
      `;GENERATOR.NAME:${name}`,
      `;GENERATOR.VERSION:${version}`,
      `;TARGET_MACHINE.NAME:${s.machineName}`,
      `;EXTRUDER_TRAIN.0.INITIAL_TEMPERATURE:${mm3(s.firstLayerNozzleTemperature)}`,
      `;EXTRUDER_TRAIN.0.MATERIAL.VOLUME_USED:${Math.round(totals.filamentMm3)}`,
      `;EXTRUDER_TRAIN.0.NOZZLE.DIAMETER:${mm3(s.nozzleDiameter)}`,
      // the S-line firmware compares these with the print core and plate it has (AA: the core for build materials)
      `;EXTRUDER_TRAIN.0.NOZZLE.NAME:AA ${mm3(s.nozzleDiameter)}`,
      ';BUILD_PLATE.TYPE:glass',
      `;BUILD_PLATE.INITIAL_TEMPERATURE:${s.heatedBed ? mm3(s.firstLayerBedTemperature) : '0'}`,
      `;PRINT.TIME:${time}`,
      ';PRINT.GROUPS:1',
      `;PRINT.SIZE.MIN.X:${mm3(bounds.min[0])}`,
      `;PRINT.SIZE.MIN.Y:${mm3(bounds.min[1])}`,
      `;PRINT.SIZE.MIN.Z:${mm3(bounds.min[2])}`,
      `;PRINT.SIZE.MAX.X:${mm3(bounds.max[0])}`,
      `;PRINT.SIZE.MAX.Y:${mm3(bounds.max[1])}`,
      `;PRINT.SIZE.MAX.Z:${mm3(bounds.max[2])}`,
      ';END_OF_HEADER',
    );
  } else {
    lines.push(`;FLAVOR:${rules.name}`);
  }
  lines.push(
    `;TIME:${time}`,
    `;Filament used: ${dec5(totals.filamentMm / 1000)}m`,
    `;Filament weight: ${totals.filamentG.toFixed(2)}g`,
    `;Layer height: ${mm3(s.layerHeight)}`,
    `;MINX:${mm3(bounds.min[0])}`,
    `;MINY:${mm3(bounds.min[1])}`,
    `;MINZ:${mm3(bounds.min[2])}`,
    `;MAXX:${mm3(bounds.max[0])}`,
    `;MAXY:${mm3(bounds.max[1])}`,
    `;MAXZ:${mm3(bounds.max[2])}`,
  );
  if (!rules.griffinHeader) lines.push(`;TARGET_MACHINE.NAME:${s.machineName}`);
  lines.push(`;Generated with ${generator}`);
  return lines;
}
