// An event stream its client closes before the task ends never finishes, so fastify's onResponse
// hook never sees it: it is counted in /metrics and logged by the route itself.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { CUBE_STL, SLOW_OVERRIDES, STL_SETTINGS, call, startTestServer, upload, waitFor, type TestServer } from './api-helpers.js';

describe('event streams closed by the client', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t.close());

  test('an event stream the client closes is counted and logged like any request', async () => {
    const streamed = async () => {
      const m = /^stratum_http_requests_total\{method="GET",route="\/v1\/stl\/tasks\/:taskId\/events",status="200"\} (\d+)$/m.exec((await call(t.url, '/metrics')).text);
      return m ? Number(m[1]) : 0;
    };
    const before = await streamed();
    const up = await upload(t, 'STL', 'gone.stl', readFileSync(CUBE_STL));
    const start = await call(t.url, '/v1/stl/tasks', {
      key: t.key,
      json: { files: [{ fileId: up.body.fileId, type: 'STL', fileName: 'gone.stl' }], settings: { ...STL_SETTINGS, overrides: SLOW_OVERRIDES } },
    });
    const abort = new AbortController();
    const res = await fetch(`${t.url}/v1/stl/tasks/${start.body.taskId}/events`, { headers: { 'Ocp-Apim-Subscription-Key': t.key }, signal: abort.signal });
    assert.equal(res.status, 200);
    await res.body!.getReader().read(); // the first event: the stream is open
    abort.abort();
    await waitFor('the closed stream to be counted', async () => (await streamed()) === before + 1, 5000);
    await call(t.url, `/v1/stl/tasks/${start.body.taskId}/cancel`, { method: 'POST', key: t.key });
  });
});
