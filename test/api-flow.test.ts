// The tutorial flows of the deployed interface over real HTTP with the real engine: upload, start,
// poll (GET and POST), download; the G-code header's totals equal the task's info. Also: server-sent
// events, listing and deleting, OAuth2 bearer tokens, and cancelling a slice in progress.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { parseModel } from '../src/engine/mesh/index.js';
import { formatInfo } from '../src/engine/output/index.js';
import {
  CUBE_STL,
  SLOW_OVERRIDES,
  STL_SETTINGS,
  call,
  gcodeHeaderTotals,
  startTestServer,
  upload,
  waitFor,
  waitForStatus,
  type TestServer,
} from './api-helpers.js';

const ISO7 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z$/;
const UNSET = '0001-01-01T00:00:00';

/** The cube as a Workspace file the way real ones are written: capitalised keys, absolute bed mm. */
function cubeWorkspace(): string {
  const { mesh } = parseModel(readFileSync(CUBE_STL), 'cube.stl');
  const p = mesh.positions;
  let minX = Infinity, minY = Infinity, minZ = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (let i = 0; i < p.length; i += 3) {
    minX = Math.min(minX, p[i]!); maxX = Math.max(maxX, p[i]!);
    minY = Math.min(minY, p[i + 1]!); maxY = Math.max(maxY, p[i + 1]!);
    minZ = Math.min(minZ, p[i + 2]!);
  }
  const dx = 110 - (minX + maxX) / 2, dy = 110 - (minY + maxY) / 2;
  const positions = Array.from(mesh.indices, (v) => ({ X: p[v * 3]! + dx, Y: p[v * 3 + 1]! + dy, Z: p[v * 3 + 2]! - minZ }));
  const model = (name: string, meta: Record<string, unknown>, scale = 1) => ({
    metaData: { IsGroup: false, Path: '', Name: name, PrintingMaterial: 0, Watertight: 'PerformCheck', ...meta },
    position: { X: 0, Y: 0, Z: 0 }, scale: { X: 1, Y: 1, Z: 1 }, rotationX: 0, rotationY: 0, rotationZ: 0,
    FlipedX: false, FlipedY: false, FlipedZ: false,
    BoundsPositions: [{ X: 0, Y: 0, Z: 0 }], BoundsIndices: [0],
    ModelPositions: positions.map((q) => ({ X: 110 + (q.X - 110) * scale, Y: 110 + (q.Y - 110) * scale, Z: q.Z * scale })),
    ModelIndices: positions.map((_, i) => i),
  });
  return JSON.stringify({
    Printer: { Dummy: [3, 0, 1] },
    Models: [
      model('20mm_cube.stl', { SlicingPriority: 0 }),
      model('half_density.stl', { SlicingPriority: 2, Modifier: { FillDensityFactor: 0.5 } }, 0.5),
    ],
    SelectedSupport: 'none',
  });
}

/** The header totals written the interface's way must equal the task's info strings. */
function assertHeaderMatchesInfo(gcode: string, info: { time: string; length: string; weight: string }): void {
  const h = gcodeHeaderTotals(gcode);
  assert.deepEqual(formatInfo({ printTimeS: h.timeS, filamentMm: h.filamentM * 1000, filamentG: h.weightG }), info);
}

