// Paths match in any letter case: clients write the same segments both ways (`/upload/WS/…` beside
// `/ws/tasks`), and how the hosted service matched them is not documented. The parameters keep the
// case they came in, and an unreadable request under an odd-cased `/V0.2/` still gets the legacy envelope.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { call, startTestServer, STL_SETTINGS, waitFor, type TestServer } from './api-helpers.js';
import { binaryStl, box, soup } from './mesh-fixtures.js';

describe('paths in any letter case', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t?.close());

  test('v1: upload, start, read and download through upper- and mixed-case paths; the file name keeps its case', async () => {
    const stl = binaryStl(soup(box(0, 0, 0, 10, 10, 2)));
    const up = await call(t.url, '/V1/Upload/stl/Part.STL', { key: t.key, body: stl, headers: { 'Content-Type': 'application/octet-stream' } });
    assert.equal(up.status, 200, up.text);
    assert.equal(up.body.fileName, 'Part.STL');
    assert.equal(up.body.type, 'STL');
    const start = await call(t.url, '/v1/STL/Tasks', { key: t.key, method: 'POST', json: { files: [{ fileId: up.body.fileId, type: 'STL' }], settings: STL_SETTINGS } });
    assert.equal(start.status, 200, start.text);
    const taskId: string = start.body.taskId;
    const done = await waitFor('the task to finish', async () => {
      const r = await call(t.url, `/V1/stl/TASKS/${taskId}`, { key: t.key });
      assert.equal(r.status, 200, r.text);
      return r.body.status === 'finished' ? r.body : r.body.status === 'failed' ? assert.fail(r.text) : undefined;
    });
    const file = await call(t.url, `/v1/Output/${done.output.outputId}/Download`, { key: t.key });
    assert.equal(file.status, 200);
    assert.match(file.text, /^;LAYER_COUNT:/m);
  });

  test('v0.2 and v0.1 calls in any case answer in the legacy envelope', async () => {
    for (const path of ['/v0.2/getprogress', '/V0.2/GETPROGRESS', '/v0.1/getProgress']) {
      const r = await call(t.url, path, { key: t.key, method: 'POST', json: {} });
      assert.equal(r.status, 400, `${path}: ${r.text}`);
      assert.equal(r.body.error?.errorCode, 'URE000', `${path}: ${r.text}`);
      assert.match(r.body.apiVersion, /^0\.[12]$/, `${path}: ${r.text}`);
    }
  });

  test('v0.3 task reads in any case', async () => {
    const r = await call(t.url, '/V0.3/STL/tasks/not-an-id', { key: t.key });
    assert.equal(r.status, 400, r.text);
    assert.equal(r.body.errorCode, 'URE005');
  });

  test('a path no call has is still the gateway\'s 404, in any case', async () => {
    const r = await call(t.url, '/V1/NoSuchThing', { key: t.key, method: 'POST', json: {} });
    assert.equal(r.status, 404);
    assert.deepEqual(r.body, { statusCode: 404, message: 'Resource not found' });
  });

  test('an undecodable path under /V0.2/ gets the legacy envelope', async () => {
    const r = await call(t.url, '/V0.2/GetProgress%FF', { key: t.key, method: 'POST', json: {} });
    assert.equal(r.status, 400, r.text);
    assert.equal(r.body.error?.errorCode, 'URE000', r.text);
  });
});
