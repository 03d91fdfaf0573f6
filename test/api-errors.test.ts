// Every error the v1 API answers, over real HTTP: 401 in the gateway's shape, JSON 404 for unknown
// routes, URE000–URE006 with their statuses, SF000 for failed tasks and internal errors, 413 on
// uploads, bad file names, paths fastify refuses before routing, an upload cut off half-way, and two
// accounts that cannot see each other.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { sqlite } from '../src/store/sqlite/driver.js';
import { binaryStl, box, soup } from './mesh-fixtures.js';
import { CUBE_STL, STL_SETTINGS, call, removeDir, startTestServer, upload, waitFor, waitForStatus, type TestServer } from './api-helpers.js';

const GUID = '0b3f2c8e-3d0a-4c55-9a57-1f1e2d3c4b5a';

function assertError(r: { status: number; body: any; text: string }, status: number, code: string, message?: RegExp): void {
  assert.equal(r.status, status, r.text);
  assert.equal(r.body?.errorCode, code, r.text);
  assert.equal(typeof r.body.message, 'string');
  assert.doesNotMatch(r.text, /\bat .*\.js:\d+/, 'no stack trace');
  if (message) assert.match(r.body.message, message);
}

const dirFiles = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);

describe('v1 errors', () => {
  let t: TestServer;
  let other: string;
  let stlId: string;
  before(async () => {
    t = await startTestServer({ maxUploadBytes: 1_000_000 });
    other = (await t.server.runtime.accounts.createKey('other')).key;
    stlId = (await upload(t, 'STL', 'cube.stl', readFileSync(CUBE_STL))).body.fileId;
  });
  after(async () => t.close());
  const start = (kind: string, body: unknown, key = t.key) => call(t.url, `/v1/${kind}/tasks`, { key, json: body });
  const stlFiles = () => [{ fileId: stlId, type: 'STL', fileName: 'cube.stl' }];

  test('401: missing, wrong and revoked keys, in the gateway shape; the query parameter works', async () => {
    const missing = await call(t.url, '/v1/stl/tasks');
    assert.equal(missing.status, 401);
    assert.deepEqual(missing.body, {
      statusCode: 401,
      message: 'Access denied due to missing subscription key. Make sure to include subscription key when making requests to an API.',
    });
    const wrong = await call(t.url, '/v1/stl/tasks', { key: 'f'.repeat(64) });
    assert.equal(wrong.status, 401);
    assert.match(wrong.body.message, /invalid subscription key/);
    assert.equal((await call(t.url, `/v1/stl/tasks?subscription-key=${t.key}`)).status, 200);
    const spare = await t.server.runtime.accounts.createKey('spare');
    assert.equal((await call(t.url, '/v1/stl/tasks', { key: spare.key })).status, 200);
    await t.server.runtime.accounts.revokeKey(spare.record.id);
    assert.equal((await call(t.url, '/v1/stl/tasks', { key: spare.key })).status, 401);
  });

  test('unknown routes answer a JSON 404', async () => {
    for (const path of ['/nope', '/v1/nope', '/v2/stl/tasks']) {
      const r = await call(t.url, path, { key: t.key });
      assert.equal(r.status, 404);
      assert.deepEqual(r.body, { statusCode: 404, message: 'Resource not found' });
    }
  });

  test('URE000: malformed bodies and settings', async () => {
    assertError(await start('stl', { settings: STL_SETTINGS }), 400, 'URE000', /files/);
    assertError(await start('stl', { files: stlFiles(), settings: { supportType: 'n' } }), 400, 'URE000', /printerModel/);
    // a blank name is no printer (it sliced for the default printer, silently)
    for (const blank of [' ', '\t', '\n', '\u00a0']) {
      assertError(await start('stl', { files: stlFiles(), settings: { ...STL_SETTINGS, printerModel: blank } }), 400, 'URE000', /printerModel is required/);
    }
    assertError(await start('stl', { files: stlFiles(), settings: { ...STL_SETTINGS, supportType: 'x' } }), 400, 'URE000');
    assertError(await call(t.url, '/v1/stl/tasks', { key: t.key, body: '{"files": [', headers: { 'Content-Type': 'application/json' } }), 400, 'URE000', /JSON/);
    const badKey = await start('stl', { files: stlFiles(), settings: { ...STL_SETTINGS, overrides: { layerHieght: 0.1 } } });
    assertError(badKey, 400, 'URE000', /layerHieght/);
    assert.equal(badKey.body.details.key, 'layerHieght');
    assertError(await start('stl', { files: stlFiles(), settings: { ...STL_SETTINGS, overrides: { layerHeight: 'thick' } } }), 400, 'URE000');
    // strings are strings: a one-element array is not taken for its element
    assertError(await start('stl', { files: stlFiles(), settings: { ...STL_SETTINGS, printerModel: ['Creality Ender 3'] } }), 400, 'URE000', /printerModel/);
    assertError(await start('stl', { files: stlFiles(), settings: { ...STL_SETTINGS, supportType: ['e'] } }), 400, 'URE000', /supportType/);
    assertError(await start('stl', { files: [{ ...stlFiles()[0], fileId: [stlId] }], settings: STL_SETTINGS }), 400, 'URE000', /fileId/);
    assertError(await upload(t, 'not a type!', 'a.stl', 'x'), 400, 'URE000');
    assertError(await upload(t, 'STL', 'model.txt', 'x'), 400, 'URE000', /STL/);
    assertError(await call(t.url, '/v1/stl/tasks?limit=0', { key: t.key }), 400, 'URE000');
    assertError(await call(t.url, '/v1/stl/tasks?cursor=bm9wZQ', { key: t.key }), 400, 'URE000', /cursor/);
  });

  test('URE000: a point cloud whose size does not match its dimensions', async () => {
    const ws = (await upload(t, 'WS', 'w.rvwj', '{"Models": []}')).body.fileId;
    const pc = (await upload(t, 'PC_SV', 'shore.bin', new Uint8Array(8 * 2 * 2 * 2))).body.fileId;
    const files = (dims: number[]) => [
      { fileId: ws, type: 'WS', fileName: 'w.rvwj' },
      { fileId: pc, type: 'PC_SV', fileName: 'shore.bin', arrayDimensions: dims, filamentName: 'Generic_TPU95A' },
    ];
    assertError(await start('ws', { files: files([2, 2, 3]), settings: STL_SETTINGS }), 400, 'URE000', /arrayDimensions 2×2×3 need 96/);
    // the right size passes that check; the workspace itself is read at task start too
    assertError(await start('ws', { files: files([2, 2, 2]), settings: STL_SETTINGS }), 400, 'URE000', /no model to print/);
  });

  test('URE001 and URE002: wrong extensions; a WS task without a workspace', async () => {
    assertError(await upload(t, 'WS', 'model.stl', '{}'), 400, 'URE001', /\.rvwj/);
    assertError(await upload(t, 'XML', 'config.txt', '<configuration/>'), 400, 'URE002', /\.xml/);
    assertError(await start('ws', { files: stlFiles(), settings: STL_SETTINGS }), 400, 'URE001');
  });

  test('URE003: unknown printer or preset names, with close matches', async () => {
    const printer = await start('stl', { files: stlFiles(), settings: { ...STL_SETTINGS, printerModel: 'Creality Ender 33' } });
    assertError(printer, 404, 'URE003', /Creality Ender 3/);
    assert.ok(printer.body.details.suggestions.includes('Creality Ender 3'));
    assertError(await start('stl', { files: stlFiles(), settings: { ...STL_SETTINGS, filamentPresetName: 'Nonexistent_PLA' } }), 404, 'URE003');
    assertError(await start('stl', { files: stlFiles(), settings: { ...STL_SETTINGS, qualityPresetName: 'Ultra' } }), 404, 'URE003');
  });

  test('URE004 for an empty XML configuration; a bad one is URE000; a good one is used', async () => {
    const empty = (await upload(t, 'XML', 'empty.xml', '')).body.fileId;
    const files = (xml: string) => [...stlFiles(), { fileId: xml, type: 'XML', fileName: 'c.xml' }];
    assertError(await start('stl', { files: files(empty), settings: STL_SETTINGS }), 400, 'URE004');
    const bad = (await upload(t, 'XML', 'bad.xml', '<configuration><setting name="noSuchKey">1</setting></configuration>')).body.fileId;
    assertError(await start('stl', { files: files(bad), settings: STL_SETTINGS }), 400, 'URE000', /noSuchKey/);
    const good = (await upload(t, 'XML', 'good.xml', '<configuration><setting name="layerHeight">0.3</setting></configuration>')).body.fileId;
    const ok = await start('stl', { files: files(good), settings: STL_SETTINGS });
    assert.equal(ok.status, 200, ok.text);
    const done = await waitForStatus(t, 'stl', ok.body.taskId, ['finished', 'failed']);
    assert.equal(done.status, 'finished');
    const gcode = (await call(t.url, `/v1/output/${done.output.outputId}/download`, { key: t.key })).text;
    assert.match(gcode, /^;Layer height: 0\.3$/m);
  });

  test('URE005: a malformed task id is 400, an unknown one 404, on every task route', async () => {
    for (const [method, suffix] of [['GET', ''], ['POST', ''], ['POST', '/cancel'], ['DELETE', ''], ['GET', '/events']] as const) {
      assertError(await call(t.url, `/v1/stl/tasks/not-a-guid${suffix}`, { method, key: t.key }), 400, 'URE005');
      assertError(await call(t.url, `/v1/ws/tasks/${GUID}${suffix}`, { method, key: t.key }), 404, 'URE005');
    }
  });

  test('URE006: unknown files and outputs', async () => {
    assertError(await start('stl', { files: [{ fileId: GUID, type: 'STL', fileName: 'x.stl' }], settings: STL_SETTINGS }), 404, 'URE006');
    assertError(await start('stl', { files: [{ fileId: 'nope', type: 'STL', fileName: 'x.stl' }], settings: STL_SETTINGS }), 404, 'URE006');
    assertError(await call(t.url, `/v1/output/${GUID}/download`, { key: t.key }), 404, 'URE006');
    assertError(await call(t.url, `/v1/output/${GUID}`, { key: t.key }), 404, 'URE006');
    assertError(await call(t.url, `/v1/files/${GUID}`, { key: t.key }), 404, 'URE006');
    assertError(await call(t.url, `/v1/files/${GUID}`, { method: 'DELETE', key: t.key }), 404, 'URE006');
  });

  test('SF000: a model the engine cannot read fails the task with a message', async () => {
    const junk = (await upload(t, 'STL', 'junk.stl', 'this is not a model')).body.fileId;
    const r = await start('stl', { files: [{ fileId: junk, type: 'STL', fileName: 'junk.stl' }], settings: STL_SETTINGS });
    assert.equal(r.status, 200);
    const failed = await waitForStatus(t, 'stl', r.body.taskId, ['failed', 'finished']);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error.errorCode, 'SF000');
    assert.match(failed.error.message, /junk\.stl/);
    assert.equal(failed.output, undefined);
    assert.equal(failed.info, undefined);
  });

  test('SF000: a task failing on a file read with warnings repeats them (a cut-short binary STL)', async () => {
    const cut = binaryStl(soup(box(0, 0, 0, 20, 20, 20)).slice(0, 2 * 9), 'cut short', 12);
    const id = (await upload(t, 'STL', 'cut.stl', cut)).body.fileId;
    const r = await start('stl', { files: [{ fileId: id, type: 'STL', fileName: 'cut.stl' }], settings: STL_SETTINGS });
    assert.equal(r.status, 200);
    const failed = await waitForStatus(t, 'stl', r.body.taskId, ['failed', 'finished']);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error.errorCode, 'SF000');
    assert.match(failed.error.message, /cut\.stl: binary STL header declares 12 triangles but the file size holds 2/);
  });

  test('SF000: a workspace model outside the build volume fails the task, naming the model', async () => {
    const v = [[0, 0, 0], [10, 0, 0], [10, 10, 0], [0, 10, 0], [0, 0, 10], [10, 0, 10], [10, 10, 10], [0, 10, 10]].map(([x, y, z]) => ({ X: x! + 300, Y: y! + 100, Z: z }));
    const faces = [0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4, 1, 2, 6, 1, 6, 5, 2, 3, 7, 2, 7, 6, 3, 0, 4, 3, 4, 7];
    const ws = { Models: [{ metaData: { Name: 'far_box', SlicingPriority: 0 }, ModelPositions: v, ModelIndices: faces }] };
    const up = await upload(t, 'WS', 'far.rvwj', JSON.stringify(ws));
    const r = await start('ws', { files: [{ fileId: up.body.fileId, type: 'WS', fileName: 'far.rvwj' }], settings: STL_SETTINGS });
    const failed = await waitForStatus(t, 'ws', r.body.taskId, ['failed', 'finished']);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error.errorCode, 'SF000');
    assert.match(failed.error.message, /'far_box'.*outside the build volume/);
  });

  test('bad file names are refused before the body is read', async () => {
    // separators, controls, line separators (U+2028), bidirectional overrides (U+202E), too long
    for (const name of ['a%2Fb.stl', 'a%5Cb.stl', 'a%01b.stl', 'a%7Fb.stl', 'a%0Ab.stl', 'a%E2%80%A8b.stl', 'a%E2%80%AEb.stl', `${'n'.repeat(252)}.stl`]) {
      const r = await call(t.url, `/v1/upload/STL/${name}`, { key: t.key, body: 'x', headers: { 'Content-Type': 'application/octet-stream' } });
      assertError(r, 400, 'URE000');
    }
    // fetch would normalise "..": send it as it is
    const dots = await new Promise<{ status: number; body: any; text: string }>((resolve, reject) => {
      const req = request(`${t.url}/v1/upload/STL/..`, { method: 'POST', headers: { 'Ocp-Apim-Subscription-Key': t.key } }, (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text), text }));
      });
      req.on('error', reject);
      req.end('x');
    });
    // the router itself refuses a dot segment (404); either way it is never stored
    assert.ok(dots.status === 400 || dots.status === 404, dots.text);
    const longest = `${'é'.repeat(125)}.stl`; // 254 bytes in UTF-8
    const ok = await upload(t, 'STL', longest, 'solid x\nendsolid x\n');
    assert.equal(ok.status, 200);
    assert.equal(ok.body.fileName, longest);
    const custom = await upload(t, 'Snapshot', 'front.png', new Uint8Array([137, 80, 78, 71]));
    assert.equal(custom.status, 200);
    assert.equal(custom.body.type, 'Snapshot');
  });

  test('paths fastify refuses before routing (a parameter over 1000 characters, bad percent-encoding) answer in the interface body', async () => {
    const post = (path: string) => call(t.url, path, { key: t.key, body: 'x', headers: { 'Content-Type': 'application/octet-stream' } });
    for (const r of [await post(`/v1/upload/STL/${'n'.repeat(2000)}.stl`), await post('/v1/upload/STL/%ff.stl'), await post('/v1/upload/%zz/a.stl')]) {
      assertError(r, 400, 'URE000', /file/);
      assert.ok(r.headers.get('x-request-id'));
    }
    for (const path of [`/v1/stl/tasks/${'a'.repeat(1001)}`, '/v1/stl/tasks/%zz', '/v1/ws/tasks/%zz/cancel']) {
      assertError(await call(t.url, path, { key: t.key, method: path.endsWith('cancel') ? 'POST' : 'GET' }), 400, 'URE005', /task id/);
    }
    // an id that cannot be one is no such output or file, as the routes answer for any other non-id
    assertError(await call(t.url, `/v1/output/${'a'.repeat(1001)}/download`, { key: t.key }), 404, 'URE006');
    assertError(await call(t.url, '/v1/files/%zz', { key: t.key }), 404, 'URE006');
    assertError(await call(t.url, '/nope%zz', { key: t.key }), 400, 'URE000');
  });

  test('requests Node\'s HTTP parser refuses answer URE000 in the interface body, or the envelope of the legacy version named', async () => {
    const { port } = new URL(t.url);
    /** writes `raw` on a fresh connection and reads until the server closes it */
    const rawExchange = (raw: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () => socket.end(raw));
        let got = '';
        socket.setEncoding('latin1');
        socket.on('data', (d: string) => (got += d));
        socket.on('close', () => resolve(got));
        socket.on('error', reject);
        socket.setTimeout(10_000, () => socket.destroy(new Error(`no answer to ${JSON.stringify(raw.slice(0, 60))}`)));
      });
    const answer = async (raw: string) => {
      const text = await rawExchange(raw);
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
      return { status, body: JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) };
    };
    const key = `Ocp-Apim-Subscription-Key: ${t.key}`;
    const twoLengths = await answer(`POST /v1/stl/tasks HTTP/1.1\r\nHost: x\r\n${key}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`);
    assert.equal(twoLengths.status, 400);
    assert.equal(twoLengths.body.errorCode, 'URE000');
    assert.match(twoLengths.body.message, /not valid HTTP\/1\.1 .*Content-Length/);
    const badChunk = await answer(`POST /v0.2/GetProgress HTTP/1.1\r\nHost: x\r\n${key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`);
    assert.equal(badChunk.status, 400);
    assert.equal(badChunk.body.apiVersion, '0.2');
    assert.equal(badChunk.body.error.errorCode, 'URE000');
    // a body shorter than its Content-Length, the connection half-closed: the refused bytes are the
    // body's, not the request line, yet the answer is the envelope of the request they belong to
    const short = await answer(`POST /v0.2/GetProgress HTTP/1.1\r\nHost: x\r\n${key}\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{"taskid":`);
    assert.equal(short.status, 400);
    assert.equal(short.body.apiVersion, '0.2', JSON.stringify(short.body));
    assert.equal(short.body.error.errorCode, 'URE000');
    const hugeHeader = await answer(`GET /v1/stl/tasks HTTP/1.1\r\nHost: x\r\n${key}\r\nX-Junk: ${'a'.repeat(20_000)}\r\n\r\n`);
    assert.equal(hugeHeader.status, 431);
    assert.equal(hugeHeader.body.errorCode, 'URE000');
    // the server reads the next request as ever
    assert.equal((await call(t.url, '/v1/stl/tasks', { key: t.key })).status, 200);
  });

  test('uploads take the bytes whatever the Content-Type, even one that is not a media type; a task start wants JSON (415)', async () => {
    const stl = readFileSync(CUBE_STL);
    for (const type of ['garbage', 'a;b', '/', 'model/stl', 'text/plain']) {
      const v1 = await call(t.url, '/v1/upload/STL/cube.stl', { key: t.key, method: 'POST', body: stl, headers: { 'Content-Type': type } });
      assert.equal(v1.status, 200, `${type}: ${v1.text}`);
      const v02 = await call(t.url, '/v0.2/UploadFile?filename=cube.stl', { key: t.key, body: stl, headers: { 'Content-Type': type } });
      assert.equal(v02.status, 200, `${type}: ${v02.text}`);
    }
    const form = await call(t.url, '/v1/stl/tasks', { key: t.key, method: 'POST', body: 'a=b', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    assertError(form, 415, 'URE000', /send application\/json/);
    // a compressed body: 415 saying so, in each version's shape (not "not valid JSON" with the bytes echoed)
    const gz = gzipSync(Buffer.from(JSON.stringify({ files: [], settings: STL_SETTINGS })));
    const gzHeaders = { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' };
    assertError(await call(t.url, '/v1/stl/tasks', { key: t.key, body: gz, headers: gzHeaders }), 415, 'URE000', /Content-Encoding 'gzip' is not supported/);
    const gzLegacy = await call(t.url, '/v0.2/GetProgress', { key: t.key, body: gz, headers: gzHeaders });
    assert.equal(gzLegacy.status, 415, gzLegacy.text);
    assert.equal(gzLegacy.body.error.errorCode, 'URE000');
    const gzUpload = await call(t.url, '/v1/upload/STL/cube.stl', { key: t.key, body: gzipSync(stl), headers: { 'Content-Encoding': 'gzip' } });
    assert.equal(gzUpload.status, 415, gzUpload.text);
    // an empty POST with a form's type (curl -d '') reads and cancels a task like an empty JSON one
    const up = await upload(t, 'STL', 'cube.stl', new Uint8Array(stl));
    const task = await call(t.url, '/v1/stl/tasks', { key: t.key, json: { files: [{ fileId: up.body.fileId, type: 'STL' }], settings: STL_SETTINGS } });
    assert.equal(task.status, 200, task.text);
    const emptyForm = { key: t.key, method: 'POST', body: '', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } } as const;
    const read = await call(t.url, `/v1/stl/tasks/${task.body.taskId}`, emptyForm);
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.taskId, task.body.taskId);
    const cancel = await call(t.url, `/v1/stl/tasks/${task.body.taskId}/cancel`, emptyForm);
    assert.equal(cancel.status, 200, cancel.text);
    // a bodyless cancel or delete whatever Content-Type a client library puts on it (octet-stream got 415)
    const octet = { key: t.key, headers: { 'Content-Type': 'application/octet-stream' } } as const;
    for (const v of ['v1', 'v0.3']) {
      const c = await call(t.url, `/${v}/stl/tasks/${task.body.taskId}/cancel`, { ...octet, method: 'POST' });
      assert.equal(c.status, 200, `${v}: ${c.text}`);
    }
    assert.equal((await call(t.url, `/v1/stl/tasks/${task.body.taskId}`, { ...octet, method: 'DELETE' })).status, 204);
    assert.equal((await call(t.url, `/v1/files/${up.body.fileId}`, { ...octet, method: 'DELETE' })).status, 204);
    // a JSON string sent as JSON: the type was right, the value is not an object (400, not 415)
    assertError(await call(t.url, '/v1/stl/tasks', { key: t.key, body: '"x"', headers: { 'Content-Type': 'application/json' } }), 400, 'URE000', /body must be object/);
    // a multipart form (v0.2's UploadFile shape) sent to v1 or v0.3 is refused, not stored to fail as a model later
    const multipart = new FormData();
    multipart.append('file', new Blob([stl]), 'cube.stl');
    const stored = dirFiles(join(t.dataDir, 'blobs', 'files')).length;
    for (const path of ['/v1/upload/STL/cube.stl', '/v0.3/upload/STL/cube.stl']) {
      const res = await fetch(`${t.url}${path}`, { method: 'POST', headers: { 'Ocp-Apim-Subscription-Key': t.key }, body: multipart });
      const body = await res.json();
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.match(JSON.stringify(body), /raw bytes.*not a multipart form/);
    }
    assert.equal(dirFiles(join(t.dataDir, 'blobs', 'files')).length, stored);
  });

  test('413 on uploads over the limit, by Content-Length or while streaming; nothing is kept', async () => {
    const blobs = join(t.dataDir, 'blobs');
    const before = dirFiles(join(blobs, 'files')).length;
    const declared = await upload(t, 'STL', 'big.stl', new Uint8Array(1_000_001));
    assertError(declared, 413, 'URE000', /1000000 bytes/);
    // chunked: no Content-Length, so only the byte counter can stop it
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 3_000_000) return controller.close();
        sent += 100_000;
        controller.enqueue(new Uint8Array(100_000));
      },
    });
    const res = await fetch(`${t.url}/v1/upload/STL/chunked.stl`, {
      method: 'POST',
      headers: { 'Ocp-Apim-Subscription-Key': t.key, 'Content-Type': 'application/octet-stream' },
      body,
      duplex: 'half',
    } as RequestInit);
    assert.equal(res.status, 413);
    assert.equal((await res.json()).errorCode, 'URE000');
    assert.equal(dirFiles(join(blobs, 'files')).length, before, 'no stored file');
    assert.deepEqual(dirFiles(join(blobs, 'tmp')), [], 'no partial file');
  });

  test('an upload cut off half-way leaves no file and no record', async () => {
    const db = new (sqlite())(join(t.dataDir, 'stratum.db'), { readonly: true });
    const count = () => (db.prepare('SELECT count(*) AS n FROM files').get() as { n: number }).n;
    const recordsBefore = count();
    const filesBefore = dirFiles(join(t.dataDir, 'blobs', 'files')).length;
    await new Promise<void>((resolve) => {
      const req = request(`${t.url}/v1/upload/STL/cut.stl`, {
        method: 'POST',
        headers: { 'Ocp-Apim-Subscription-Key': t.key, 'Content-Type': 'application/octet-stream', 'Content-Length': 400_000 },
      });
      req.on('error', () => resolve());
      req.write(Buffer.alloc(200_000, 1), () => setTimeout(() => req.destroy(), 100));
      req.on('close', () => resolve());
    });
    await waitFor('the server to drop the partial upload', async () => dirFiles(join(t.dataDir, 'blobs', 'tmp')).length === 0, 5000);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(count(), recordsBefore, 'no file record');
    assert.equal(dirFiles(join(t.dataDir, 'blobs', 'files')).length, filesBefore, 'no stored file');
    assert.deepEqual(dirFiles(join(t.dataDir, 'blobs', 'tmp')), [], 'no partial file');
    db.close();
    // the server is fine afterwards
    assert.equal((await upload(t, 'STL', 'after.stl', 'solid a\nendsolid a\n')).status, 200);
  });

  test('two accounts: nothing of one is visible to the other', async () => {
    const r = await start('stl', { files: stlFiles(), settings: STL_SETTINGS });
    const done = await waitForStatus(t, 'stl', r.body.taskId, ['finished']);
    const id = done.taskId;
    assertError(await call(t.url, `/v1/stl/tasks/${id}`, { key: other }), 404, 'URE005');
    assertError(await call(t.url, `/v1/stl/tasks/${id}`, { method: 'POST', key: other }), 404, 'URE005');
    assertError(await call(t.url, `/v1/stl/tasks/${id}/cancel`, { method: 'POST', key: other }), 404, 'URE005');
    assertError(await call(t.url, `/v1/stl/tasks/${id}`, { method: 'DELETE', key: other }), 404, 'URE005');
    assertError(await call(t.url, `/v1/stl/tasks/${id}/events`, { key: other }), 404, 'URE005');
    assertError(await call(t.url, `/v1/output/${done.output.outputId}/download`, { key: other }), 404, 'URE006');
    assertError(await call(t.url, `/v1/files/${stlId}`, { key: other }), 404, 'URE006');
    assertError(await start('stl', { files: stlFiles(), settings: STL_SETTINGS }, other), 404, 'URE006');
    assert.deepEqual((await call(t.url, '/v1/stl/tasks', { key: other })).body.tasks, []);
    assert.equal((await call(t.url, `/v1/stl/tasks/${id}`, { key: t.key })).status, 200, 'the owner still sees it');
  });

  test('SF000 with status 500 when the service itself breaks; /readyz reports it', async () => {
    const broken = await startTestServer();
    try {
      assert.equal((await call(broken.url, '/readyz')).status, 200);
      await broken.server.runtime.stores.metadata.close(); // the database goes away under the server
      const r = await call(broken.url, `/v1/stl/tasks/${GUID}`, { key: broken.key });
      assert.equal(r.status, 500);
      assert.deepEqual(r.body, { errorCode: 'SF000', message: 'internal error; try again later' });
      assert.equal((await call(broken.url, '/readyz')).status, 503);
      assert.equal((await call(broken.url, '/healthz')).status, 200);
    } finally {
      await broken.server.app.close();
      await broken.server.runtime.runner?.stop(0);
      removeDir(broken.dataDir);
    }
  });

  test('/readyz is 503 while the file store cannot be used either, and 200 again after', async () => {
    const t2 = await startTestServer();
    try {
      const blobs = join(t2.dataDir, 'blobs');
      assert.equal((await call(t2.url, '/readyz')).status, 200);
      // a file where the directory should be (a disk not mounted, say)
      if (existsSync(blobs)) renameSync(blobs, `${blobs}.away`);
      writeFileSync(blobs, '');
      assert.equal((await call(t2.url, '/readyz')).status, 503);
      rmSync(blobs);
      assert.equal((await call(t2.url, '/readyz')).status, 200);
    } finally {
      await t2.close();
    }
  });
});
