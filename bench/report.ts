// The bench's tables on stdout: speed and memory, estimates and filament, quality, missed bars.
import { formatDuration, formatTable } from '../src/cli/format.js';
import type { LargeFigures } from './large.js';
import type { ModelResult, SlicerName } from './engine-bench.js';
import { formatDeviation } from './estimate-check.js';
import type { FloorFigures } from './floor.js';
import { printBatch, type BatchFigures } from './batch.js';
import type { TurnaroundFigures } from './turnaround.js';

const dash = '-';
const num = (v: number | null | undefined, d: number) => (v == null ? dash : v.toFixed(d));
const q = (v: unknown) => (typeof v === 'number' ? String(v) : dash);

export function printReport(results: ModelResult[], runs: number | string, floor?: FloorFigures, batch?: BatchFigures): void {
  const out = process.stdout;
  const s = (r: ModelResult, name: SlicerName) => r.slicers[name];
  const wall = (r: ModelResult, name: SlicerName) => {
    const sl = s(r, name);
    if (!sl) return dash;
    return sl.wallS == null ? 'FAIL' : sl.wallS.toFixed(2);
  };

  out.write(`\nWhole-process wall time (median of ${runs}) and peak RSS\n\n`);
  out.write(
    formatTable(
      ['model', 'tris', 'stratum s', 'cura s', 'prusa s', 'ratio', 'RSS stratum', 'RSS cura', 'RSS prusa'],
      results.map((r) => [
        r.model,
        r.tris == null ? dash : String(r.tris),
        wall(r, 'stratum'),
        wall(r, 'cura'),
        wall(r, 'prusa'),
        num(r.ratio, 2),
        num(s(r, 'stratum')?.rssMiB, 0),
        num(s(r, 'cura')?.rssMiB, 0),
        num(s(r, 'prusa')?.rssMiB, 0),
      ]),
    ),
  );
  out.write('ratio = stratum / faster peer (OBJ/3MF rows: against the peers on the STL of the same name when it prints the same layers); RSS in MiB\n');
  if (floor) printFloor(floor);
  if (batch) printBatch(batch);

  out.write('\nEstimates: print time (each slicer\'s own; and ours on each peer\'s G-code) and filament\n\n');
  out.write(
    formatTable(
      ['model', 'layers', 'time stratum', 'time prusa', 'vs prusa', 'ours on prusa gcode', 'vs prusa own', 'time cura', 'ours on cura gcode', 'vs cura own', 'fil m stratum', 'fil m cura', 'fil m prusa'],
      results.map((r) => {
        const ours = s(r, 'stratum')?.figures;
        const pr = s(r, 'prusa');
        const cu = s(r, 'cura');
        const t = (v: number | null | undefined) => (v == null ? dash : formatDuration(v));
        const dev = ours?.timeS != null && pr?.figures.timeS ? formatDeviation(ours.timeS / pr.figures.timeS - 1) : dash;
        const m = (v: number | null | undefined) => (v == null ? dash : (v / 1000).toFixed(2));
        return [
          r.model,
          ours?.layers == null ? dash : String(ours.layers),
          t(ours?.timeS),
          t(pr?.figures.timeS),
          dev,
          t(pr?.estimateCheck?.oursS),
          formatDeviation(pr?.estimateCheck?.deviation),
          t(cu?.figures.timeS),
          t(cu?.estimateCheck?.oursS),
          formatDeviation(cu?.estimateCheck?.deviation),
          m(ours?.filamentMm),
          m(cu?.figures.filamentMm),
          m(pr?.figures.filamentMm),
        ];
      }),
    ),
  );
  out.write(
    'vs prusa = our estimate of our G-code against PrusaSlicer\'s of its own (toolpath and estimator together); ' +
      'ours on X gcode = our estimator run on X\'s G-code file, vs X own = its deviation from the time X states for that same file ' +
      '(the estimator alone: when it is small, a large "vs prusa" means the toolpaths differ)\n',
  );

  const withQuality = results.filter((r) => r.quality);
  if (withQuality.length) {
    out.write('\nQuality (shared/quality/gcode_quality.py; peers from peers/quality.json as cura | prusa)\n\n');
    out.write(
      formatTable(
        ['model', 'wall_cov', 'peers', 'solid_cov', 'peers', 'spill', 'dev_mm', 'open_exits', 'peers'],
        withQuality.map((r) => {
          const qq = r.quality!;
          if ('error' in qq) return [r.model, `error: ${qq.error}`, '', '', '', '', '', '', ''];
          const pc = r.peerQuality?.cura ?? {};
          const pp = r.peerQuality?.prusa ?? {};
          return [
            r.model,
            q(qq.wall_cov),
            `${q(pc.wall_cov)} | ${q(pp.wall_cov)}`,
            q(qq.solid_cov),
            `${q(pc.solid_cov)} | ${q(pp.solid_cov)}`,
            q(qq.spill),
            q(qq.dev_mm),
            `${q(qq.open_exits)}/${q(qq.travels)}`,
            `${q(pc.open_exits)}/${q(pc.travels)} | ${q(pp.open_exits)}/${q(pp.travels)}`,
          ];
        }),
      ),
    );
  }

  out.write('\nBars of DESIGN.md missed\n\n');
  const missed = results.filter((r) => r.missedBars.length);
  if (missed.length === 0) out.write('none\n');
  for (const r of missed) out.write(`${r.model}:\n${r.missedBars.map((m) => `  - ${m}\n`).join('')}`);
}

