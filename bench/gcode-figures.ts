// Print-time and filament figures as each slicer states them in its own G-code (or log).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface Figures {
  timeS: number | null;
  filamentMm: number | null;
  layers: number | null;
}

const NONE: Figures = { timeS: null, filamentMm: null, layers: null };

function readText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** `1d 2h 3m 4s` (any subset) → seconds. */
export function dhmsToSeconds(text: string): number | null {
  let total = 0;
  let any = false;
  for (const m of text.matchAll(/(\d+)\s*([dhms])/g)) {
    total += Number(m[1]) * { d: 86400, h: 3600, m: 60, s: 1 }[m[2] as 'd' | 'h' | 'm' | 's'];
    any = true;
  }
  return any ? total : null;
}

/** Ours: the header's `;TIME:` and `;Filament used: <m>m`, `;LAYER_COUNT:`. */
export function stratumFigures(gcodeFile: string): Figures {
  const text = readText(gcodeFile);
  if (text === null) return NONE;
  const head = text.slice(0, 20_000);
  const time = /^;TIME:(\d+(?:\.\d+)?)/m.exec(head);
  const fil = /^;Filament used:\s*([\d.]+)m/m.exec(head);
  const layers = /^;LAYER_COUNT:(\d+)/m.exec(head);
  return {
    timeS: time ? Number(time[1]) : null,
    filamentMm: fil ? Number(fil[1]) * 1000 : null,
    layers: layers ? Number(layers[1]) : null,
  };
}

/** PrusaSlicer: its trailer's `; estimated printing time (normal mode) = …` and `; filament used [mm] = …`. */
export function prusaFigures(gcodeFile: string): Figures {
  const text = readText(gcodeFile);
  if (text === null) return NONE;
  const time = /^; estimated printing time \(normal mode\) = (.+)$/m.exec(text);
  const fil = /^; filament used \[mm\] = ([\d.]+)/m.exec(text);
  const layers = text.match(/^;LAYER_CHANGE/gm);
  return {
    timeS: time ? dhmsToSeconds(time[1]) : null,
    filamentMm: fil ? Number(fil[1]) : null,
    layers: layers ? layers.length : null,
  };
}

/**
 * CuraEngine: the command-line engine writes placeholders in its header; its real totals are in
 * its -v log, which the shared gcode_stats.py reads.
 */
export function curaFigures(gcodeFile: string, stderrLog: string, statsScript: string, python: string): Figures {
  const r = spawnSync(python, [statsScript, gcodeFile, stderrLog, '--json'], { encoding: 'utf8' });
  if (r.status !== 0) return NONE;
  try {
    const st = JSON.parse(r.stdout.trim().split('\n').pop() ?? '') as { time_s?: number; filament_mm?: number; layers?: number };
    return { timeS: st.time_s ?? null, filamentMm: st.filament_mm ?? null, layers: st.layers ?? null };
  } catch {
    return NONE;
  }
}
