// FCode over HTTP (interface v1): a task on an FCode printer gives `<name>.fcode` with format FCODE,
// whose decoded G-code agrees with the task's info; `outputFormat` in the task settings picks
// either format on any printer.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { decodeFCode, readFCodeHeader } from '../src/engine/output/fcode-api.js';
import { formatInfo } from '../src/engine/output/index.js';
import { CUBE_STL, call, gcodeHeaderTotals, startTestServer, upload, waitForStatus, type TestServer } from './api-helpers.js';

describe('FCode tasks over HTTP', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t.close());

  async function runTask(name: string, settings: Record<string, unknown>) {
    const up = await upload(t, 'STL', name, readFileSync(CUBE_STL));
    assert.equal(up.status, 200, up.text);
    const files = [{ fileId: up.body.fileId, type: 'STL', fileName: name }];
    const start = await call(t.url, '/v1/stl/tasks', { key: t.key, json: { files, settings: { supportType: 'n', ...settings } } });
    assert.equal(start.status, 200, start.text);
    const done = await waitForStatus(t, 'stl', start.body.taskId, ['finished', 'failed'], 30_000);
    assert.equal(done.status, 'finished', JSON.stringify(done.error));
    const dl = await call(t.url, `/v1/output/${done.output.outputId}/download`, { key: t.key });
    assert.equal(dl.status, 200);
    return { task: done, dl };
  }

  test('IdeaWerk-Speed takes FCode: cube.fcode, format FCODE, decodes to G-code matching the info', async () => {
    const { task, dl } = await runTask('cube.stl', { printerModel: 'IdeaWerk-Speed' });
    assert.deepEqual(task.output, {
      outputName: 'cube.fcode',
      outputId: task.output.outputId,
      taskId: task.taskId,
      fileId: task.output.outputId,
      format: 'FCODE',
    });
    assert.equal(dl.headers.get('content-disposition'), 'attachment; filename=cube.fcode');
    assert.deepEqual([...dl.bytes.subarray(0, 4)], [0x43, 0x49, 0x52, 0x00]);
    const header = readFCodeHeader(dl.bytes);
    assert.equal(header.meta.machine, 'IdeaWerk-Speed');
    const m = header.meta;
    assert.deepEqual(formatInfo({ printTimeS: m.printTimeS!, filamentMm: m.filamentMm!, filamentG: m.filamentG! }), task.info);
    const gcode = Buffer.from(decodeFCode(dl.bytes).gcode).toString('utf8');
    assert.match(gcode, /^;FLAVOR:Marlin/);
    const h = gcodeHeaderTotals(gcode);
    assert.deepEqual(formatInfo({ printTimeS: h.timeS, filamentMm: h.filamentM * 1000, filamentG: h.weightG }), task.info);
    assert.ok(dl.bytes.length < gcode.length / 3, `FCode ${dl.bytes.length} B, G-code ${gcode.length} B`);
  });

  test('outputFormat GCODE on IdeaWerk-Speed gives G-code; fcode (any case) on a G-code printer gives FCode', async () => {
    const g = await runTask('g.stl', { printerModel: 'IdeaWerk-Speed', outputFormat: 'GCODE' });
    assert.equal(g.task.output.format, 'GCODE');
    assert.equal(g.task.output.outputName, 'g.gcode');
    assert.equal(g.task.settings.outputFormat, 'GCODE');
    assert.match(g.dl.text, /^;FLAVOR:Marlin/);

    // as the interface spells it: FCode (the schema took only GCODE, FCODE, gcode and fcode)
    const f = await runTask('f.stl', { printerModel: 'Creality Ender 3', outputFormat: 'FCode' });
    assert.equal(f.task.output.format, 'FCODE');
    assert.equal(f.task.output.outputName, 'f.fcode');
    const decoded = decodeFCode(f.dl.bytes);
    assert.equal(decoded.meta.machine, 'Creality Ender 3');
    assert.ok(decoded.lines > 1000);
    const mixed = await runTask('m.stl', { printerModel: 'IdeaWerk-Speed', outputFormat: 'GCode' });
    assert.equal(mixed.task.output.format, 'GCODE');
  });
});
