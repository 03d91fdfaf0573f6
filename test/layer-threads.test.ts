// When the engine hands layers to other threads (an executor, as the service and the CLI's large
// models give it): only for jobs of many layers AND enough layer work, estimated before slicing
// from the mesh (src/engine/setup/work-estimate.ts). A tall model of tiny cross-sections stays on
// the calling thread: fresh threads running cold code made it several times slower.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { slice, MIN_VERTICES_FOR_THREADS } from '../src/engine/pipeline.js';
import type { LayerExecutor } from '../src/engine/index.js';
import { crossSectionVertices } from '../src/engine/setup/work-estimate.js';
import { defaultSettings } from '../src/profiles/defaults.js';
import { box, merge, signedVolume, uvSphere } from './mesh-fixtures.js';

const meshOf = (m: ReturnType<typeof box>) => ({ positions: Float32Array.from(m.positions), indices: Uint32Array.from(m.indices) });

test('work estimate: each triangle counts its height in layers, in any one unit', () => {
  const b = box(0, 0, 0, 10, 10, 10);
  // 12 triangles: the 8 of the sides span 10 mm (50 layers of 0.2 mm), top and bottom none
  assert.equal(Math.round(crossSectionVertices(b.positions, b.indices, 0.2)), 8 * 50);
  const um = b.positions.map((v) => v * 1000);
  assert.equal(Math.round(crossSectionVertices(um, b.indices, 200)), 8 * 50);
  assert.equal(Math.round(crossSectionVertices(b.positions, b.indices, 0.1)), 8 * 100);
  assert.equal(crossSectionVertices(b.positions, b.indices, 0), Infinity);
});

test('a tall job of little layer work stays on this thread; with the threshold at 0 it goes to the executor', async () => {
  const { LayerPool } = await import('../src/runner/layer-pool.js');
  const pool = new LayerPool(2);
  let calls = 0;
  const executor: LayerExecutor = (batches, onLayer, signal) => {
    calls++;
    return pool.executor(batches, onLayer, signal);
  };
  try {
    // 8 × 2 × 62 mm: 310 layers, over the layer threshold, but ~2,500 estimated vertices
    const model = { name: 'slab', mesh: meshOf(box(0, 0, 0, 8, 2, 62)) };
    const s = defaultSettings();
    assert.ok(crossSectionVertices(model.mesh.positions, model.mesh.indices, s.layerHeight) < MIN_VERTICES_FOR_THREADS);
    const serial = await slice([model], s);
    const offered = await slice([model], s, { executor });
    assert.equal(calls, 0, 'the executor was not asked');
    assert.equal(serial.stats.layerCount, 310);
    assert.deepEqual(offered.output, serial.output);
    const forced = await slice([model], s, { executor, minVerticesForThreads: 0 });
    assert.equal(calls, 1, 'with the threshold at 0 the layers went to the threads');
    assert.equal(forced.stats.layerCount, 310);
  } finally {
    pool.terminate();
  }
});

test('layer threads end with the slice, or stay keepIdleMs for the next one and are reused', async () => {
  const { LayerPool } = await import('../src/runner/layer-pool.js');
  // 310 layers of a 30 × 30 mm slab, sent to the threads whatever their work
  const model = { name: 'slab', mesh: meshOf(box(0, 0, 0, 30, 30, 62)) };
  const s = defaultSettings();
  const once = new LayerPool(2);
  const kept = new LayerPool(2, 400);
  try {
    const a = await slice([model], s, { executor: once.executor, minVerticesForThreads: 0 });
    assert.deepEqual(once.threadIds(), [], 'ended with the slice');

    const b = await slice([model], s, { executor: kept.executor, minVerticesForThreads: 0 });
    const ids = kept.threadIds();
    assert.equal(ids.length, 2, 'kept after the slice');
    const c = await slice([model], s, { executor: kept.executor, minVerticesForThreads: 0 });
    assert.deepEqual(kept.threadIds(), ids, 'the same threads sliced again');
    // kept threads slice as fresh ones do
    assert.deepEqual(b.output, a.output);
    assert.deepEqual(c.output, a.output);
    assert.ok(kept.heldBytes() > 0, 'the threads said what they hold');
    await new Promise((r) => setTimeout(r, 800));
    assert.deepEqual(kept.threadIds(), [], 'ended after keepIdleMs without a slice');
  } finally {
    once.terminate();
    kept.terminate();
  }
});

