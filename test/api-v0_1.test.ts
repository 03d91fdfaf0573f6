// Interface v0.1 over HTTP: the scripted client's whole flow (clients/v0_1-client.ts) with the
// workspace inline, the one-time download shared with v0.2, and ProvideFile's refusals.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runV01Flow } from '../clients/v0_1-client.js';
import { workspaceFromStl } from '../clients/workspace-from-stl.js';
import { formatInfo } from '../src/engine/output/index.js';
import { CUBE_STL, call, gcodeHeaderTotals, startTestServer, waitForStatus, type TestServer } from './api-helpers.js';

describe('v0.1 over HTTP', () => {
  let t: TestServer;
  const v01 = (path: string, json: unknown) => call(t.url, `/v0.1/${path}`, { key: t.key, json });
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t?.close());

  test('the scripted client runs the whole flow; the G-code header totals equal the printing information', async () => {
    const r = await runV01Flow(t.url, t.key, { model: CUBE_STL });
    assert.equal(r.outputName, 'xyz_calibration_cube.gcode');
    const gcode = Buffer.from(r.output).toString('utf8');
    const h = gcodeHeaderTotals(gcode);
    assert.deepEqual(formatInfo({ printTimeS: h.timeS, filamentMm: h.filamentM * 1000, filamentG: h.weightG }), r.info);
    assert.match(gcode, /^;MESH:xyz_calibration_cube\.stl/m);
    // a v0.1 task is a workspace task of the one service: v1 sees it, and its output is gone
    const v1 = await call(t.url, `/v1/ws/tasks/${r.taskId}`, { key: t.key });
    assert.equal(v1.body.status, 'finished');
    assert.equal(v1.body.files[0].fileName, 'xyz_calibration_cube.rvwj');
    const viaV02 = await call(t.url, `/v0.2/DownloadFile?taskid=${r.taskId}`, { key: t.key });
    assert.equal(viaV02.status, 404);
    assert.equal(viaV02.body.error.errorCode, 'URE006');
    assert.equal(viaV02.body.apiVersion, '0.2');
  });

  test('lower-case keys and the workspace as an object are accepted; the quality preset is echoed', async () => {
    const ws = workspaceFromStl(CUBE_STL, [110, 110], 0.5);
    const r = await v01('ProvideFile', { file: { filename: 'small.rvwj', wsconfigs: ws }, supporttype: 'n', printermodel: 'Creality Ender 3', configpresetname: 'Sketch' });
    assert.equal(r.status, 200, r.text);
    const task = await waitForStatus(t, 'ws', r.body.result.taskid, ['queued', 'started', 'running', 'finished']);
    assert.equal(task.settings.qualityPresetName, 'Sketch');
    assert.equal(task.settings.printerModel, 'Creality Ender 3');

    // a configFile alone is the workspace to slice; the preset fields are then empty
    const only = await v01('ProvideFile', { configFile: { FileName: 'custom.rvwj', WsConfigs: JSON.stringify(ws) }, supportType: 'n', printerModel: '', configPresetName: '' });
    assert.equal(only.status, 200, only.text);
    const custom = await call(t.url, `/v1/ws/tasks/${only.body.result.taskId}`, { key: t.key });
    assert.deepEqual(custom.body.files.map((f: { type: string; fileName: string }) => [f.type, f.fileName]), [['WS', 'custom.rvwj']]);
    assert.equal(custom.body.settings.printerModel, 'Creality Ender 3');
  });

  test('ProvideFile refusals carry the interface codes and keep no file', async () => {
    const ws = JSON.stringify(workspaceFromStl(CUBE_STL, [110, 110]));
    const base = { supportType: 'n', printerModel: 'Creality Ender 3', configPresetName: 'Recommended' };
    const cases: Array<[string, Record<string, unknown>, number, string]> = [
      ['no file', { ...base }, 400, 'URE000'],
      ['not .rvwj', { ...base, file: { FileName: 'cube.stl', WsConfigs: ws } }, 400, 'URE001'],
      ['empty workspace', { ...base, file: { FileName: 'cube.rvwj', WsConfigs: '' } }, 400, 'URE004'],
      ['empty workspace object in a string', { ...base, file: { FileName: 'cube.rvwj', WsConfigs: ' {} ' } }, 400, 'URE004'],
      ['not JSON', { ...base, file: { FileName: 'cube.rvwj', WsConfigs: '{"Models": [' } }, 400, 'URE000'],
      ['no models', { ...base, file: { FileName: 'cube.rvwj', WsConfigs: '{"Models": []}' } }, 400, 'URE000'],
      ['unknown quality', { ...base, configPresetName: 'Superfine', file: { FileName: 'cube.rvwj', WsConfigs: ws } }, 404, 'URE003'],
      ['unknown printer', { ...base, printerModel: 'Ender 99', file: { FileName: 'cube.rvwj', WsConfigs: ws } }, 404, 'URE003'],
    ];
    const stored = () => (existsSync(join(t.dataDir, 'blobs', 'files')) ? readdirSync(join(t.dataDir, 'blobs', 'files')).length : 0);
    const before = stored();
    assert.ok(before > 0, 'the earlier tests stored workspaces where this counts them');
    for (const [what, body, status, code] of cases) {
      const r = await v01('ProvideFile', body);
      assert.equal(r.status, status, `${what}: ${r.text}`);
      assert.equal(r.body.apiVersion, '0.1');
      assert.equal(r.body.error.errorCode, code, `${what}: ${r.text}`);
    }
    assert.equal(stored(), before, 'a refused ProvideFile left a stored file behind');
  });

  test('a body over 1 MiB is read on a worker thread: the same task, the same refusals, and only the workspaces may be large', async () => {
    const ws = workspaceFromStl(CUBE_STL, [110, 110], 0.5);
    const base = { supportType: 'n', printerModel: 'Creality Ender 3', configPresetName: 'Recommended' };
    // spaces after the object keep it valid JSON and take it past 1 MiB
    const large = (body: unknown, extra = '') => call(t.url, '/v0.1/ProvideFile', {
      key: t.key,
      body: JSON.stringify(body).replace(/}$/, extra + '}') + ' '.repeat(1_200_000),
      headers: { 'Content-Type': 'application/json' },
    });
    for (const wsConfigs of [ws, JSON.stringify(ws)]) {
      const r = await large({ ...base, file: { FileName: 'big.rvwj', WsConfigs: wsConfigs } });
      assert.equal(r.status, 200, r.text);
      const task = await waitForStatus(t, 'ws', r.body.result.taskId, ['finished', 'failed']);
      assert.equal(task.status, 'finished', JSON.stringify(task.error));
      assert.deepEqual(task.files.map((f: { type: string; fileName: string }) => [f.type, f.fileName]), [['WS', 'big.rvwj']]);
    }
    const refused: Array<[string, Promise<Awaited<ReturnType<typeof call>>>, number, string, RegExp]> = [
      ['empty workspace', large({ ...base, file: { FileName: 'big.rvwj', WsConfigs: '' } }), 400, 'URE004', /WsConfigs is empty/],
      ['not .rvwj', large({ ...base, file: { FileName: 'big.stl', WsConfigs: ws } }), 400, 'URE001', /a Workspace file/],
      ['not JSON', call(t.url, '/v0.1/ProvideFile', { key: t.key, body: '{"file": ' + ' '.repeat(1_200_000), headers: { 'Content-Type': 'application/json' } }), 400, 'URE000', /not valid JSON/],
      ['__proto__', large({ ...base, file: { FileName: 'big.rvwj', WsConfigs: ws } }, ', "__proto__": {"x": 1}'), 400, 'URE000', /the key "__proto__" is not allowed in a request body/],
      // other fields than the workspaces: small, whatever the body's size
      ['a large other field', large({ ...base, file: { FileName: 'big.rvwj', WsConfigs: ws }, junk: 'x'.repeat(1_100_000) }), 413, 'URE000', /fields other than the workspaces take \d+ bytes/],
    ];
    for (const [what, pending, status, code, message] of refused) {
      const r = await pending;
      assert.equal(r.status, status, `${what}: ${r.text.slice(0, 300)}`);
      assert.equal(r.body.error.errorCode, code, what);
      assert.match(r.body.error.errorMessage, message, `${what}: ${r.body.error.errorMessage}`);
    }
  });

  test('values nested thousands of levels deep are the client\'s mistake (400) on every path, small body or large', async () => {
    // each of these answered 500: JSON.stringify in a message or of an inline workspace, or the
    // large-body thread, overflowed the stack
    const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
    const ws = JSON.stringify(workspaceFromStl(CUBE_STL, [110, 110], 0.5));
    const raw = (path: string, text: string) => call(t.url, path, { key: t.key, body: text, headers: { 'Content-Type': 'application/json' } });
    const provide = `{"supportType":"n","printerModel":"Creality Ender 3","configPresetName":"Recommended","file":{"FileName":"d.rvwj","WsConfigs":{"Models":[],"x":${deep(5000)}}}`;
    const up = await call(t.url, '/v0.2/UploadFile?filename=cube.stl', { key: t.key, body: readFileSync(CUBE_STL), headers: { 'Content-Type': 'application/octet-stream' } });
    const start = `{"fileid":"${up.body.result.fileId}","filename":"cube.stl","supporttype":"n","printermodel":"CR-10","junk":${deep(20000)},"configfile":{"FileName":"a.rvwj","WsConfigs":${JSON.stringify(ws)}}`;
    // the workspace as a string is parsed by the workspace reader: its message names the place
    const deepIndex = ws.replace(/"ModelIndices":\[/, `"ModelIndices":[${deep(6000)},`);
    const asString = `{"supportType":"n","printerModel":"Creality Ender 3","configPresetName":"Recommended","file":{"FileName":"s.rvwj","WsConfigs":${JSON.stringify(deepIndex)}}`;
    const cases: Array<[string, string, string, RegExp]> = [
      ['v0.1 inline workspace object', '/v0.1/ProvideFile', provide + '}', /more than 100 levels deep/],
      ['the same, over 1 MiB', '/v0.1/ProvideFile', provide + ' '.repeat(1_200_000) + '}', /more than 100 levels deep/],
      ['v0.2 deep field beside a configfile', '/v0.2/StartSlicingTask', start + '}', /more than 100 levels deep/],
      ['the same, over 1 MiB', '/v0.2/StartSlicingTask', start + ' '.repeat(1_200_000) + '}', /more than 100 levels deep/],
      ['v0.1 workspace string with a deep index', '/v0.1/ProvideFile', asString + '}', /ModelIndices\[0\] is an array: not an index/],
    ];
    for (const [what, path, text, message] of cases) {
      const r = await raw(path, text);
      assert.equal(r.status, 400, `${what}: ${r.text.slice(0, 300)}`);
      assert.equal(r.body.error.errorCode, 'URE000', what);
      assert.match(r.body.error.errorMessage, message, `${what}: ${r.body.error.errorMessage}`);
    }
    // v1: an uploaded workspace file with a deep value
    const wsUp = await call(t.url, '/v1/upload/WS/deep.rvwj', { key: t.key, method: 'POST', body: deepIndex, headers: { 'Content-Type': 'application/octet-stream' } });
    assert.equal(wsUp.status, 200, wsUp.text);
    const v1 = await call(t.url, '/v1/ws/tasks', { key: t.key, method: 'POST', json: { files: [{ fileId: wsUp.body.fileId, type: 'WS' }], settings: { printerModel: 'CR-10' } } });
    assert.equal(v1.status, 400, v1.text.slice(0, 300));
    assert.equal(v1.body.errorCode, 'URE000');
    assert.match(v1.body.message, /ModelIndices\[0\] is an array: not an index/);
  });

  test('v0.1 has no UploadFile or StartSlicingTask', async () => {
    for (const path of ['UploadFile', 'StartSlicingTask']) {
      const r = await v01(path, {});
      assert.equal(r.status, 404, path);
    }
  });
});
