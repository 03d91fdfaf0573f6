// The small models once more, all in one `stratum slice A B C … -o DIR` process: the CLI's answer
// for scripts that slice many small parts, where a process per model spends most of its time
// starting up and running code V8 has not compiled yet. Beside it: the sum of each peer's
// per-model medians (a process per model is all the peers' command lines offer).
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { measure, median } from './measure.js';
import type { ModelResult } from './engine-bench.js';

export interface BatchFigures {
  models: string[];
  /** `stratum slice` on all of them at once, median wall s */
  stratumS: number | null;
  /** the sum of the per-model medians of each slicer (a process each) */
  perProcessS: { stratum: number | null; cura: number | null; prusa: number | null };
}

export async function measureBatch(
  stratumBin: string,
  modelPaths: string[],
  results: ModelResult[],
  runs: number,
  outDir: string,
): Promise<BatchFigures> {
  const dir = join(outDir, 'batch');
  const walls: number[] = [];
  for (let r = 0; r < runs; r++) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const m = await measure(stratumBin, ['slice', ...modelPaths, '-o', dir, '--quiet']);
    if (m.ok) walls.push(m.wallS);
  }
  const names = modelPaths.map((p) => p.split('/').pop()!);
  const sumOf = (s: 'stratum' | 'cura' | 'prusa'): number | null => {
    let total = 0;
    for (const name of names) {
      const w = results.find((res) => res.model === name)?.slicers[s]?.wallS;
      if (w == null) return null;
      total += w;
    }
    return Math.round(total * 100) / 100;
  };
  return { models: names, stratumS: median(walls), perProcessS: { stratum: sumOf('stratum'), cura: sumOf('cura'), prusa: sumOf('prusa') } };
}

export function printBatch(b: BatchFigures): void {
  const t = (v: number | null) => (v == null ? '–' : `${v.toFixed(2)} s`);
  const ratio = (a: number | null, p: number | null) => (a != null && p ? ` (stratum batch ${(a / p).toFixed(2)}×)` : '');
  process.stdout.write(
    `small models in one process: \`stratum slice\` on all ${b.models.length} (${b.models.join(', ')}) ${t(b.stratumS)} (median); ` +
      `a process each, sum of medians: stratum ${t(b.perProcessS.stratum)}, cura ${t(b.perProcessS.cura)}${ratio(b.stratumS, b.perProcessS.cura)}, ` +
      `prusa ${t(b.perProcessS.prusa)}${ratio(b.stratumS, b.perProcessS.prusa)}\n`,
  );
}
