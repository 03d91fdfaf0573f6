// Stopping the server right after a download: the connection that carried it must not hold the
// close for its keep-alive timeout (72 s), as it did when the response was still finishing on the
// server's side at the moment the close began.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { CUBE_STL, call, startTestServer, upload, waitForStatus } from './api-helpers.js';

test('the server closes at once after a download, though its connection was still busy when the close began', async () => {
  const t = await startTestServer();
  let closed = false;
  try {
    const up = await upload(t, 'STL', 'cube.stl', readFileSync(CUBE_STL));
    const files = [{ fileId: up.body.fileId, type: 'STL', fileName: 'cube.stl' }];
    const start = await call(t.url, '/v1/stl/tasks', { key: t.key, json: { files, settings: { printerModel: 'Creality Ender 3', supportType: 'n' } } });
    const done = await waitForStatus(t, 'stl', start.body.taskId, ['finished'], 30_000);
    const dl = await call(t.url, `/v1/output/${done.output.outputId}/download`, { key: t.key });
    assert.equal(dl.status, 200);
    const t0 = performance.now();
    await t.close();
    closed = true;
    const ms = performance.now() - t0;
    assert.ok(ms < 5000, `close took ${Math.round(ms)} ms`);
  } finally {
    if (!closed) await t.close();
  }
});
