// How accurate our print-time estimator is, measured on the same G-code: our motion simulation
// (feature-compare's `analyseGcode`: parseGcode + MoveBuffer + simulate, default profile's limits)
// run on a peer's G-code file, beside the time that peer states for that very file. When the two
// agree, a difference between our estimate and the peer's on the same model comes from the
// toolpaths, not from the estimator.
//
//   node dist/bench/estimate-check.js FILE.gcode …
//
// Each file's own figure: PrusaSlicer's trailer, CuraEngine's -v log beside the file (X.log for
// X.gcode, read through peers/gcode_stats.py), else our `;TIME:` header.
import { readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyseGcode } from './feature-compare.js';
import { curaFigures, prusaFigures, stratumFigures } from './gcode-figures.js';

export interface EstimateCheck {
  /** our simulation's print time for the file, s (null when the file cannot be read) */
  oursS: number | null;
  /** the slicer's own print time for the same file, s */
  ownS: number | null;
  /** oursS / ownS − 1 (0.01 = our estimator says 1 % longer); null when either is missing */
  deviation: number | null;
}

/** Our simulated print time for a G-code file, or null when it cannot be read. */
export function simulatedTimeS(gcodeFile: string): number | null {
  let text: string;
  try {
    text = readFileSync(gcodeFile, 'utf8');
  } catch {
    return null;
  }
  return analyseGcode(gcodeFile, text).totalS;
}

export function deviation(oursS: number | null, ownS: number | null): number | null {
  return oursS != null && ownS != null && ownS > 0 ? oursS / ownS - 1 : null;
}

/** Our estimator on `gcodeFile`, against `ownS`, the time its slicer states for it. */
export function checkEstimate(gcodeFile: string, ownS: number | null): EstimateCheck {
  const oursS = simulatedTimeS(gcodeFile);
  return { oursS: oursS === null ? null : Math.round(oursS * 1000) / 1000, ownS, deviation: deviation(oursS, ownS) };
}

/** `+0.4%`, `-11.8%`, or '-' when missing. */
export function formatDeviation(d: number | null | undefined): string {
  if (d == null) return '-';
  const pct = (d * 100).toFixed(1);
  return d >= 0 ? `+${pct}%` : `${pct}%`;
}

/** The time a G-code file's own slicer states for it: PrusaSlicer's trailer; CuraEngine's -v log
 * beside the file (`X.log` for `X.gcode`, as the bench and peers/cura.sh callers leave it); else our header. */
function ownTimeS(file: string, text: string, shared: string): number | null {
  if (/^; estimated printing time \(normal mode\)/m.test(text)) return prusaFigures(file).timeS;
  if (/^;Generated with Cura_SteamEngine/m.test(text.slice(0, 4000))) {
    const log = file.replace(/\.gcode$/, '') + '.log';
    return curaFigures(file, log, join(shared, 'peers', 'gcode_stats.py'), 'python3').timeS;
  }
  return stratumFigures(file).timeS;
}

function main(): void {
  const files = process.argv.slice(2);
  if (files.length === 0) {
    console.error('usage: node dist/bench/estimate-check.js FILE.gcode …');
    process.exitCode = 2;
    return;
  }
  const shared = resolve(process.env.STRATUM_SHARED ?? join(fileURLToPath(new URL('../..', import.meta.url)), '..', 'shared'));
  console.log(['file', 'own s', 'ours s', 'deviation'].join('\t'));
  for (const file of files) {
    const c = checkEstimate(file, ownTimeS(file, readFileSync(file, 'utf8'), shared));
    console.log([basename(file), c.ownS ?? '-', c.oursS ?? '-', formatDeviation(c.deviation)].join('\t'));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main();
