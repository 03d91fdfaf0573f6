// `npm run bench`: slices the shared models whole-process with Stratum's CLI and, where they are
// installed, with CuraEngine and PrusaSlicer in the same run (round-robin, to spread the noise),
// then prints wall time, peak memory, estimates, filament and quality figures side by side.
//
//   node dist/bench/engine-bench.js [--runs N] [--models a,b] [--no-peers] [--no-quality] [--no-service] [--no-large]
//
// Results: a table on stdout, JSON in bench/out/results.json; the G-code files stay in
// $TMPDIR/stratum-bench/ for `stratum preview`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { measure, median, peakRssMethod } from './measure.js';
import type { Measurement } from './measure.js';
import { curaFigures, prusaFigures, stratumFigures } from './gcode-figures.js';
import type { Figures } from './gcode-figures.js';
import { findQualityPython, runQuality } from './quality.js';
import type { QualityFigures } from './quality.js';
import { missedBars } from './bars.js';
import type { PeerQuality, SlicerSummary } from './bars.js';
import { printLarge, printReport, printTurnaround } from './report.js';
import { measureLarge, type LargeFigures } from './large.js';
import { checkEstimate } from './estimate-check.js';
import type { EstimateCheck } from './estimate-check.js';
import { measureFloor } from './floor.js';
import { measureBatch, type BatchFigures } from './batch.js';
import { measureTurnaround, type TurnaroundFigures } from './turnaround.js';

export type SlicerName = 'stratum' | 'cura' | 'prusa';

export interface SlicerResult {
  runs: { wallS: number; rssMiB: number | null }[];
  wallS: number | null;
  rssMiB: number | null;
  error?: string;
  output: string;
  figures: Figures;
  /** peers only: our estimator run on this slicer's G-code, against the time it states itself */
  estimateCheck?: EstimateCheck;
}

export interface ModelResult {
  model: string;
  tris: number | null;
  slicers: Partial<Record<SlicerName, SlicerResult>>;
  /** Stratum's wall time over the faster peer's (OBJ/3MF: the peers' figures on the same-named STL, if it prints the same layers) */
  ratio: number | null;
  quality: QualityFigures | { error: string } | null;
  peerQuality?: PeerQuality;
  missedBars: string[];
}

const root = fileURLToPath(new URL('../..', import.meta.url));
const shared = resolve(process.env.STRATUM_SHARED ?? join(root, '..', 'shared'));
const MODEL_EXT = new Set(['.stl', '.obj', '.3mf']);
/** Models whose first run takes every slicer less than this (s) get SMALL_MODEL_RUNS rounds. */
const SMALL_MODEL_S = 1;
const SMALL_MODEL_RUNS = 7;

