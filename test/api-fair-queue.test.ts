// One account's batch does not hold up another account's task: over HTTP, one slicing worker, an
// account queues six 3DBenchy tasks, then a second account one cube. In a first-in-first-out line the
// cube came back last, after all six; in the fair line it comes back after at most two of them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MODELS } from './shared-dir.js';
import { CUBE_STL, call, startTestServer, waitFor } from './api-helpers.js';

const SETTINGS = { printerModel: 'Creality Ender 3', supportType: 'n', filamentPresetName: 'Generic_PLA' };

async function startTask(url: string, key: string, fileName: string, bytes: Buffer): Promise<string> {
  const up = await call(url, `/v1/upload/STL/${fileName}`, { key, body: bytes, headers: { 'Content-Type': 'application/octet-stream' } });
  assert.equal(up.status, 200);
  const files = [{ fileId: up.body.fileId, type: 'STL', fileName }];
  const start = await call(url, '/v1/stl/tasks', { key, json: { files, settings: SETTINGS } });
  assert.equal(start.status, 200);
  return start.body.taskId;
}

test("one account's six tasks do not hold up another account's task queued after them", async () => {
  const t = await startTestServer({ workers: 1 });
  try {
    const other = (await t.server.runtime.accounts.createKey('other')).key;
    const benchy = readFileSync(join(MODELS, '3dbenchy.stl'));
    const flood: string[] = [];
    for (let i = 0; i < 6; i++) flood.push(await startTask(t.url, t.key, `benchy-${i}.stl`, benchy));
    const cube = await startTask(t.url, other, 'cube.stl', readFileSync(CUBE_STL));
    const ended = async (key: string, id: string) =>
      waitFor(`task ${id} finished`, async () => {
        const r = await call(t.url, `/v1/stl/tasks/${id}`, { key });
        assert.notEqual(r.body.status, 'failed');
        return r.body.status === 'finished' ? String(r.body.endDate) : undefined;
      }, 120_000);
    const cubeEnd = await ended(other, cube);
    const floodEnds: string[] = [];
    for (const id of flood) floodEnds.push(await ended(t.key, id));
    // ISO dates with seven decimals compare as text
    const before = floodEnds.filter((e) => e < cubeEnd).length;
    assert.ok(before <= 2, `the cube finished after ${before} of the six (first in, first out: after all six)`);
  } finally {
    await t.close();
  }
});
