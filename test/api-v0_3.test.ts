// Interface v0.3 over HTTP: the scripted client's whole flow (clients/v0_3-client.ts), STL files on
// /ws/tasks, the point-cloud grid as a top-level arrayDimensions, keys in any casing, v1's error
// bodies; and the OpenAPI document lists every version's routes.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { runV03Flow } from '../clients/v0_3-client.js';
import { parseModel } from '../src/engine/mesh/index.js';
import { boxMesh, centreOnBed, workspaceFile } from '../src/service/workspace/build-workspace.js';
import { encodePointCloud } from '../src/service/workspace/point-cloud.js';
import { CUBE_STL, STL_SETTINGS, call, startTestServer, upload, type TestServer } from './api-helpers.js';

describe('v0.3 over HTTP', () => {
  let t: TestServer;
  const v03 = (path: string, json?: unknown) => call(t.url, `/v0.3${path}`, { key: t.key, method: 'POST', ...(json !== undefined ? { json } : {}) });
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t?.close());

  test('the scripted client runs the whole flow (STL on /ws/tasks, read with POST, download, cancel)', async () => {
    const r = await runV03Flow(t.url, t.key, { model: CUBE_STL });
    assert.equal(r.task.output?.outputName, 'xyz_calibration_cube.gcode');
    assert.match(Buffer.from(r.output).toString('utf8'), /^;FLAVOR:/m);
    assert.equal(r.cancelled.status, 'cancelled');
    // the same tasks read through v1: an STL task started on /v0.3/ws/tasks is an STL task
    const v1 = await call(t.url, `/v1/stl/tasks/${r.task.taskId}`, { key: t.key });
    assert.equal(v1.body.status, 'finished');
    assert.deepEqual(v1.body.output, r.task.output);
  });

  test('a point-cloud workspace takes arrayDimensions from the top level of the task start; keys in any casing', async () => {
    const cube = centreOnBed(parseModel(readFileSync(CUBE_STL), 'cube.stl').mesh, 110, 110);
    const ws = workspaceFile([
      { name: 'sole.stl', mesh: cube },
      { name: 'shore.stl', mesh: boxMesh([100, 100, 0], [120, 120, 20]), priority: 1, fileReference: 'soft.pcsv' },
    ]);
    const wsId = (await upload(t, 'WS', 'sole.rvwj', JSON.stringify(ws))).body.fileId;
    const dims = [4, 2, 2];
    const pcId = (await upload(t, 'PC_SV', 'soft.pcsv', encodePointCloud(Array.from({ length: 16 }, (_, i) => 60 + i)))).body.fileId;
    const start = await v03('/ws/tasks', {
      Files: [
        { FileId: wsId, Type: 'WS', FileName: 'sole.rvwj' },
        { fileid: pcId, type: 'PC_SV', filename: 'soft.pcsv', FilamentName: 'Generic_TPU95A' },
      ],
      ArrayDimensions: dims,
      Settings: { PrinterModel: 'Creality Ender 3', SupportType: 'n', FilamentPresetName: 'Generic_TPU95A' },
    });
    assert.equal(start.status, 200, start.text);
    assert.equal(start.body.status, 'queued');
    assert.deepEqual(start.body.files[1], { fileId: pcId, fileName: 'soft.pcsv', type: 'PC_SV', arrayDimensions: dims, filamentName: 'Generic_TPU95A' });
    assert.equal(start.body.settings.printerModel, 'Creality Ender 3');

    // without the grid the start is refused, as in v1
    const missing = await v03('/ws/tasks', { files: [{ fileId: wsId, type: 'WS' }, { fileId: pcId, type: 'PC_SV' }], settings: STL_SETTINGS });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.errorCode, 'URE000');
    assert.match(missing.body.message, /arrayDimensions/);

    // a malformed top-level grid is refused even where no PC_SV entry would take it
    for (const bad of ['x', [4, 2], [4, 2, -1], [4.5, 2, 2]]) {
      const up = await upload(t, 'STL', 'cube.stl', readFileSync(CUBE_STL));
      const r = await v03('/ws/tasks', { files: [{ fileId: up.body.fileId, type: 'STL' }], arrayDimensions: bad, settings: STL_SETTINGS });
      assert.equal(r.status, 400, `${JSON.stringify(bad)}: ${r.text}`);
      assert.equal(r.body.errorCode, 'URE000');
      assert.match(r.body.message, /^arrayDimensions must be three positive whole numbers/);
    }
    // whole numbers, but more along an axis than any cloud can hold: said as such
    const up = await upload(t, 'STL', 'cube.stl', readFileSync(CUBE_STL));
    const wide = await v03('/ws/tasks', { files: [{ fileId: up.body.fileId, type: 'STL' }], arrayDimensions: [2_000_000, 1, 1], settings: STL_SETTINGS });
    assert.equal(wide.status, 400, wide.text);
    assert.equal(wide.body.message, 'arrayDimensions [2000000, 1, 1]: at most 1,000,000 voxels along an axis');
  });

  test('an STL file named without its type on /ws/tasks makes an STL task', async () => {
    const up = await upload(t, 'STL', 'cube.stl', readFileSync(CUBE_STL));
    const start = await v03('/ws/tasks', { files: [{ fileId: up.body.fileId }], settings: STL_SETTINGS });
    assert.equal(start.status, 200, start.text);
    const stlTasks = await call(t.url, '/v1/stl/tasks', { key: t.key });
    assert.ok(stlTasks.body.tasks.some((task: { taskId: string }) => task.taskId === start.body.taskId), 'listed with the STL tasks');
    const wsTasks = await call(t.url, '/v1/ws/tasks', { key: t.key });
    assert.ok(!wsTasks.body.tasks.some((task: { taskId: string }) => task.taskId === start.body.taskId), 'not listed with the workspace tasks');
  });

  test('errors have v1 bodies', async () => {
    const r = await v03('/ws/tasks/7d0c7a0e-2f7e-4c55-9b63-6f6e1d3b2a11');
    assert.equal(r.status, 404);
    assert.deepEqual(Object.keys(r.body).sort(), ['errorCode', 'message']);
    assert.equal(r.body.errorCode, 'URE005');
    const noKey = await call(t.url, '/v0.3/ws/tasks/7d0c7a0e-2f7e-4c55-9b63-6f6e1d3b2a11', {});
    assert.equal(noKey.status, 401);
    // refused by fastify before routing: still v1's body and codes
    const long = await call(t.url, `/v0.3/stl/tasks/${'a'.repeat(1001)}`, { key: t.key });
    assert.equal(long.status, 400);
    assert.equal(long.body.errorCode, 'URE005');
    const badName = await call(t.url, '/v0.3/upload/STL/%ff.stl', { key: t.key, body: 'x', headers: { 'Content-Type': 'application/octet-stream' } });
    assert.equal(badName.status, 400);
    assert.equal(badName.body.errorCode, 'URE000');
  });

  test('the OpenAPI document lists the routes of every version', async () => {
    const doc = await call(t.url, '/openapi.json');
    assert.equal(doc.status, 200);
    const paths = Object.keys(doc.body.paths);
    for (const p of [
      '/v1/stl/tasks',
      '/v0.3/ws/tasks',
      '/v0.3/ws/tasks/{taskId}',
      '/v0.3/upload/{fileType}/{fileName}',
      '/v0.2/GetActivationStatus',
      '/v0.2/UploadFile',
      '/v0.2/StartSlicingTask',
      '/v0.2/GetProgress',
      '/v0.2/GetPrintingInformation',
      '/v0.2/CancelSlicing',
      '/v0.2/DownloadFile',
      '/v0.1/ProvideFile',
      '/v0.1/DownloadFile',
    ]) {
      assert.ok(paths.includes(p), `${p} is not in /openapi.json`);
    }
    assert.ok(!paths.includes('/v0.1/StartSlicingTask'));
    assert.ok(doc.body.paths['/v0.2/DownloadFile'].get && doc.body.paths['/v0.2/DownloadFile'].post);
  });
});