function hasCommand(name: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

async function countTriangles(file: string): Promise<number | null> {
  try {
    const { parseModel } = await import('../src/engine/mesh/index.js');
    return parseModel(readFileSync(file), basename(file)).mesh.indices.length / 3;
  } catch {
    return null;
  }
}

function summarise(runs: Measurement[], output: string, figures: Figures): SlicerResult {
  const ok = runs.filter((r) => r.ok);
  const failed = runs.find((r) => !r.ok);
  const rss = ok.map((r) => r.rssMiB).filter((v): v is number => v !== null);
  return {
    runs: runs.map((r) => ({ wallS: round(r.wallS, 3), rssMiB: r.rssMiB === null ? null : round(r.rssMiB, 1) })),
    wallS: ok.length ? round(median(ok.map((r) => r.wallS))!, 3) : null,
    rssMiB: rss.length ? round(median(rss)!, 1) : null,
    error: failed ? `exit ${failed.exitCode}: ${failed.stderr.split('\n').pop()}` : undefined,
    output,
    figures,
  };
}

const round = (v: number, d: number) => Math.round(v * 10 ** d) / 10 ** d;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '3' },
      models: { type: 'string' },
      'no-peers': { type: 'boolean' },
      'no-quality': { type: 'boolean' },
      'no-service': { type: 'boolean' },
      'no-large': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write('usage: node dist/bench/engine-bench.js [--runs N] [--models a,b] [--no-peers] [--no-quality] [--no-service] [--no-large]\n');
    return 0;
  }
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a whole number ≥ 1, got ${values.runs}`);
  const modelsDir = join(shared, 'models');
  if (!existsSync(modelsDir)) throw new Error(`no models in ${modelsDir} (set STRATUM_SHARED)`);
  const wanted = values.models?.split(',').map((s) => s.trim()).filter(Boolean);
  const files = readdirSync(modelsDir)
    .filter((f) => MODEL_EXT.has(extname(f).toLowerCase()))
    .filter((f) => !wanted || wanted.some((w) => w === f || w === basename(f, extname(f))))
    .sort((a, b) => statSync(join(modelsDir, a)).size - statSync(join(modelsDir, b)).size);
  if (files.length === 0) throw new Error(`no model matches --models ${values.models}`);

  const peersDir = join(shared, 'peers');
  const usePeers = !values['no-peers'];
  const peers: SlicerName[] = [];
  if (usePeers && hasCommand('CuraEngine') && existsSync(join(peersDir, 'cura.sh'))) peers.push('cura');
  if (usePeers && hasCommand('prusa-slicer') && existsSync(join(peersDir, 'prusa.sh'))) peers.push('prusa');
  const qualityPython = values['no-quality'] ? null : findQualityPython();
  const qualityScript = join(shared, 'quality', 'gcode_quality.py');
  const statsPython = hasCommand('python3') ? 'python3' : null;
  const peerQualityAll = existsSync(join(peersDir, 'quality.json'))
    ? (JSON.parse(readFileSync(join(peersDir, 'quality.json'), 'utf8')) as Record<string, PeerQuality>)
    : {};
  const outDir = join(tmpdir(), 'stratum-bench');
  mkdirSync(outDir, { recursive: true });
  // the command the package installs (bin/stratum), as a user runs it
  const stratumBin = join(root, 'bin', 'stratum');

  process.stderr.write(
    `bench: Node ${process.version} (V8 ${process.versions.v8}), ${files.length} model(s), ${runs} run(s) each, peers: ${peers.join(', ') || 'none'}, ` +
      `peak RSS by ${peakRssMethod()}, quality: ${qualityPython ? 'yes' : values['no-quality'] ? 'off (--no-quality)' : 'no (needs python3 with shapely)'}\n`,
  );

  // the fixed cost of a process (runtime start, each slicer on a 1 mm cube), before the models; as
  // cheap and as noisy as the smallest models, so measured as often
  const floor = await measureFloor(Math.max(runs, SMALL_MODEL_RUNS), ['stratum', ...peers], outDir, (s, model, out) =>
    s === 'stratum' ? [stratumBin, ['slice', model, '-o', out, '--quiet']] : [join(peersDir, `${s}.sh`), [model, out]],
  );

  const results: ModelResult[] = [];
  /** STL models every slicer did in under SMALL_MODEL_S on the first round */
  const smallModels: string[] = [];
  for (const file of files) {
    const modelPath = join(modelsDir, file);
    const base = basename(file, extname(file));
    const isStl = extname(file).toLowerCase() === '.stl';
    const slicers: SlicerName[] = isStl ? ['stratum', ...peers] : ['stratum'];
    const outputs: Record<SlicerName, string> = {
      stratum: join(outDir, `${base}${extname(file)}.stratum.gcode`),
      cura: join(outDir, `${base}.cura.gcode`),
      prusa: join(outDir, `${base}.prusa.gcode`),
    };
    const curaLog = join(outDir, `${base}.cura.log`);
    const measured: Record<SlicerName, Measurement[]> = { stratum: [], cura: [], prusa: [] };
    // a model every slicer does in under a second gets at least SMALL_MODEL_RUNS rounds: its runs
    // are cheap, and its ratios are the noisiest (CuraEngine's own time on the wedge is bimodal here)
    let rounds = runs;
    for (let r = 0; r < rounds; r++) {
      if (r === 1 && slicers.every((s) => measured[s][0]?.ok && measured[s][0]!.wallS < SMALL_MODEL_S)) rounds = Math.max(runs, SMALL_MODEL_RUNS);
      for (const s of slicers) {
        const m =
          s === 'stratum'
            ? await measure(stratumBin, ['slice', modelPath, '-o', outputs.stratum, '--quiet'])
            : await measure(join(peersDir, `${s}.sh`), [modelPath, outputs[s]], { stderrFile: s === 'cura' ? curaLog : undefined });
        measured[s].push(m);
      }
    }
    if (isStl && slicers.every((s) => measured[s][0]?.ok && measured[s][0]!.wallS < SMALL_MODEL_S)) smallModels.push(modelPath);
    const result: ModelResult = { model: file, tris: await countTriangles(modelPath), slicers: {}, ratio: null, quality: null, missedBars: [] };
    for (const s of slicers) {
      const figures =
        s === 'stratum'
          ? stratumFigures(outputs.stratum)
          : s === 'prusa'
            ? prusaFigures(outputs.prusa)
            : statsPython
              ? curaFigures(outputs.cura, curaLog, join(peersDir, 'gcode_stats.py'), statsPython)
              : { timeS: null, filamentMm: null, layers: null };
      result.slicers[s] = summarise(measured[s], outputs[s], figures);
      // after every timed run of this model, so the simulation never competes with a measurement
      if (s !== 'stratum' && measured[s].some((m) => m.ok)) result.slicers[s]!.estimateCheck = checkEstimate(outputs[s], figures.timeS);
    }
    if (isStl && qualityPython && result.slicers.stratum?.wallS != null) {
      result.quality = runQuality(qualityPython, qualityScript, modelPath, outputs.stratum);
      result.peerQuality = peerQualityAll[base];
    }
    results.push(result);
    const ours = result.slicers.stratum;
    process.stderr.write(`bench: ${file}: stratum ${ours?.wallS != null ? `${ours.wallS} s` : `failed (${ours?.error})`}\n`);
  }

  // Ratios and bars; OBJ/3MF rows borrow the peers' figures from the STL of the same name.
  for (const res of results) {
    const base = basename(res.model, extname(res.model));
    // Borrow only when it is the same print (same layer count): the OBJ bunny, in metres and Y-up,
    // is not.
    const sibling = results.find((r) => r.model === `${base}.stl`);
    const sameLayers = sibling?.slicers.stratum?.figures.layers === res.slicers.stratum?.figures.layers;
    const stlRow = sibling && sameLayers ? sibling : res;
    const ours = res.slicers.stratum;
    const peerWalls = (['cura', 'prusa'] as const).map((p) => stlRow.slicers[p]?.wallS).filter((v): v is number => v != null);
    if (ours?.wallS != null && peerWalls.length) res.ratio = round(ours.wallS / Math.min(...peerWalls), 2);
    const sum = (s: SlicerResult | undefined): SlicerSummary | null =>
      s
        ? { wallS: s.wallS, rssMiB: s.rssMiB, timeS: s.figures.timeS, filamentMm: s.figures.filamentMm, estimatorDev: s.estimateCheck?.deviation ?? null }
        : null;
    if (ours) {
      const q = res.quality && !('error' in res.quality) ? res.quality : null;
      res.missedBars = missedBars(base, sum(ours)!, sum(stlRow.slicers.cura), sum(stlRow.slicers.prusa), q, res.peerQuality);
      if (ours.wallS === null) res.missedBars.unshift(`Stratum failed: ${ours.error ?? 'unknown error'}`);
    }
  }

  // the small models again, all in one process (slice-batch.ts)
  let batch: BatchFigures | undefined;
  if (smallModels.length >= 2) {
    process.stderr.write(`bench: ${smallModels.length} small models in one stratum slice process…\n`);
    batch = await measureBatch(stratumBin, smallModels, results, Math.max(runs, SMALL_MODEL_RUNS), outDir);
  }

  // a fine scan's size (2 million triangles), generated; not with --models, which picks shared ones
  let large: LargeFigures | undefined;
  if (!values['no-large'] && !wanted) {
    process.stderr.write('bench: generated large meshes (2 million triangles, closed and open)…\n');
    large = await measureLarge(stratumBin, peers, peersDir, outDir, runs, qualityPython ? { python: qualityPython, script: qualityScript } : null);
  }

  // after every whole-process measurement, so the running service competes with none of them
  let turnaround: TurnaroundFigures | undefined;
  if (!values['no-service']) {
    process.stderr.write('bench: service turnaround (a running embedded service)…\n');
    turnaround = await measureTurnaround(files.map((f) => join(modelsDir, f)), runs);
  }

  const runsLabel = SMALL_MODEL_RUNS > runs ? `${runs}; ${SMALL_MODEL_RUNS} for models every slicer does in under ${SMALL_MODEL_S} s` : String(runs);
  printReport(results, runsLabel, floor, batch);
  if (large) printLarge(large, runs);
  if (turnaround) printTurnaround(results, turnaround, runs);
  const jsonDir = join(root, 'bench', 'out');
  mkdirSync(jsonDir, { recursive: true });
  const json = {
    date: new Date().toISOString(),
    node: process.version,
    runs,
    peakRss: peakRssMethod(),
    peers,
    floor,
    batch,
    large,
    turnaround,
    outputs: outDir,
    results,
  };
  writeFileSync(join(jsonDir, 'results.json'), JSON.stringify(json, null, 1) + '\n');
  process.stderr.write(`bench: JSON in ${join(jsonDir, 'results.json')}, G-code in ${outDir}\n`);
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`bench: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