/** The fixed cost of a process: how much of a small model's ratio is start-up rather than slicing. */
function printFloor(floor: FloorFigures): void {
  const t = (v: number | null | undefined) => (v == null ? dash : `${v.toFixed(2)} s`);
  const ours = floor.tinyCubeS.stratum;
  const peers = (['cura', 'prusa'] as const).filter((p) => p in floor.tinyCubeS);
  const parts = peers.map((p) => {
    const v = floor.tinyCubeS[p];
    return `${p} ${t(v)}${ours != null && v ? ` (stratum ${(ours / v).toFixed(1)}×)` : ''}`;
  });
  process.stdout.write(
    `fixed cost of a process (median): node -e 0 ${t(floor.nodeS)}` +
      (floor.nodeNoExtraCertsS !== undefined ? ` (${t(floor.nodeNoExtraCertsS)} without NODE_EXTRA_CA_CERTS, as stratum slice runs)` : '') +
      `; a 1 mm cube (5 layers): stratum ${t(ours)}` +
      (parts.length ? `, ${parts.join(', ')}` : '') +
      '\n',
  );
}

/** The service's turnaround beside the whole-process figures of the same models. */
export function printTurnaround(results: ModelResult[], figures: TurnaroundFigures, runs: number): void {
  const out = process.stdout;
  out.write(`\nService turnaround: POST task to printer file downloaded, on a running embedded service (median of ${runs} after the first task)\n\n`);
  out.write(
    formatTable(
      ['model', 'first task s', 'service s', 'stratum CLI s', 'cura s', 'service / cura'],
      results.map((r) => {
        const f = figures[r.model];
        const ok = f && !('error' in f) ? f : null;
        const cura = r.slicers.cura?.wallS;
        return [
          r.model,
          f && 'error' in f ? `FAIL: ${f.error}` : num(ok?.firstS, 2),
          num(ok?.warmS, 2),
          num(r.slicers.stratum?.wallS, 2),
          num(cura, 2),
          ok?.warmS != null && cura ? (ok.warmS / cura).toFixed(2) : dash,
        ];
      }),
    ),
  );
  out.write('first task: a model\'s first task on the service (the worker warmed up as the service started; a large model\'s first task also starts its layer threads); the service keeps its worker, threads and compiled code between tasks\n');
}

/** The generated large meshes: wall time and memory against the peers, and the quality of ours. */
export function printLarge(figures: LargeFigures, runs: number): void {
  const out = process.stdout;
  out.write(`\nLarge meshes (generated, bench/large-mesh.ts): whole-process wall time and peak RSS, median of ${Math.min(runs, 2)}\n\n`);
  const rows = Object.entries(figures).map(([name, f]) => {
    const s = f.slicers;
    const peerWalls = [s.cura?.wallS, s.prusa?.wallS].filter((v): v is number => v != null);
    const ours = s.stratum?.wallS;
    const q = f.quality && !('error' in f.quality) ? f.quality : null;
    return [
      name,
      `${(f.triangles / 1e6).toFixed(2)} M`,
      s.stratum?.error ? `FAIL: ${s.stratum.error}` : num(ours, 2),
      num(s.cura?.wallS, 2),
      num(s.prusa?.wallS, 2),
      ours != null && peerWalls.length ? (ours / Math.min(...peerWalls)).toFixed(2) : dash,
      num(s.stratum?.rssMiB, 0),
      num(s.cura?.rssMiB, 0),
      num(s.prusa?.rssMiB, 0),
      q ? `${q.wall_cov} / ${q.dev_mm}` : f.quality && 'error' in f.quality ? `FAIL: ${f.quality.error}` : dash,
    ];
  });
  out.write(formatTable(['mesh', 'tris', 'stratum s', 'cura s', 'prusa s', 'ratio', 'RSS stratum', 'RSS cura', 'RSS prusa', 'wall_cov / dev_mm'], rows));
  out.write('ratio = stratum / faster peer; RSS in MiB; quality of ours against the closed sphere (the open one should print the same surface)\n');
}
