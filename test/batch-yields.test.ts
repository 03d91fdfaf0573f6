// A slice on the main thread (the CLI's small models, STRATUM_SLICE_THREAD=main) must give the event
// loop a turn every few tens of milliseconds of work, not only between chunks of 32 layers: a Ctrl-C
// handler waited for the whole chunk, cold code included (1.6–2.6 s on the Stanford bunny at 0.06 mm
// layers, the section cut of all 2,573 planes and the first 32 layers). The clock is faked so that
// the test does not depend on the machine's speed: every reading is 50 ms after the last. The support
// pass before the layers (3–5 s of the bunny's, all at once) the same.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { slice } from '../src/engine/pipeline.js';
import { sliceMeshSteps } from '../src/engine/layers/index.js';
import { defaultSettings } from '../src/profiles/defaults.js';
import { initGeometry } from '../src/engine/geom/clipper.js';
import { box, merge, squareTube } from './mesh-fixtures.js';
import { drain, paced, runYielding } from '../src/engine/steps.js';
import { SliceCancelled } from '../src/engine/types.js';
import type { Mesh } from '../src/engine/types.js';

const meshOf = (m: { positions: number[]; indices: number[] }): Mesh => ({ positions: Float32Array.from(m.positions), indices: Uint32Array.from(m.indices) });

/** Turns of the event loop while `run` runs, with a clock that says 50 ms at each reading. */
async function turnsWithSlowClock(run: () => Promise<unknown>): Promise<number> {
  const realNow = performance.now.bind(performance);
  let fake = realNow();
  let turns = 0;
  let counting = true;
  const count = (): void => {
    turns++;
    if (counting) setImmediate(count);
  };
  performance.now = () => (fake += 50);
  try {
    setImmediate(count);
    await run();
  } finally {
    performance.now = realNow;
    counting = false;
  }
  return turns;
}

test('on the main thread, a slice yields to the event loop whenever the clock says it has worked long enough', async () => {
  await initGeometry();
  const mesh = meshOf(squareTube(20, 10, 10)); // 50 layers of 0.2 mm: two chunks
  const turns = await turnsWithSlowClock(() => slice([{ name: 'tube', mesh }], defaultSettings()));
  // each layer's walls, fill and plan are a yield each when every reading is 50 ms on; between
  // chunks only, the loop turned a handful of times (the awaits of the pipeline and the one yield)
  assert.ok(turns >= 3 * 50, `${turns} turns of the event loop for 50 layers`);
});

test('the same slice with the real clock gives the same G-code', async () => {
  await initGeometry();
  const mesh = meshOf(box(0, 0, 0, 12, 12, 6));
  const a = await slice([{ name: 'cube', mesh }], defaultSettings());
  const realNow = performance.now.bind(performance);
  let fake = realNow();
  performance.now = () => (fake += 50);
  let b;
  try {
    b = await slice([{ name: 'cube', mesh }], defaultSettings());
  } finally {
    performance.now = realNow;
  }
  // yielding changes nothing (the file holds no timings)
  assert.ok(Buffer.from(b.output).equals(Buffer.from(a.output)), 'the G-code differs');
});

test('the section sweep yields after every 16 planes and returns the same sections', () => {
  const m = meshOf(box(0, 0, 0, 10, 10, 10));
  const positions = Float64Array.from(m.positions, (v) => v * 1000);
  const zs = Array.from({ length: 40 }, (_, i) => 100 + i * 200);
  const steps = sliceMeshSteps(positions, m.indices, zs);
  let yields = 0;
  let r = steps.next();
  while (!r.done) {
    yields++;
    r = steps.next();
  }
  assert.equal(yields, 2); // after planes 16 and 32
  assert.equal(r.value.length, 40);
  for (const s of r.value) assert.equal(s.length, 1);
});

test('the support pass gives the event loop turns too', async () => {
  await initGeometry();
  // a slab on a post: an overhang that needs support on its 30 layers under the slab
  const mesh = meshOf(merge(box(8, 8, 0, 12, 12, 6), box(0, 0, 6, 20, 20, 8)));
  const withSupport = await turnsWithSlowClock(() => slice([{ name: 'mushroom', mesh }], defaultSettings({ supportType: 'everywhere' })));
  const without = await turnsWithSlowClock(() => slice([{ name: 'mushroom', mesh }], defaultSettings()));
  // the support walk down the 30 layers (and its interface split) at least one turn each
  assert.ok(withSupport - without >= 30, `${withSupport} turns with support, ${without} without`);
});

test('paced passes a yield on only when the time is up; drain and runYielding return the result', async () => {
  function* work(n: number): Generator<void, number> {
    for (let i = 0; i < n; i++) yield;
    return n;
  }
  assert.equal(drain(work(5)), 5);
  let passed = 0;
  const p = paced(work(100), 1e9);
  for (let r = p.next(); !r.done; r = p.next()) passed++;
  assert.equal(passed, 0);
  assert.equal(await runYielding(paced(work(10), 0)), 10);
  const stop = new AbortController();
  stop.abort();
  await assert.rejects(runYielding(work(3), stop.signal), SliceCancelled);
});