test('layer threads holding more than keepAtMostBytes end with the slice even when they could be kept', async () => {
  const { LayerPool } = await import('../src/runner/layer-pool.js');
  const model = { name: 'slab', mesh: meshOf(box(0, 0, 0, 30, 30, 62)) };
  const pool = new LayerPool(2, 60_000, 1024 * 1024);
  try {
    await slice([model], defaultSettings(), { executor: pool.executor, minVerticesForThreads: 0 });
    assert.deepEqual(pool.threadIds(), [], 'over 1 MiB: not kept');
  } finally {
    pool.terminate();
  }
});

test('one layer thread takes the layers as one batch and gives the calling thread\'s output; two take batches with their share of the triangles', async () => {
  const { LayerPool } = await import('../src/runner/layer-pool.js');
  const model = { name: 'slab', mesh: meshOf(box(0, 0, 0, 30, 30, 62)) };
  const s = defaultSettings();
  for (const threads of [1, 2]) {
    const pool = new LayerPool(threads);
    const seen: Array<{ from: number; to: number; triangles: number | undefined }> = [];
    const executor: LayerExecutor = Object.assign(
      (batches: Parameters<LayerExecutor>[0], onLayer: Parameters<LayerExecutor>[1], signal?: AbortSignal) => {
        seen.push(...batches.map((b) => ({ from: b.from, to: b.to, triangles: b.models[0]!.triangles?.length })));
        return pool.executor(batches, onLayer, signal);
      },
      { threads: pool.executor.threads },
    );
    try {
      const threaded = await slice([model], s, { executor, minVerticesForThreads: 0 });
      if (threads === 1) {
        assert.deepEqual(seen, [{ from: 0, to: 310, triangles: undefined }]);
        assert.deepEqual(threaded.output, (await slice([model], s, { minVerticesForThreads: 0 })).output);
      } else {
        assert.equal(seen.length, 16);
        // the slab's 8 side triangles reach every batch; its top and bottom none
        for (const b of seen) assert.equal(b.triangles, 8, `batch ${b.from}–${b.to}`);
      }
    } finally {
      pool.terminate();
    }
  }
});

test('a job for threads gives the same G-code on this thread, on one layer thread and on two', async () => {
  const { LayerPool } = await import('../src/runner/layer-pool.js');
  // two spheres 64 mm tall (320 layers): triangles entering the sweep at many planes, two islands a
  // layer may start at; 16 batches when two threads run them
  const spheres = merge(uvSphere(-36, 0, 32, 32, 64, 96), uvSphere(36, 0, 32, 32, 64, 96));
  assert.ok(signedVolume(spheres) > 0);
  const model = { name: 'spheres', mesh: meshOf(spheres) };
  // with support, this thread's one batch takes the support pass's cross-sections, where batches on
  // threads cut their own
  for (const [what, s, threadCounts] of [
    ['without support', defaultSettings(), [1, 2]],
    ['with support everywhere', { ...defaultSettings(), supportType: 'everywhere' as const }, [2]],
  ] as const) {
    const here = Buffer.from((await slice([model], s, { minVerticesForThreads: 0 })).output);
    if (what !== 'without support') assert.match(here.toString('latin1'), /;TYPE:SUPPORT/);
    for (const threads of threadCounts) {
      const pool = new LayerPool(threads);
      try {
        const out = Buffer.from((await slice([model], s, { executor: pool.executor, minVerticesForThreads: 0 })).output);
        assert.equal(firstDifference(out, here), null, `${what}: ${threads} layer thread(s) against this thread`);
      } finally {
        pool.terminate();
      }
    }
  }
});

