// Progress moves as each layer is walled, filled and planned, not once per chunk of 32 planned
// layers: a job of few slow layers (a thousand overlapping models, ~7 s a layer) read 0.01 for
// minutes and then jumped to the end.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { slice } from '../src/engine/pipeline.js';
import type { ModelInput } from '../src/engine/types.js';
import { defaultSettings } from '../src/profiles/defaults.js';
import { box } from './mesh-fixtures.js';

const model = (name: string, x0: number, height = 4): ModelInput => {
  const b = box(x0, 100, 0, x0 + 20, 120, height);
  return { name, mesh: { positions: Float32Array.from(b.positions), indices: Uint32Array.from(b.indices) }, keepPosition: true };
};

test('the first layer progress comes after the first layer\'s walls, and the layers end at their share of the bar', async () => {
  const seen: Array<[number, string]> = [];
  const r = await slice([model('a', 100), model('b', 110)], defaultSettings(), { onProgress: (f, stage) => seen.push([f, stage]) });
  const layers = seen.filter(([, stage]) => stage === 'layers').map(([f]) => f);
  const n = r.stats.layerCount;
  assert.equal(n, 20);
  // the layers take 0.85 of the bar; a layer's walls are 0.3 of a layer
  assert.ok(layers[0]! <= (0.85 * 0.3) / n + 1e-9, `first report ${layers[0]} (a whole layer is ${0.85 / n})`);
  assert.ok(layers.length >= 2 * n, `${layers.length} reports for ${n} layers`);
  for (let i = 1; i < layers.length; i++) assert.ok(layers[i]! >= layers[i - 1]!, `progress ${layers[i - 1]} → ${layers[i]}`);
  assert.ok(Math.abs(layers[layers.length - 1]! - 0.85) < 1e-9, `the layers end at ${layers[layers.length - 1]}`);
});

test('through a layer thread the layers reach the same share', async () => {
  const { LayerPool } = await import('../src/runner/layer-pool.js');
  const pool = new LayerPool(1);
  try {
    const seen: number[] = [];
    let used = 0;
    // 62 mm: over 300 layers, so the engine hands them to the executor
    await slice([model('a', 100, 62), model('b', 110, 62)], defaultSettings(), {
      executor: Object.assign((b: Parameters<typeof pool.executor>[0], onLayer: Parameters<typeof pool.executor>[1], signal?: AbortSignal) => {
        used++;
        return pool.executor(b, onLayer, signal);
      }, { threads: 1 }),
      minVerticesForThreads: 0,
      onProgress: (f, stage) => stage === 'layers' && seen.push(f),
    });
    assert.equal(used, 1);
    assert.ok(seen.length >= 20, `${seen.length} reports`);
    for (let i = 1; i < seen.length; i++) assert.ok(seen[i]! >= seen[i - 1]!, `progress ${seen[i - 1]} → ${seen[i]}`);
    assert.ok(Math.abs(seen[seen.length - 1]! - 0.85) < 1e-9, `the layers end at ${seen[seen.length - 1]}`);
  } finally {
    pool.terminate();
  }
});
