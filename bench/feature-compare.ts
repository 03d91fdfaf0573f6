// Where filament and print time go, per feature type and per layer, in any slicer's G-code (ours,
// CuraEngine's, PrusaSlicer's), all measured with the same motion model: our own simulation with the
// default profile's machine limits. Several files print side by side, so that the differences show.
//
//   node dist/bench/feature-compare.js A.gcode [B.gcode …] [--layers] [--slow 10]
//
// Per feature: XY length extruded (m), filament pushed (E, m), E per mm of path scaled to the bead's
// cross-section (mm², 1.75 mm filament), simulated time (s). Travels and retractions are a row of
// their own. `--layers` adds a per-layer CSV (layer, z, time, E); `--slow S` counts layers under S s.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { parseGcode, type GcodeState } from '../src/engine/output/parse-gcode.js';
import { MoveBuffer } from '../src/engine/output/move-buffer.js';
import { simulate } from '../src/engine/output/simulate.js';
import { limitsFromSettings } from '../src/engine/output/limits.js';
import { resolveSettings } from '../src/profiles/index.js';

/** Each slicer's feature names, mapped to ours; anything unknown keeps its own name. */
const FEATURE_NAMES: Record<string, string> = {
  'External perimeter': 'WALL-OUTER',
  'Overhang perimeter': 'WALL-OUTER',
  Perimeter: 'WALL-INNER',
  'Internal infill': 'FILL',
  'Solid infill': 'SKIN',
  'Top solid infill': 'SKIN',
  'Bridge infill': 'SKIN',
  'Internal bridge infill': 'SKIN',
  'Gap fill': 'GAP-FILL',
  'Skirt/Brim': 'SKIRT',
  Custom: 'START/END',
};

const ROW_ORDER = ['WALL-OUTER', 'WALL-INNER', 'GAP-FILL', 'SKIN', 'FILL', 'SKIRT', 'START/END', 'travel'];

export interface FeatureFigures {
  /** XY length of extruding moves, mm */
  lengthMm: number;
  /** filament pushed by them, mm */
  eMm: number;
  /** simulated time, s */
  timeS: number;
}

export interface LayerFigures {
  z: number;
  timeS: number;
  eMm: number;
}

export interface FileFigures {
  file: string;
  features: Map<string, FeatureFigures>;
  layers: LayerFigures[];
  totalS: number;
  netEMm: number;
}

/** Splits G-code text at its `;TYPE:` lines: [type name, text] in file order (before the first: ''). */
function typeChunks(text: string): [string, string][] {
  const out: [string, string][] = [];
  let type = '';
  let from = 0;
  const re = /^;TYPE:(.*)$/gm;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    out.push([type, text.slice(from, m.index)]);
    type = m[1]!.trim();
    from = m.index;
  }
  out.push([type, text.slice(from)]);
  return out;
}

export function analyseGcode(file: string, text: string): FileFigures {
  const settings = resolveSettings().settings;
  const moves = new MoveBuffer(text.length >>> 5);
  const chunkStarts: number[] = [];
  const chunkTypes: string[] = [];
  const layerStarts: number[] = [];
  let state: Partial<GcodeState> = {};
  let netE = 0;
  let dwell = 0;
  for (const [type, chunk] of typeChunks(text)) {
    chunkStarts.push(moves.length);
    chunkTypes.push(FEATURE_NAMES[type] ?? (type === '' ? 'START/END' : type));
    const p = parseGcode(chunk, { into: moves, start: state });
    layerStarts.push(...p.layerStarts);
    state = p.end;
    netE += p.netE;
    dwell += p.dwellS;
  }
  // keep the columns the simulation overwrites
  const dx = moves.dx.slice(0, moves.length), dy = moves.dy.slice(0, moves.length);
  const dz = moves.dz.slice(0, moves.length), de = moves.de.slice(0, moves.length);
  const sim = simulate(moves, limitsFromSettings(settings), { consume: true });

  const features = new Map<string, FeatureFigures>();
  const layers: LayerFigures[] = [];
  let chunk = -1;
  let layer = -1;
  let z = 0;
  for (let i = 0; i < dx.length; i++) {
    while (chunk + 1 < chunkStarts.length && chunkStarts[chunk + 1]! <= i) chunk++;
    while (layer + 1 < layerStarts.length && layerStarts[layer + 1]! <= i) {
      layer++;
      layers.push({ z, timeS: 0, eMm: 0 });
    }
    z += dz[i]!;
    const xy = Math.hypot(dx[i]!, dy[i]!);
    const extruding = de[i]! > 0 && xy > 0;
    const name = extruding ? chunkTypes[chunk]! : 'travel';
    let f = features.get(name);
    if (!f) features.set(name, (f = { lengthMm: 0, eMm: 0, timeS: 0 }));
    f.timeS += sim.moveTimes[i]!;
    if (extruding) {
      f.lengthMm += xy;
      f.eMm += de[i]!;
    }
    const L = layers[layer];
    if (L) {
      L.timeS += sim.moveTimes[i]!;
      if (extruding) {
        L.z = z; // where the layer prints (not where the end G-code lifts to)
        L.eMm += de[i]!;
      }
    }
  }
  return { file, features, layers, totalS: sim.totalS + dwell, netEMm: netE };
}