/** The first line where two G-code files differ (with its number), or null when they are the same. */
function firstDifference(a: Buffer, b: Buffer): string | null {
  if (a.equals(b)) return null;
  const la = a.toString('latin1').split('\n');
  const lb = b.toString('latin1').split('\n');
  const i = la.findIndex((l, k) => l !== lb[k]);
  return `line ${i + 1}: ${la[i]} | ${lb[i]}`;
}

test('threads for one slice: one per 1.3 cores, at least one', async () => {
  const { threadsForOneSlice } = await import('../src/runner/layer-pool.js');
  assert.deepEqual([1, 2, 3, 4, 8, 16].map(threadsForOneSlice), [1, 1, 2, 3, 6, 12]);
  assert.equal(new (await import('../src/runner/layer-pool.js')).LayerPool(3).executor.threads, 3);
});

/** A slice on `executor`'s threads, cancelled once they have done `layers` layers. */
function sliceCancelledAfter(layers: number, executor: LayerExecutor, model: Parameters<typeof slice>[0][number], s: ReturnType<typeof defaultSettings>) {
  const stop = new AbortController();
  let seen = 0;
  const counting: LayerExecutor = (batches, onLayer, signal) =>
    executor(batches, (n) => {
      seen += n;
      if (seen >= layers) stop.abort();
      onLayer(n);
    }, signal);
  return slice([model], s, { executor: counting, minVerticesForThreads: 0, signal: stop.signal });
}

test('a cancelled slice stops its layer threads between layers without ending them; they slice the next one', async () => {
  const { LayerPool } = await import('../src/runner/layer-pool.js');
  const { SliceCancelled } = await import('../src/engine/index.js');
  // ended at once, a thread still loading its code left the module files open for good
  const model = { name: 'slab', mesh: meshOf(box(0, 0, 0, 30, 30, 62)) };
  const s = defaultSettings();
  const pool = new LayerPool(2, 5_000);
  try {
    const t0 = performance.now();
    await assert.rejects(sliceCancelledAfter(8, pool.executor, model, s), SliceCancelled);
    assert.ok(performance.now() - t0 < 10_000);
    const ids = pool.threadIds();
    assert.equal(ids.length, 2, 'the threads were not ended');
    const next = await slice([model], s, { executor: pool.executor, minVerticesForThreads: 0 });
    assert.equal(next.stats.layerCount, 310);
    assert.deepEqual(pool.threadIds(), ids, 'the same threads sliced the next one');
  } finally {
    pool.terminate();
  }
});

for (const keepIdleMs of [0, 60]) {
  test(`a slice started right after a cancel is not cut off when the cancelled batches come back (keepIdleMs ${keepIdleMs})`, async () => {
    // the cancelled run's last batch used to idle the threads in the middle of the next run: ended at
    // once (keepIdleMs 0) or by a stale timer, and the next slice never settled (found by the diff review)
    const { LayerPool } = await import('../src/runner/layer-pool.js');
    const { SliceCancelled } = await import('../src/engine/index.js');
    const model = { name: 'slab', mesh: meshOf(box(0, 0, 0, 30, 30, 62)) };
    const s = defaultSettings();
    const pool = new LayerPool(2, keepIdleMs);
    try {
      if (keepIdleMs > 0) await slice([model], s, { executor: pool.executor, minVerticesForThreads: 0 });
      await assert.rejects(sliceCancelledAfter(8, pool.executor, model, s), SliceCancelled);
      let timer: NodeJS.Timeout | undefined;
      const next = slice([model], s, { executor: pool.executor, minVerticesForThreads: 0 }).then((r) => r.stats.layerCount);
      const hung = new Promise((r) => (timer = setTimeout(() => r('no answer in 15 s'), 15_000)));
      assert.equal(await Promise.race([next, hung]), 310);
      clearTimeout(timer);
    } finally {
      pool.terminate();
    }
  });
}
