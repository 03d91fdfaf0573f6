// Interface v0.2 over HTTP: the scripted client's whole flow (clients/v0_2-client.ts), the STL
// placement (position, scale, rotation) checked on the printed G-code, and the legacy envelopes,
// key casings and error codes.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { runV02Flow } from '../clients/v0_2-client.js';
import { placeModels } from '../src/engine/setup/place.js';
import { formatInfo } from '../src/engine/output/index.js';
import { resolveSettings } from '../src/profiles/index.js';
import { legacyProgress } from '../src/service/legacy-task-views.js';
import { ApiError } from '../src/service/errors.js';
import { OneTimeDownloads } from '../src/service/legacy-download.js';
import type { OutputRecord, TaskRecord } from '../src/service/model.js';
import type { OutputService } from '../src/service/output-service.js';
import { openEmbeddedStores } from '../src/store/embedded-stores.js';
import { CUBE_STL, call, gcodeHeaderTotals, removeDir, startTestServer, tempDir, type TestServer } from './api-helpers.js';
import { binaryStl, box, soup } from './mesh-fixtures.js';

/** Bounds of the outer-wall extrusions (X, Y) and the highest printed layer (Z), from the G-code text. */
function outerWallBounds(gcode: string): { min: number[]; max: number[] } {
  const min = [Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  let type = '';
  let x = 0;
  let y = 0;
  let z = 0;
  for (const line of gcode.split('\n')) {
    if (line.startsWith(';TYPE:')) type = line.slice(6).trim();
    if (!/^G[01] /.test(line)) continue;
    const word = (c: string) => {
      const m = new RegExp(`\\b${c}(-?[\\d.]+)`).exec(line.split(';')[0]!);
      return m ? Number(m[1]) : undefined;
    };
    const nx = word('X') ?? x;
    const ny = word('Y') ?? y;
    z = word('Z') ?? z;
    const e = word('E');
    if (type === 'WALL-OUTER' && e !== undefined && line.startsWith('G1')) {
      for (const [i, v] of [x, y, nx, ny].entries()) {
        min[i % 2] = Math.min(min[i % 2]!, v);
        max[i % 2] = Math.max(max[i % 2]!, v);
      }
      max[2] = Math.max(max[2]!, z);
    }
    x = nx;
    y = ny;
  }
  return { min, max };
}

describe('v0.2 over HTTP', () => {
  let t: TestServer;
  const v02 = (path: string, json?: unknown, key: string | null = null) => call(t.url, `/v0.2/${path}`, { key: key ?? t.key, method: 'POST', ...(json !== undefined ? { json } : {}) });
  /** Uploads an STL through UploadFile, slices it for `printer` and waits for progress "1": the task id. */
  const finishedTask = async (fileName: string, stl: Uint8Array, printer: string): Promise<string> => {
    const up = await call(t.url, `/v0.2/UploadFile?filename=${fileName}`, { key: t.key, body: stl, headers: { 'Content-Type': 'application/octet-stream' } });
    const start = await v02('StartSlicingTask', { fileName, fileId: up.body.result.fileId, supportType: 'n', printerModel: printer });
    assert.equal(start.status, 200, start.text);
    const taskId: string = start.body.result.taskId;
    let progress = '';
    for (let i = 0; i < 300 && progress !== '1' && progress !== '-1'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      progress = (await v02('GetProgress', { taskId })).body.result.progress;
    }
    assert.equal(progress, '1');
    return taskId;
  };
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t?.close());

  test('the scripted client runs the whole flow; the G-code header totals equal the printing information', async () => {
    const r = await runV02Flow(t.url, t.key, { model: CUBE_STL });
    assert.equal(r.outputName, 'xyz_calibration_cube.gcode');
    const gcode = Buffer.from(r.output).toString('utf8');
    assert.match(gcode, /^;FLAVOR:/m);
    const h = gcodeHeaderTotals(gcode);
    assert.deepEqual(formatInfo({ printTimeS: h.timeS, filamentMm: h.filamentM * 1000, filamentG: h.weightG }), r.info);
    assert.equal(r.progressAfterCancel, '-1');
    // the same task through v1: cancelled, and the downloaded output is gone there too
    const v1 = await call(t.url, `/v1/stl/tasks/${r.cancelledTaskId}`, { key: t.key });
    assert.equal(v1.body.status, 'cancelled');
    const done = await call(t.url, `/v1/stl/tasks/${r.taskId}`, { key: t.key });
    // at once, though the legacy download still waits to see its client read the file before the
    // output goes (legacy/delivered-whole.ts): its claim stands for the file being gone
    const again = await call(t.url, `/v1/output/${done.body.output.outputId}/download`, { key: t.key });
    assert.equal(again.status, 404);
    assert.equal(again.body.errorCode, 'URE006');
  });

  test('position, scale 2 and a 90° rotation about X place the STL where the printed bounds say', async () => {
    // a 5 × 10 × 3 mm box: ×2 → 10 × 20 × 6; 90° about X swaps Y and Z → 10 × 6 × 20;
    // centre at the bed centre (110, 110) + (30, −20) → X 135…145, Y 87…93, top at Z 20
    const stl = binaryStl(soup(box(0, 0, 0, 5, 10, 3)));
    const up = await call(t.url, '/v0.2/UploadFile?filename=brick.stl', {
      key: t.key,
      body: stl,
      headers: { 'Content-Type': 'application/octet-stream' },
    });
    assert.equal(up.status, 200, up.text);
    const start = await v02('StartSlicingTask', {
      filename: 'brick.stl',
      fileid: up.body.result.fileid,
      supporttype: 'n',
      printermodel: 'Creality Ender 3',
      position: { X: 30, Y: -20, Z: 5 },
      scale: { X: 2, Y: 2, Z: 2 },
      rotation: { X: 90, Y: 0, Z: 0 },
    });
    assert.equal(start.status, 200, start.text);
    const taskId = start.body.result.taskid;
    for (let i = 0; i < 300; i++) {
      const p = await v02('GetProgress', { taskid: taskId });
      if (p.body.result.progress === '1') break;
      assert.notEqual(p.body.result.progress, '-1', 'the task failed');
      await new Promise((r) => setTimeout(r, 100));
    }
    const file = await call(t.url, `/v0.2/DownloadFile?taskid=${taskId}`, { key: t.key });
    assert.equal(file.status, 200);
    const b = outerWallBounds(file.text);
    const close = (got: number, want: number, tol: number, what: string) => assert.ok(Math.abs(got - want) <= tol, `${what}: ${got} instead of ${want}`);
    // the outer wall's centre line runs half a line width (0.2 mm) inside the surface
    close(b.min[0]!, 135, 0.3, 'min X');
    close(b.max[0]!, 145, 0.3, 'max X');
    close(b.min[1]!, 87, 0.3, 'min Y');
    close(b.max[1]!, 93, 0.3, 'max Y');
    close(b.max[2]!, 20, 0.25, 'top layer Z');
  });

  test('IdeaWerk-Speed, the legacy FCode printer: the download is <model>.fcode and starts with the FCode magic', async () => {
    const taskId = await finishedTask('part.stl', binaryStl(soup(box(0, 0, 0, 10, 10, 4))), 'IdeaWerk-Speed');
    // a HEAD request names the file but does not use up the one download
    const head = await call(t.url, `/v0.2/DownloadFile?taskId=${taskId}`, { key: t.key, method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-disposition'), 'attachment; filename=part.fcode');
    const file = await call(t.url, `/v0.2/DownloadFile?taskId=${taskId}`, { key: t.key });
    assert.equal(file.status, 200);
    assert.equal(file.headers.get('content-disposition'), 'attachment; filename=part.fcode');
    assert.equal(Number(head.headers.get('content-length')), file.bytes.length);
    assert.deepEqual([...file.bytes.subarray(0, 4)], [0x43, 0x49, 0x52, 0]); // "CIR\0"
  });

  test('a download the client breaks off leaves the file, though the kernel had taken all of it', async () => {
    const taskId = await finishedTask('cal.stl', new Uint8Array(readFileSync(CUBE_STL)), 'Creality Ender 3');
    // read the first bytes of the ~250 KB answer (all of it fits in the loopback's socket buffers, so
    // the server finished sending at once), then hang up with the rest unread: the kernel resets
    const { port } = new URL(t.url);
    const firstBytes = await new Promise<number>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(`GET /v0.2/DownloadFile?taskId=${taskId} HTTP/1.1\r\nHost: localhost\r\nOcp-Apim-Subscription-Key: ${t.key}\r\n\r\n`);
      });
      socket.once('data', (chunk: Buffer) => {
        // reading no more leaves the rest in the kernel's receive buffer, which a close then resets
        socket.pause();
        setTimeout(() => {
          socket.destroy();
          resolve(chunk.length);
        }, 100);
      });
      socket.once('error', reject);
    });
    assert.ok(firstBytes > 0);
    const again = await call(t.url, `/v0.2/DownloadFile?taskId=${taskId}`, { key: t.key });
    assert.equal(again.status, 200, again.text.slice(0, 300));
    assert.ok(again.text.includes(';LAYER_COUNT:'), 'the whole G-code');
    assert.ok(again.bytes.length > firstBytes);
  });

  test('a model moved off the bed fails: progress "-1" with the reason, no printing information, no file', async () => {
    const up = await call(t.url, '/v0.2/UploadFile?filename=cube.stl', { key: t.key, body: binaryStl(soup(box(0, 0, 0, 10, 10, 10))), headers: { 'Content-Type': 'application/octet-stream' } });
    const start = await v02('StartSlicingTask', {
      fileName: 'cube.stl', fileId: up.body.result.fileId, supportType: 'n', printerModel: 'Creality Ender 3',
      position: { x: 120, y: 0, z: 0 }, scale: { x: 1, y: 1, z: 1 }, rotation: { x: 0, y: 0, z: 0 },
    });
    assert.equal(start.status, 200, start.text);
    const taskId = start.body.result.taskId;
    let p = await v02('GetProgress', { taskId });
    for (let i = 0; i < 200 && p.body.result.progress !== '-1'; i++) {
      assert.notEqual(p.body.result.progress, '1');
      await new Promise((r) => setTimeout(r, 50));
      p = await v02('GetProgress', { taskId });
    }
    assert.equal(p.body.result.progress, '-1');
    assert.equal(p.body.result.status, 'failed');
    // the id as ?taskid= on a POST that sends no body at all reads the same
    const bare = await v02(`GetProgress?taskid=${taskId}`);
    assert.equal(bare.status, 200, bare.text);
    assert.equal(bare.body.result.progress, '-1');
    assert.equal(p.body.result.error.errorCode, 'SF000');
    assert.match(p.body.result.error.message, /outside the build volume/);
    // under the legacy envelope's name too, which a legacy client reads from every other error
    assert.equal(p.body.result.error.errorMessage, p.body.result.error.message);
    for (const path of ['GetPrintingInformation', `DownloadFile?taskId=${taskId}`]) {
      const r = await v02(path, { taskId });
      assert.equal(r.status, 404, path);
      assert.equal(r.body.error.errorCode, 'URE006', path);
    }
  });

  test('a multipart upload with a name that is not a model is refused, the client gets the answer, and the connection stays usable', async () => {
    // the name is refused before the file part is read; the client is still sending it (a third of
    // these got `fetch failed: write EPIPE` instead of the answer while the server closed at once)
    for (const size of [200, 200_000, 2_000_000]) {
      for (let i = 0; i < 6; i++) {
        const form = new FormData();
        form.append('FileName', 'notes.txt');
        form.append('file', new Blob([new Uint8Array(size)]), 'notes.txt');
        const res = await fetch(`${t.url}/v0.2/UploadFile`, { method: 'POST', headers: { 'Ocp-Apim-Subscription-Key': t.key }, body: form });
        const body = await res.json();
        assert.equal(res.status, 400);
        assert.equal(body.error.errorCode, 'URE000');
        assert.match(body.error.errorMessage, /notes\.txt/);
      }
    }
    const next = await v02('GetActivationStatus');
    assert.deepEqual(next.body.result, { activated: 'true' });
  });

  test('UploadFile stores only what StartSlicingTask can slice: an .obj name and an empty STL are refused', async () => {
    const blobs = join(t.dataDir, 'blobs');
    const stored = () => (existsSync(blobs) ? readdirSync(blobs, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length : 0);
    const before = stored();
    const raw = (name: string, bytes: Uint8Array) =>
      call(t.url, `/v0.2/UploadFile?filename=${encodeURIComponent(name)}`, { key: t.key, body: bytes, headers: { 'Content-Type': 'application/octet-stream' } });
    const obj = await raw('cube.obj', new TextEncoder().encode('v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n'));
    assert.equal(obj.status, 400, obj.text);
    assert.equal(obj.body.error.errorCode, 'URE000');
    assert.match(obj.body.error.errorMessage, /cube\.obj' must end in \.stl/);
    const form = new FormData();
    form.append('FileName', 'part.3mf');
    form.append('file', new Blob([new Uint8Array(300)]), 'part.3mf');
    const multi = await fetch(`${t.url}/v0.2/UploadFile`, { method: 'POST', headers: { 'Ocp-Apim-Subscription-Key': t.key }, body: form });
    const multiBody = await multi.json();
    assert.equal(multi.status, 400);
    assert.match(multiBody.error.errorMessage, /part\.3mf' must end in \.stl/);

    // `curl --data-binary @wrong/path` sends no bytes: refused at once, not stored to fail later
    const empty = await raw('cube.stl', new Uint8Array(0));
    assert.equal(empty.status, 400, empty.text);
    assert.equal(empty.body.error.errorCode, 'URE000');
    assert.match(empty.body.error.errorMessage, /'cube\.stl' is empty/);
    const v1Empty = await call(t.url, '/v1/upload/STL/cube.stl', { key: t.key, method: 'POST', body: new Uint8Array(0), headers: { 'Content-Type': 'application/octet-stream' } });
    assert.equal(v1Empty.status, 400, v1Empty.text);
    assert.equal(v1Empty.body.errorCode, 'URE000');
    // a form refused after its file was stored: a second file part, too many fields
    const stl = new Uint8Array(readFileSync(CUBE_STL));
    const twoFiles = new FormData();
    twoFiles.append('FileName', 'a.stl');
    twoFiles.append('file', new Blob([stl]), 'a.stl');
    twoFiles.append('file2', new Blob([stl]), 'b.stl');
    const manyFields = new FormData();
    manyFields.append('FileName', 'a.stl');
    manyFields.append('file', new Blob([stl]), 'a.stl');
    for (let i = 0; i < 25; i++) manyFields.append(`f${i}`, 'x');
    // the same fields before the file: said as such (it was "the multipart body ended before the file part was complete")
    const fieldsFirst = new FormData();
    for (let i = 0; i < 25; i++) fieldsFirst.append(`f${i}`, 'x');
    fieldsFirst.append('FileName', 'a.stl');
    fieldsFirst.append('file', new Blob([stl]), 'a.stl');
    for (const [form, message] of [[twoFiles, /more than one file part/], [manyFields, /more than 20 fields/], [fieldsFirst, /^the form has more than 20 fields/]] as const) {
      const res = await fetch(`${t.url}/v0.2/UploadFile`, { method: 'POST', headers: { 'Ocp-Apim-Subscription-Key': t.key }, body: form });
      const body = await res.json();
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(body.error.errorCode, 'URE000');
      assert.match(body.error.errorMessage, message);
    }
    // nothing of the refused uploads is left on disk
    assert.equal(stored(), before);
  });

  test('JSON sent under the form content type (curl -d without a Content-Type) or as text/json is read as JSON', async () => {
    const progress = async (contentType: string, body: string) => {
      const res = await fetch(`${t.url}/v0.2/GetProgress`, { method: 'POST', headers: { 'Ocp-Apim-Subscription-Key': t.key, 'Content-Type': contentType }, body });
      return { status: res.status, body: await res.json() };
    };
    const unknown = '7d0c7a0e-2f7e-4c55-9b63-6f6e1d3b2a11';
    // the task id was read (unknown task), not missing (URE000 "taskid is required"): under a form's
    // type, and as text/json, which ASP.NET read as JSON
    for (const type of ['application/x-www-form-urlencoded', 'text/json']) {
      const r = await progress(type, ` {"taskid":"${unknown}"}`);
      assert.equal(r.status, 404, `${type}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.error.errorCode, 'URE005');
    }
    // a real form still reads as a form
    assert.equal((await progress('application/x-www-form-urlencoded', `taskid=${unknown}`)).status, 404);
  });

  test('null position, scale and rotation (a serialiser writing unset properties) are the identity', async () => {
    const up = await call(t.url, '/v0.2/UploadFile?filename=n.stl', { key: t.key, body: binaryStl(soup(box(0, 0, 0, 10, 10, 4))), headers: { 'Content-Type': 'application/octet-stream' } });
    const start = await v02('StartSlicingTask', { fileName: 'n.stl', fileId: up.body.result.fileId, supportType: 'n', printerModel: 'Creality Ender 3', position: null, scale: null, rotation: null });
    assert.equal(start.status, 200, start.text);
    // and a null axis is that axis's identity (a scale of 1, not 0)
    const axis = await v02('StartSlicingTask', { fileName: 'n.stl', fileId: up.body.result.fileId, supportType: 'n', printerModel: 'Creality Ender 3', scale: { X: null, Y: 2, Z: 2 } });
    assert.equal(axis.status, 200, axis.text);
  });

  test('progress strings: two decimals rounded down, "1" only when finished, "-1" when failed or cancelled', () => {
    const at = (status: TaskRecord['status'], progress: number) => legacyProgress({ status, progress } as TaskRecord);
    assert.equal(at('queued', 0), '0');
    assert.equal(at('running', 0.29), '0.29');
    assert.equal(at('running', 0.427), '0.42');
    assert.equal(at('running', 0.999), '0.99');
    assert.equal(at('finished', 1), '1');
    assert.equal(at('failed', 0.5), '-1');
    assert.equal(at('cancelled', 0.2), '-1');
  });

  test('the one-time download: a second take while one runs is refused, a broken-off one can be retried, a delivered one is gone', async () => {
    const removed: string[] = [];
    let stored = true;
    // the claims live in a real store (they hold across API processes); the output itself is faked
    const dir = tempDir('one-time');
    const stores = openEmbeddedStores(dir);
    after(async () => {
      await stores.close();
      removeDir(dir);
    });
    const outputs = {
      claimDownload: (id: string, ttlMs: number) => stores.metadata.claimDownload(id, Date.now(), Date.now() + ttlMs),
      releaseDownload: (id: string) => stores.metadata.releaseDownload(id),
      open: async (_account: string, outputId: string) => {
        if (!stored) throw new ApiError('URE006', 'no output');
        return { output: { id: outputId } as OutputRecord, stream: Readable.from([]), size: 0 };
      },
      exists: async () => stored,
      remove: async (o: OutputRecord) => {
        removed.push(o.id);
        stored = false;
      },
    } as unknown as OutputService;
    const task = { id: 't1', status: 'finished', output: { outputId: 'o1' } } as TaskRecord;
    const downloads = new OneTimeDownloads(outputs);
    const first = await downloads.take('a', task);
    await assert.rejects(downloads.take('a', task), (e: ApiError) => e.code === 'URE006' && /being downloaded by another request/.test(e.message));
    // another process (another OneTimeDownloads on the same store) is refused as well
    await assert.rejects(new OneTimeDownloads(outputs).take('a', task), (e: ApiError) => e.code === 'URE006' && /being downloaded/.test(e.message));
    await first.done(false);
    const retry = await downloads.take('a', task);
    await retry.done(true);
    assert.deepEqual(removed, ['o1']);
    await assert.rejects(downloads.take('a', task), (e: ApiError) => e.code === 'URE006' && /downloaded already/.test(e.message));
    await assert.rejects(downloads.take('a', { ...task, status: 'running', output: null }), (e: ApiError) => e.code === 'URE006' && /running/.test(e.message));

    // a request that comes while a delivered download is still deleting its output (its claim not yet
    // released) is told the file is gone, not that it may be taken again
    stored = true;
    const last = await downloads.take('a', task);
    const late = downloads.take('a', task);
    await new Promise((r) => setTimeout(r, 20));
    stored = false; // the record is deleted first…
    await assert.rejects(late, (e: ApiError) => e.code === 'URE006' && /downloaded already/.test(e.message));
    await last.done(true); // …the claim goes after
  });

  test('scale applies before the rotation: 3 × 1 × 1, then 90° about Z, turns the long side along Y', () => {
    const m = box(0, 0, 0, 10, 20, 6);
    const mesh = { positions: new Float32Array(m.positions), indices: new Uint32Array(m.indices) };
    const { settings } = resolveSettings({});
    const { bounds } = placeModels([{ name: 'b', mesh, transform: { scale: [3, 1, 1], rotation: [0, 0, 90] } }], settings);
    // 30 × 20 × 6 turned a quarter: 20 along X, 30 along Y, centred on (110, 110)
    assert.deepEqual(bounds.min.map((v) => Math.round(v * 1000) / 1000), [100, 95, 0]);
    assert.deepEqual(bounds.max.map((v) => Math.round(v * 1000) / 1000), [120, 125, 6]);
  });

  test('errors come in the legacy envelope with the interface codes', async () => {
    const malformed = await v02('GetProgress', { taskId: 'nope' });
    assert.equal(malformed.status, 400);
    assert.deepEqual(Object.keys(malformed.body).sort(), ['apiVersion', 'error', 'statusCode', 'statusDescription']);
    assert.equal(malformed.body.apiVersion, '0.2');
    assert.equal(malformed.body.statusCode, 400);
    assert.equal(malformed.body.statusDescription, 'Bad Request');
    assert.equal(malformed.body.error.errorCode, 'URE005');
    assert.equal(typeof malformed.body.error.errorMessage, 'string');

    const unknown = await v02('GetPrintingInformation', { TaskID: '7d0c7a0e-2f7e-4c55-9b63-6f6e1d3b2a11' });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.errorCode, 'URE005');

    const viaGet = await call(t.url, '/v0.2/GetProgress?taskId=7d0c7a0e-2f7e-4c55-9b63-6f6e1d3b2a11', { key: t.key });
    assert.equal(viaGet.status, 404);
    assert.equal(viaGet.body.error.errorCode, 'URE005');

    // a path fastify cannot decode is refused before routing, still in the envelope
    const badUrl = await call(t.url, '/v0.2/GetProgress%zz', { key: t.key });
    assert.equal(badUrl.status, 400);
    assert.equal(badUrl.body.apiVersion, '0.2');
    assert.equal(badUrl.body.error.errorCode, 'URE000');
    const badV01 = await call(t.url, '/v0.1/%zz', { key: t.key, method: 'POST' });
    assert.equal(badV01.body.apiVersion, '0.1');
    assert.equal(badV01.body.error.errorCode, 'URE000');

    const noKey = await call(t.url, '/v0.2/GetActivationStatus', { method: 'POST' });
    assert.equal(noKey.status, 401);
    assert.match(noKey.body.message, /missing subscription key/);

    const up = await call(t.url, '/v0.2/UploadFile?FileName=cube.stl', { key: t.key, body: new Uint8Array(84), headers: { 'Content-Type': 'application/octet-stream' } });
    assert.equal(up.status, 200, up.text);
    const fileId = up.body.result.fileId;
    const base = { FileName: 'cube.stl', FILEID: fileId, SupportType: 'n', PrinterModel: 'CR-10' };
    const cases: Array<[string, Record<string, unknown>, number, string]> = [
      ['unknown printer', { ...base, PrinterModel: 'Ender 99' }, 404, 'URE003'],
      ['unknown quality', { ...base, QualityPresetName: 'Ultrafine' }, 404, 'URE003'],
      ['no such file', { ...base, FILEID: '7d0c7a0e-2f7e-4c55-9b63-6f6e1d3b2a11' }, 404, 'URE006'],
      ['not an STL name', { ...base, FileName: 'cube.obj' }, 400, 'URE000'],
      ['support type', { ...base, SupportType: 'x' }, 400, 'URE000'],
      ['scale of 0', { ...base, scale: { x: 0, y: 1, z: 1 } }, 400, 'URE000'],
      ['configfile not .rvwj', { ...base, configFile: { FileName: 'c.txt', WsConfigs: { Models: [] } } }, 400, 'URE001'],
      ['printer as a one-element array', { FileName: 'cube.stl', FILEID: fileId, SupportType: 'n', printermodel: ['CR-10'] }, 400, 'URE000'],
      ['file id as a one-element array', { FileName: 'cube.stl', fileid: [fileId], SupportType: 'n', PrinterModel: 'CR-10' }, 400, 'URE000'],
      ['configfile empty', { ...base, configFile: { FileName: 'c.rvwj', WsConfigs: '' } }, 400, 'URE004'],
    ];
    for (const [what, body, status, code] of cases) {
      const r = await v02('StartSlicingTask', body);
      assert.equal(r.status, status, `${what}: ${r.text}`);
      assert.equal(r.body.error.errorCode, code, `${what}: ${r.text}`);
    }
  });

  test('a caller-chosen task id is used once; reading a task that has not finished answers URE006', async () => {
    // 1000 layers of a 200 mm block, over a second of slicing (0.4 s for a 120 mm one), so the
    // download below cannot come after it
    const up = await call(t.url, '/v0.2/UploadFile?filename=block.stl', { key: t.key, body: binaryStl(soup(box(0, 0, 0, 200, 200, 200))), headers: { 'Content-Type': 'application/octet-stream' } });
    const uniqueID = '0b6f1c9e-8d2a-4f3b-9c1d-2e3f4a5b6c7d';
    const body = { fileName: 'block.stl', fileId: up.body.result.fileId, supportType: 'n', printerModel: 'CR-10', uniqueID };
    const first = await v02('StartSlicingTask', body);
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.result.taskId, uniqueID);
    const early = await call(t.url, `/v0.2/DownloadFile?taskId=${uniqueID}`, { key: t.key });
    assert.equal(early.status, 404, early.text);
    assert.equal(early.body.error.errorCode, 'URE006');
    const second = await v02('StartSlicingTask', body);
    assert.equal(second.status, 400);
    assert.equal(second.body.error.errorCode, 'URE007');
    assert.equal(second.body.error.details.taskId, uniqueID);
    const state = await call(t.url, `/v1/stl/tasks/${uniqueID}`, { key: t.key });
    assert.notEqual(state.body.status, 'finished', 'the block finished before the download: the check above proves nothing');
    await call(t.url, `/v1/stl/tasks/${uniqueID}/cancel`, { method: 'POST', key: t.key });
  });

  test('preset fields: machinepresetname stands in for the quality or the printer, applicationpresetname is ignored', async () => {
    const up = await call(t.url, '/v0.2/UploadFile?filename=cube.stl', { key: t.key, body: binaryStl(soup(box(0, 0, 0, 10, 10, 10))), headers: { 'Content-Type': 'application/octet-stream' } });
    const fileId = up.body.result.fileId;
    const settingsOf = async (body: Record<string, unknown>) => {
      const r = await v02('StartSlicingTask', { fileName: 'cube.stl', fileId, supportType: 'b', ...body });
      assert.equal(r.status, 200, r.text);
      return (await call(t.url, `/v1/stl/tasks/${r.body.result.taskId}`, { key: t.key })).body.settings;
    };
    assert.deepEqual(await settingsOf({ printerModel: 'CR-10', machinePresetName: 'Highquality', applicationPresetName: 'Anything' }), {
      printerModel: 'CR-10', supportType: 'b', qualityPresetName: 'Highquality',
    });
    // qualitypresetname wins over the deprecated configpresetname, which wins over machinepresetname
    const both = await settingsOf({ printerModel: 'CR-10', qualityPresetName: 'Sketch', configPresetName: 'Highquality', machinePresetName: 'Recommended' });
    assert.equal(both.qualityPresetName, 'Sketch');
    assert.equal((await settingsOf({ printerModel: 'CR-10', configPresetName: 'Highquality', machinePresetName: 'Sketch' })).qualityPresetName, 'Highquality');
    const byMachine = await settingsOf({ machinePresetName: 'Creality Ender 3', filamentPresetName: 'Createch_PLA' });
    assert.equal(byMachine.printerModel, 'Creality Ender 3');
    assert.equal(byMachine.filamentPresetName, 'Createch_PLA');
  });

  test('a configfile workspace is kept with the task as an EXTRA file; the preset fields may then be empty', async () => {
    const up = await call(t.url, '/v0.2/UploadFile?filename=cube.stl', { key: t.key, body: binaryStl(soup(box(0, 0, 0, 10, 10, 10))), headers: { 'Content-Type': 'application/octet-stream' } });
    const body = { fileName: 'cube.stl', fileId: up.body.result.fileId, supportType: 'n', printerModel: '', configPresetName: '' };
    const refused = await v02('StartSlicingTask', body);
    assert.equal(refused.status, 400, 'without a configfile the printer is required');
    const r = await v02('StartSlicingTask', { ...body, configFile: { FileName: 'setup.rvwj', WsConfigs: JSON.stringify({ Models: [] }) } });
    assert.equal(r.status, 200, r.text);
    const task = await call(t.url, `/v1/stl/tasks/${r.body.result.taskId}`, { key: t.key });
    assert.deepEqual(task.body.files.map((f: { type: string; fileName: string }) => [f.type, f.fileName]), [['STL', 'cube.stl'], ['EXTRA', 'setup.rvwj']]);
    assert.equal(task.body.settings.printerModel, 'Creality Ender 3');
    // a Creality printer, and there is no Creality_PLA preset: the filament is the resolver's Generic_PLA
    assert.equal(task.body.settings.filamentPresetName, undefined);
    assert.equal(task.body.settings.qualityPresetName, undefined);
  });
});