const FIL_AREA = Math.PI * (1.75 / 2) ** 2;
const fmt = (v: number, d: number) => v.toFixed(d);

export function printTable(all: FileFigures[]): void {
  const names = new Set<string>();
  for (const f of all) for (const k of f.features.keys()) names.add(k);
  const rows = [...ROW_ORDER.filter((r) => names.has(r)), ...[...names].filter((n) => !ROW_ORDER.includes(n)).sort()];
  const head = ['feature', ...all.map((f) => basename(f.file))];
  const lines: string[][] = [head];
  const cell = (f: FeatureFigures | undefined, name: string) => {
    if (!f) return '–';
    if (name === 'travel') return `time ${fmt(f.timeS, 0)} s`;
    const area = f.lengthMm > 0 ? (f.eMm * FIL_AREA) / f.lengthMm : 0;
    return `${fmt(f.lengthMm / 1000, 2)} m path, E ${fmt(f.eMm / 1000, 3)} m, ${fmt(area, 4)} mm², ${fmt(f.timeS, 0)} s`;
  };
  for (const r of rows) lines.push([r, ...all.map((f) => cell(f.features.get(r), r))]);
  const sum = (f: FileFigures, k: keyof FeatureFigures) => [...f.features.values()].reduce((s, v) => s + v[k], 0);
  lines.push(['total', ...all.map((f) => `${fmt(sum(f, 'lengthMm') / 1000, 2)} m path, E ${fmt(sum(f, 'eMm') / 1000, 3)} m (net ${fmt(f.netEMm / 1000, 3)}), ${fmt(f.totalS, 0)} s = ${fmtHms(f.totalS)}`)]);
  const widths = head.map((_, c) => Math.max(...lines.map((l) => l[c]!.length)));
  for (const l of lines) console.log(l.map((c, i) => c.padEnd(widths[i]!)).join(' | '));
}

function fmtHms(s: number): string {
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = Math.round(s % 60);
  return `${h}:${String(m).padStart(2, '0')}:${String(r).padStart(2, '0')}`;
}

/** Layers by time band (under `slow` s, the cooling floor, and above), with the time and E each band holds. */
export function printLayerSummary(all: FileFigures[], slow: number): void {
  for (const f of all) {
    const printed = f.layers.filter((l) => l.eMm > 0);
    const under = printed.filter((l) => l.timeS < slow - 0.05);
    const at = printed.filter((l) => Math.abs(l.timeS - slow) <= 0.05 * slow);
    const tot = (ls: LayerFigures[], k: 'timeS' | 'eMm') => ls.reduce((s, l) => s + l[k], 0);
    const top = printed.length ? printed[printed.length - 1]!.z : 0;
    console.log(
      `${basename(f.file)}: ${printed.length} printed layers (top z ${fmt(top, 2)}), ` +
        `${under.length} under ${slow} s (${fmt(tot(under, 'timeS'), 0)} s), ${at.length} within 5 % of ${slow} s (${fmt(tot(at, 'timeS'), 0)} s, E ${fmt(tot(at, 'eMm') / 1000, 3)} m)`,
    );
  }
}

function printLayerCsv(all: FileFigures[]): void {
  const n = Math.max(...all.map((f) => f.layers.length));
  console.log(['layer', ...all.flatMap((f) => [`${basename(f.file)} z`, 'time s', 'E mm'])].join(','));
  for (let i = 0; i < n; i++) {
    const cols = all.flatMap((f) => {
      const l = f.layers[i];
      return l ? [fmt(l.z, 2), fmt(l.timeS, 2), fmt(l.eMm, 1)] : ['', '', ''];
    });
    console.log([i, ...cols].join(','));
  }
}

function main(): void {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { layers: { type: 'boolean', default: false }, slow: { type: 'string', default: '10' } },
  });
  if (positionals.length === 0) {
    console.error('usage: node dist/bench/feature-compare.js A.gcode [B.gcode …] [--layers] [--slow 10]');
    process.exitCode = 2;
    return;
  }
  const all = positionals.map((file) => analyseGcode(file, readFileSync(file, 'utf8')));
  printTable(all);
  printLayerSummary(all, Number(values.slow));
  if (values.layers) printLayerCsv(all);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
