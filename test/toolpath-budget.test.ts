// The toolpath budget (SliceOptions.maxToolpathBytes; the service's STRATUM_TASK_MAX_TOOLPATH_MB):
// a job whose packed plans and machine moves would take more memory than allowed fails with a
// SliceError that says what to change, as soon as it passes, on this thread, on layer threads (each
// batch's own plans, and all batches together) and through the service.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { slice } from '../src/engine/pipeline.js';
import { SliceError, type LayerExecutor } from '../src/engine/index.js';
import { defaultSettings } from '../src/profiles/defaults.js';
import { LayerPool } from '../src/runner/layer-pool.js';
import { box } from './mesh-fixtures.js';
import { CUBE_STL, STL_SETTINGS, call, startTestServer, upload, waitForStatus } from './api-helpers.js';

const meshOf = (m: ReturnType<typeof box>) => ({ positions: Float32Array.from(m.positions), indices: Uint32Array.from(m.indices) });
// 310 layers of a 30 × 30 mm slab
const slab = () => [{ name: 'slab', mesh: meshOf(box(0, 0, 0, 30, 30, 62)) }];
const TOO_LARGE = /^the toolpath needs more memory than one task may take here \(\d+ MiB; .*\): choose a larger layerHeight, a lower infillDensity, or fewer or smaller models$/;

function assertTooLarge(err: unknown, stage: RegExp): true {
  assert.ok(err instanceof SliceError, String(err));
  assert.equal(err.code, 'BAD_SETTINGS');
  assert.match(err.message, TOO_LARGE);
  assert.match(err.message, stage);
  return true;
}

describe('toolpath budget', () => {
  test('a slice reports its toolpath bytes; a budget of exactly that passes with the same file, one byte less fails', async () => {
    const s = defaultSettings();
    const free = await slice(slab(), s);
    const used = free.stats.toolpathBytes;
    // the moves alone are 40 bytes an operation, and the plans more than nothing
    assert.ok(used > 0 && used % 1 === 0);
    const exact = await slice(slab(), s, { maxToolpathBytes: used });
    assert.deepEqual(exact.output, free.output);
    assert.equal(exact.stats.toolpathBytes, used);
    await assert.rejects(slice(slab(), s, { maxToolpathBytes: used - 1 }), (e) => assertTooLarge(e, /plans and moves together/));
  });

  test('plans past the budget stop the layers there, long before the last one', async () => {
    const s = defaultSettings();
    const used = (await slice(slab(), s)).stats.toolpathBytes;
    let furthest = 0;
    const onProgress = (f: number) => (furthest = Math.max(furthest, f));
    // a tenth of the whole: the plans pass it about a sixth of the way up (they are ~40 % of it)
    await assert.rejects(slice(slab(), s, { maxToolpathBytes: Math.round(used / 10), onProgress }), (e) => assertTooLarge(e, /plans alone/));
    assert.ok(furthest < 0.5, `progress reached ${furthest}`);
  });

  test('on layer threads: a batch over the budget fails in its thread, and batches together over it fail as they come in', async () => {
    const s = defaultSettings();
    const pool = new LayerPool(2);
    try {
      const threaded = await slice(slab(), s, { executor: pool.executor, minVerticesForThreads: 0 });
      const used = threaded.stats.toolpathBytes;
      // each batch's own plans are over the budget: its thread throws (the sum across batches, not
      // passed on here, cannot be what failed)
      const noSum: LayerExecutor = (batches, onLayer, signal) => pool.executor(batches, onLayer, signal);
      await assert.rejects(
        slice(slab(), s, { executor: noSum, minVerticesForThreads: 0, maxToolpathBytes: 1000 }),
        (e) => assertTooLarge(e, /plans alone/),
      );
      // the threads ended with the failure, and the next slice starts new ones
      const again = await slice(slab(), s, { executor: pool.executor, minVerticesForThreads: 0 });
      assert.deepEqual(again.output, threaded.output);
      // batches that do not check themselves (the budget taken off them): the sum across them fails
      let results = 0;
      const unchecked: LayerExecutor = (batches, onLayer, signal, onResult) =>
        pool.executor(
          batches.map(({ maxToolpathBytes: _dropped, ...b }) => b),
          onLayer,
          signal,
          (r) => {
            results++;
            onResult?.(r);
          },
        );
      await assert.rejects(
        slice(slab(), s, { executor: unchecked, minVerticesForThreads: 0, maxToolpathBytes: Math.round(used / 10) }),
        (e) => assertTooLarge(e, /plans alone/),
      );
      assert.ok(results >= 2 && results < 16, `${results} of 16 batches came back before the failure`);
    } finally {
      pool.terminate();
    }
  });

  test('service: a task over STRATUM_TASK_MAX_TOOLPATH_MB fails with SF000 and the message, and no output', async () => {
    const t = await startTestServer({ taskMaxToolpathMb: 1, maxAttempts: 3 });
    try {
      const id = (await upload(t, 'STL', 'cube.stl', readFileSync(CUBE_STL))).body.fileId;
      const files = [{ fileId: id, type: 'STL', fileName: 'cube.stl' }];
      // the cube at the defaults takes ~0.6 MiB; at 0.1 mm and full infill, several
      const fine = { ...STL_SETTINGS, overrides: { layerHeight: 0.1, infillDensity: 100 } };
      const r = await call(t.url, '/v1/stl/tasks', { key: t.key, json: { files, settings: fine } });
      assert.equal(r.status, 200, r.text);
      const failed = await waitForStatus(t, 'stl', r.body.taskId, ['failed', 'finished'], 60_000);
      assert.equal(failed.status, 'failed');
      assert.equal(failed.error.errorCode, 'SF000');
      assert.match(failed.error.message, /the toolpath needs more memory than one task may take here \(1 MiB; /);
      assert.equal(failed.output, undefined);
      // the defaults fit
      const ok = await call(t.url, '/v1/stl/tasks', { key: t.key, json: { files, settings: STL_SETTINGS } });
      const done = await waitForStatus(t, 'stl', ok.body.taskId, ['failed', 'finished'], 60_000);
      assert.equal(done.status, 'finished', JSON.stringify(done.error));
    } finally {
      await t.close();
    }
  });
});