describe('v1 flows over HTTP', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t.close());

  test('STL: upload, start, poll with POST and GET, download; header totals equal info', async () => {
    const up = await upload(t, 'STL', 'cube.stl', readFileSync(CUBE_STL));
    assert.equal(up.status, 200);
    assert.deepEqual(Object.keys(up.body).sort(), ['fileId', 'fileName', 'type']);
    assert.equal(up.body.fileName, 'cube.stl');
    assert.equal(up.body.type, 'STL');

    const files = [{ fileId: up.body.fileId, type: 'STL', fileName: 'cube.stl' }];
    const start = await call(t.url, '/v1/stl/tasks', { key: t.key, json: { files, settings: STL_SETTINGS } });
    assert.equal(start.status, 200);
    const task = start.body;
    assert.equal(task.status, 'queued');
    assert.equal(task.progress, 0);
    assert.match(task.queueDate, ISO7);
    assert.equal(task.startDate, UNSET);
    assert.equal(task.endDate, UNSET);
    assert.deepEqual(task.files, files);
    assert.deepEqual(task.settings, STL_SETTINGS);
    assert.equal(task.info, undefined);
    assert.equal(task.output, undefined);

    // the tutorial polls with POST and no body
    const polled = await waitFor('finished (POST)', async () => {
      const r = await call(t.url, `/v1/stl/tasks/${task.taskId}`, { method: 'POST', key: t.key, headers: { 'Content-Type': 'application/json' } });
      assert.equal(r.status, 200);
      return r.body.status === 'finished' ? r.body : undefined;
    });
    const got = await call(t.url, `/v1/stl/tasks/${task.taskId}`, { key: t.key });
    assert.deepEqual(got.body, polled);
    assert.equal(polled.progress, 1);
    assert.match(polled.startDate, ISO7);
    assert.match(polled.endDate, ISO7);
    assert.match(polled.info.time, /^\d+:\d\d:\d\d$/);
    assert.match(polled.info.length, /^\d+\.\d\dmeters?$/);
    assert.match(polled.info.weight, /^\d+\.\d\dgrams$/);
    const out = polled.output;
    assert.deepEqual(out, { outputName: 'cube.gcode', outputId: out.outputId, taskId: task.taskId, fileId: out.outputId, format: 'GCODE' });

    const dl = await call(t.url, `/v1/output/${out.outputId}/download`, { key: t.key });
    assert.equal(dl.status, 200);
    assert.equal(dl.headers.get('content-type'), 'application/octet-stream');
    assert.equal(dl.headers.get('content-disposition'), 'attachment; filename=cube.gcode');
    assert.match(dl.text, /^;FLAVOR:Marlin/);
    assertHeaderMatchesInfo(dl.text, polled.info);
    const alias = await call(t.url, `/v1/output/${out.outputId}`, { key: t.key });
    assert.ok(Buffer.from(alias.bytes).equals(Buffer.from(dl.bytes)), 'the alias serves the same file');
  });

  test('Workspace: capitalised keys, absolute positions, a modifier not printed', async () => {
    const up = await upload(t, 'WS', 'benchy.json', cubeWorkspace());
    assert.equal(up.status, 200);
    assert.equal(up.body.type, 'WS');
    const body = { files: [{ fileId: up.body.fileId, type: 'WS', fileName: 'benchy.json' }], settings: STL_SETTINGS };
    const start = await call(t.url, '/v1/ws/tasks/', { key: t.key, json: body });
    assert.equal(start.status, 200, start.text);
    const done = await waitForStatus(t, 'ws', start.body.taskId, ['finished', 'failed']);
    assert.equal(done.status, 'finished', JSON.stringify(done.error));
    assert.equal(done.output.outputName, 'benchy.gcode');
    const dl = await call(t.url, `/v1/output/${done.output.outputId}/download`, { key: t.key });
    assert.match(dl.text, /^;MESH:20mm_cube\.stl/m);
    assert.doesNotMatch(dl.text, /^;MESH:half_density\.stl/m, 'a modifier is never printed');
    assertHeaderMatchesInfo(dl.text, done.info);
    // the workspace placed the cube at the bed centre: the print's bounds say so
    const minX = Number(/^;MINX:([\d.]+)/m.exec(dl.text)![1]);
    const maxX = Number(/^;MAXX:([\d.]+)/m.exec(dl.text)![1]);
    assert.ok(Math.abs((minX + maxX) / 2 - 110) < 1, `centred at ${(minX + maxX) / 2}`);
  });

  test('server-sent events follow a task to its end', async () => {
    const up = await upload(t, 'STL', 'sse.stl', readFileSync(CUBE_STL));
    // a slice of a second or two: a warm worker slices the plain cube in tens of ms, and on a busy
    // machine the task could end before the stream was opened (no progress event to see)
    const start = await call(t.url, '/v1/stl/tasks', {
      key: t.key,
      json: { files: [{ fileId: up.body.fileId, type: 'STL', fileName: 'sse.stl' }], settings: { ...STL_SETTINGS, overrides: SLOW_OVERRIDES } },
    });
    const res = await fetch(`${t.url}/v1/stl/tasks/${start.body.taskId}/events`, { headers: { 'Ocp-Apim-Subscription-Key': t.key } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    const text = await res.text(); // the stream ends when the task does
    const events = text
      .split('\n\n')
      .filter((b) => b.includes('data: '))
      .map((b) => ({ event: /event: (\w+)/.exec(b)![1], task: JSON.parse(/data: (.*)/.exec(b)![1]!) }));
    assert.equal(events.at(-1)!.task.status, 'finished');
    assert.equal(events.at(-1)!.event, 'status');
    const progress = events.map((e) => e.task.progress);
    assert.deepEqual([...progress].sort((a, b) => a - b), progress, 'progress never goes back');
    assert.ok(events.some((e) => e.event === 'progress' && e.task.progress > 0 && e.task.progress < 1), 'progress events while running');
  });

  test('tasks list newest first in pages; a deleted task and its output are gone', async () => {
    const list = await call(t.url, '/v1/stl/tasks?limit=1', { key: t.key });
    assert.equal(list.status, 200);
    assert.equal(list.body.tasks.length, 1);
    assert.ok(list.body.nextCursor);
    const rest = await call(t.url, `/v1/stl/tasks?limit=50&cursor=${list.body.nextCursor}`, { key: t.key });
    const all = [...list.body.tasks, ...rest.body.tasks];
    assert.equal(all.length, 2);
    assert.ok(all[0].queueDate > all[1].queueDate);
    const ws = await call(t.url, '/v1/ws/tasks', { key: t.key });
    assert.equal(ws.body.tasks.length, 1);

    const victim = all[1];
    assert.equal((await call(t.url, `/v1/stl/tasks/${victim.taskId}`, { method: 'DELETE', key: t.key })).status, 204);
    assert.equal((await call(t.url, `/v1/stl/tasks/${victim.taskId}`, { key: t.key })).status, 404);
    const dl = await call(t.url, `/v1/output/${victim.output.outputId}/download`, { key: t.key });
    assert.equal(dl.status, 404);
    assert.equal(dl.body.errorCode, 'URE006');
    // the uploaded file outlives the task, until it is deleted itself
    const file = await call(t.url, `/v1/files/${victim.files[0].fileId}`, { key: t.key });
    assert.equal(file.status, 200);
    assert.equal(file.body.size, readFileSync(CUBE_STL).length);
    // written as the task dates are
    assert.match(file.body.uploadDate, ISO7);
    assert.ok(file.body.uploadDate <= victim.queueDate, `${file.body.uploadDate} after the task's ${victim.queueDate}`);
    assert.equal((await call(t.url, `/v1/files/${victim.files[0].fileId}`, { method: 'DELETE', key: t.key })).status, 204);
    assert.equal((await call(t.url, `/v1/files/${victim.files[0].fileId}`, { key: t.key })).body.errorCode, 'URE006');
  });

  test('OAuth2 client credentials give a bearer token that works like the key', async () => {
    const [keyRecord] = await t.server.runtime.accounts.listKeys();
    const form = (secret: string) =>
      call(t.url, '/oauth2/token', {
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: keyRecord!.id, client_secret: secret }).toString(),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      });
    const ok = await form(t.key);
    assert.equal(ok.status, 200);
    assert.equal(ok.body.token_type, 'Bearer');
    assert.equal(ok.body.expires_in, 3600);
    const list = await call(t.url, '/v1/stl/tasks', { headers: { Authorization: `Bearer ${ok.body.access_token}` } });
    assert.equal(list.status, 200);
    assert.equal(list.body.tasks.length, 1);
    const wrong = await form('0'.repeat(64));
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.error, 'invalid_client');
    const basic = await call(t.url, '/oauth2/token', {
      json: { grant_type: 'client_credentials' },
      headers: { Authorization: `Basic ${Buffer.from(`${keyRecord!.id}:${t.key}`).toString('base64')}` },
    });
    assert.equal(basic.status, 200);
    const grant = await call(t.url, '/oauth2/token', { json: { grant_type: 'password', client_id: 'a', client_secret: 'b' } });
    assert.equal(grant.body.error, 'unsupported_grant_type');
    const bad = await call(t.url, '/v1/stl/tasks', { headers: { Authorization: 'Bearer nope' } });
    assert.equal(bad.status, 401);
    assert.equal(bad.body.statusCode, 401);
    // a token this service did not issue, sent with a valid key (the general documentation shows
    // both headers): the key lets the request in; with a wrong key it is still refused
    const both = await call(t.url, '/v1/stl/tasks', { key: t.key, headers: { Authorization: 'Bearer eyJhbGciOiJSUzI1NiJ9.e30.sig' } });
    assert.equal(both.status, 200, both.text);
    const wrongKey = await call(t.url, '/v1/stl/tasks', { key: '0'.repeat(32), headers: { Authorization: 'Bearer nope' } });
    assert.equal(wrongKey.status, 401);
  });

  test('cancelling a slice in progress frees the worker for the next task at once', async () => {
    const up = await upload(t, 'STL', 'slow.stl', readFileSync(CUBE_STL));
    const files = [{ fileId: up.body.fileId, type: 'STL', fileName: 'slow.stl' }];
    const slow = await call(t.url, '/v1/stl/tasks', { key: t.key, json: { files, settings: { ...STL_SETTINGS, overrides: SLOW_OVERRIDES } } });
    assert.equal(slow.status, 200, slow.text);
    const next = await call(t.url, '/v1/stl/tasks', { key: t.key, json: { files, settings: STL_SETTINGS } });
    await waitFor('the slow slice to run', async () => {
      const r = await call(t.url, `/v1/stl/tasks/${slow.body.taskId}`, { key: t.key });
      return r.body.status === 'running' && r.body.progress > 0;
    });
    assert.equal((await call(t.url, `/v1/stl/tasks/${next.body.taskId}`, { key: t.key })).body.status, 'queued', 'one worker: the next task waits');
    // HEAD on the events of a task that has not ended: the stream's headers at once (it used to answer
    // nothing until the task ended, since Node holds a HEAD response back until it ends)
    const head = await call(t.url, `/v1/stl/tasks/${next.body.taskId}/events`, { method: 'HEAD', key: t.key, timeoutMs: 5000 });
    assert.equal(head.status, 200);
    assert.match(head.headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.equal((await call(t.url, `/v1/stl/tasks/${next.body.taskId}`, { key: t.key })).body.status, 'queued', 'HEAD left the task as it was');
    const t0 = Date.now();
    const cancelled = await call(t.url, `/v1/stl/tasks/${slow.body.taskId}/cancel`, { method: 'POST', key: t.key });
    assert.equal(cancelled.status, 200);
    assert.equal(cancelled.body.status, 'cancelled');
    assert.match(cancelled.body.endDate, ISO7);
    await waitFor('the next task to start', async () => {
      const r = await call(t.url, `/v1/stl/tasks/${next.body.taskId}`, { key: t.key });
      return r.body.status !== 'queued';
    });
    const ms = Date.now() - t0;
    assert.ok(ms < 1500, `the worker took the next task ${ms} ms after the cancel`);
    const again = await call(t.url, `/v1/stl/tasks/${slow.body.taskId}/cancel`, { method: 'POST', key: t.key });
    assert.equal(again.body.status, 'cancelled');
    const finished = await waitForStatus(t, 'stl', next.body.taskId, ['finished']);
    const cancelFinished = await call(t.url, `/v1/stl/tasks/${next.body.taskId}/cancel`, { method: 'POST', key: t.key });
    assert.deepEqual(cancelFinished.body, finished, 'cancelling a finished task changes nothing');
  });
});
