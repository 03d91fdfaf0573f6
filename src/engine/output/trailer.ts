// The PrusaSlicer-style trailer at the end of the file (read by Moonraker's PrusaSlicer parser,
// OctoPrint plugins and PrusaSlicer's G-code viewer).
import { durationDhms } from './number-format.js';

export interface TrailerTotals {
  filamentMm: number;
  filamentMm3: number;
  filamentG: number;
  printTimeS: number;
  firstLayerTimeS: number;
}

export function trailerLines(t: TrailerTotals): string[] {
  return [
    `; filament used [mm] = ${t.filamentMm.toFixed(2)}`,
    `; filament used [cm3] = ${(t.filamentMm3 / 1000).toFixed(2)}`,
    `; filament used [g] = ${t.filamentG.toFixed(2)}`,
    `; total filament used [g] = ${t.filamentG.toFixed(2)}`,
    `; estimated printing time (normal mode) = ${durationDhms(t.printTimeS)}`,
    `; estimated first layer printing time (normal mode) = ${durationDhms(t.firstLayerTimeS)}`,
  ];
}
