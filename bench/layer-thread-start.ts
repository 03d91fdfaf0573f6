// What the bundled layer threads (cli/layer-thread-entry.cts) save against the plain modules'
// (runner/layer-worker.ts): one process slices a model again and again with fresh layer threads,
// alternating the two thread entries, and prints the layer stage's time (the threads' start, their
// cold code and their work) and the whole slice's for each. In one process the two are compared
// under the same load, which whole-process runs on a noisy machine are not.
//
//   node --max-semi-space-size=2 --heap-growing-percent=60 --expose-gc dist/bench/layer-thread-start.js MODEL [RUNS]
//
// (the launcher's flags, so that V8 takes the bundle's code cache; `npm run build` first).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { sliceInProcess } from '../src/cli/slice-in-process.js';
import { resolveSettings } from '../src/profiles/index.js';
import { LayerPool } from '../src/runner/layer-pool.js';
import { setLayerThreadFile } from '../src/runner/layer-thread-file.js';
import { widenThreadYoungGeneration } from '../src/cli/thread-heap.js';
import { median } from './measure.js';

createRequire(import.meta.url)('../../bin/v8-flags.js').applyVersionFlags();
// the threads' young generation, as `stratum slice` gives them (their code cache is made under it)
widenThreadYoungGeneration();

const [model, runsArg] = process.argv.slice(2);
if (!model) {
  console.error('usage: node dist/bench/layer-thread-start.js MODEL [RUNS]');
  process.exit(2);
}
const entries = {
  plain: new URL('../src/runner/layer-worker.js', import.meta.url),
  bundled: new URL('../src/cli/layer-thread-entry.cjs', import.meta.url),
};
type Entry = keyof typeof entries;
const settings = resolveSettings({}).settings;
const bytes = new Uint8Array(readFileSync(model));
const layersMs: Record<Entry, number[]> = { plain: [], bundled: [] };
const sliceMs: Record<Entry, number[]> = { plain: [], bundled: [] };
for (let run = 0; run < Number(runsArg ?? 6); run++) {
  const order: Entry[] = run % 2 ? ['bundled', 'plain'] : ['plain', 'bundled'];
  for (const entry of order) {
    setLayerThreadFile(entries[entry]);
    const pool = new LayerPool();
    const t0 = performance.now();
    try {
      const r = await sliceInProcess(bytes.slice(), model, settings, { executor: pool.executor, keepWasmTier: true });
      sliceMs[entry].push(performance.now() - t0);
      layersMs[entry].push(r.stats.timings.layers ?? NaN);
    } finally {
      pool.terminate();
    }
  }
}
const ms = (v: number[]) => v.map((x) => Math.round(x)).join(' ');
for (const entry of ['plain', 'bundled'] as const) {
  console.log(`${entry.padEnd(8)} layers ${Math.round(median(layersMs[entry]) ?? NaN)} ms (${ms(layersMs[entry])}), slice ${Math.round(median(sliceMs[entry]) ?? NaN)} ms (${ms(sliceMs[entry])})`);
}
