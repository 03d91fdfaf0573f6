// Workspace tasks over HTTP: a real-shape workspace with two models and a modifier slices to G-code,
// a model off the bed fails with SF000 naming it, and every malformed workspace or point cloud is
// refused at task start with URE000 and a message that says where the problem is.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { parseModel } from '../src/engine/mesh/index.js';
import type { Mesh } from '../src/engine/types.js';
import { boxMesh, centreOnBed, workspaceFile, type WorkspaceEntryInput } from '../src/service/workspace/build-workspace.js';
import { encodePointCloud } from '../src/service/workspace/point-cloud.js';
import { CUBE_STL, STL_SETTINGS, call, startTestServer, upload, waitForStatus, type TestServer } from './api-helpers.js';

const cube = parseModel(readFileSync(CUBE_STL), 'cube.stl').mesh;
/** the 20 mm calibration cube centred at (cx, cy) on the bed */
const cubeAt = (cx: number, cy: number): Mesh => centreOnBed(cube, cx, cy);
const box = (x0: number, y0: number, z0: number, x1: number, y1: number, z1: number) => boxMesh([x0, y0, z0], [x1, y1, z1]);

/** Two cubes side by side (x 75…95 and 125…145, y 100…120) and a modifier over the left one's left half. */
function twoCubes(extra: WorkspaceEntryInput[] = []): Record<string, unknown> {
  return workspaceFile([
    { name: 'left_cube.stl', mesh: cubeAt(85, 110) },
    { name: 'right_cube.stl', mesh: cubeAt(135, 110) },
    { name: 'dense.stl', mesh: box(74, 99, -1, 85, 121, 21), priority: 1, fillDensity: 1 },
    ...extra,
  ]);
}

/** A deep copy whose Models[i] is changed by `edit` (for the malformed cases). */
function edited(ws: Record<string, unknown>, i: number, edit: (m: Record<string, any>) => void): Record<string, unknown> {
  const copy = structuredClone(ws) as { Models: Array<Record<string, any>> };
  edit(copy.Models[i]!);
  return copy;
}

describe('workspace tasks over HTTP', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => {
    await t?.close();
  });

  async function uploadWs(ws: unknown, name = 'ws.json'): Promise<string> {
    const up = await upload(t, 'WS', name, typeof ws === 'string' ? ws : JSON.stringify(ws));
    assert.equal(up.status, 200, up.text);
    return up.body.fileId;
  }

  async function startWs(wsId: string, extraFiles: unknown[] = [], settings: Record<string, unknown> = STL_SETTINGS) {
    return call(t.url, '/v1/ws/tasks', {
      key: t.key,
      json: { files: [{ fileId: wsId, type: 'WS', fileName: 'ws.json' }, ...extraFiles], settings },
    });
  }

  /** Slices a workspace through /v1/ws/tasks; the finished task. */
  async function sliceWs(ws: unknown, extraFiles: unknown[] = [], settings?: Record<string, unknown>) {
    const start = await startWs(await uploadWs(ws), extraFiles, settings);
    assert.equal(start.status, 200, start.text);
    const done = await waitForStatus(t, 'ws', start.body.taskId, ['finished', 'failed'], 60_000);
    assert.equal(done.status, 'finished', JSON.stringify(done.error));
    return done;
  }

  test('a real-shape workspace with two models and a modifier slices to G-code', async () => {
    const done = await sliceWs(twoCubes());
    // the solid modifier over half of one cube costs filament: more than the same cubes without it
    const plain = await sliceWs(workspaceFile([
      { name: 'left_cube.stl', mesh: cubeAt(85, 110) },
      { name: 'right_cube.stl', mesh: cubeAt(135, 110) },
    ]));
    const metres = (task: { info: { length: string } }) => parseFloat(task.info.length);
    assert.ok(metres(done) > metres(plain) * 1.1, `with modifier ${done.info.length}, without ${plain.info.length}`);
    const gcode = (await call(t.url, `/v1/output/${done.output.outputId}/download`, { key: t.key })).text;
    assert.match(gcode, /^;MESH:left_cube\.stl/m);
    assert.match(gcode, /^;MESH:right_cube\.stl/m);
    assert.doesNotMatch(gcode, /^;MESH:dense\.stl/m, 'a modifier is never printed');
    // both cubes print where the workspace put them: their outer walls span x 75…145
    let minX = Infinity, maxX = -Infinity;
    let type = '';
    for (const line of gcode.split('\n')) {
      if (line.startsWith(';TYPE:')) type = line.slice(6);
      const m = /^G1 X([\d.]+) Y[\d.]+ E/.exec(line);
      if (m && type === 'WALL-OUTER') {
        minX = Math.min(minX, Number(m[1]));
        maxX = Math.max(maxX, Number(m[1]));
      }
    }
    assert.ok(minX > 74 && minX < 76.5, `left edge ${minX}`);
    assert.ok(maxX > 143.5 && maxX < 146, `right edge ${maxX}`);
  });

  test('an XML configuration applies to a workspace task; EXTRA and PC_DE files are listed, not sliced', async () => {
    const xml = '<configuration><setting name="layerHeight">0.25</setting><setting name="firstLayerHeight">0.25</setting></configuration>';
    const ids = {
      xml: (await upload(t, 'XML', 'fine.xml', xml)).body.fileId,
      extra: (await upload(t, 'EXTRA', 'notes.txt', 'customer 42')).body.fileId,
      pcde: (await upload(t, 'PC_DE', 'density.bin', new Uint8Array(16))).body.fileId,
    };
    const ws = workspaceFile([{ name: 'cube.stl', mesh: cubeAt(110, 110) }]);
    const done = await sliceWs(ws, [
      { fileId: ids.xml, type: 'XML', fileName: 'fine.xml' },
      { fileId: ids.extra, type: 'EXTRA', fileName: 'notes.txt' },
      { fileId: ids.pcde, type: 'PC_DE', fileName: 'density.bin' },
    ]);
    assert.deepEqual(done.files.map((f: { type: string }) => f.type), ['WS', 'XML', 'EXTRA', 'PC_DE']);
    const gcode = (await call(t.url, `/v1/output/${done.output.outputId}/download`, { key: t.key })).text;
    assert.equal(gcode.match(/^;LAYER:\d+/gm)?.length, 80, '20 mm at 0.25 mm layers');
  });

  test('a model off the bed fails with SF000 naming it', async () => {
    const ws = workspaceFile([
      { name: 'on_bed.stl', mesh: cubeAt(110, 110) },
      { name: 'far_cube.stl', mesh: cubeAt(300, 110) },
    ]);
    const start = await startWs(await uploadWs(ws));
    assert.equal(start.status, 200, start.text);
    const failed = await waitForStatus(t, 'ws', start.body.taskId, ['finished', 'failed'], 60_000);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error.errorCode, 'SF000');
    assert.match(failed.error.message, /model 'far_cube\.stl' \(Models\[1\]\) lies outside the build volume/);
  });

  test('malformed workspaces fail at task start with URE000 naming the JSON path', async () => {
    const ws = twoCubes();
    const cases: Array<[string, unknown, RegExp]> = [
      ['not JSON', '{"Models": [', /not valid JSON/],
      ['no models', { Printer: {} }, /no models array/],
      ['index out of range', edited(ws, 1, (m) => (m.ModelIndices[42] = 99999)), /Models\[1\]\.ModelIndices\[42\] is 99999: not an index/],
      ['index not whole', edited(ws, 0, (m) => (m.ModelIndices[7] = 1.5)), /Models\[0\]\.ModelIndices\[7\]/],
      ['coordinate a string', edited(ws, 1, (m) => (m.ModelPositions[5].Y = 'ten')), /Models\[1\]\.ModelPositions\[5\]\.Y must be a finite number/],
      ['coordinate huge', edited(ws, 0, (m) => (m.ModelPositions[3].Z = 1e9)), /Models\[0\]\.ModelPositions\[3\]\.Z is 1000000000 mm/],
      ['triangle count', edited(ws, 0, (m) => m.ModelIndices.pop()), /Models\[0\]\.ModelIndices holds \d+ entries, not a multiple of 3/],
      ['lower-case keys, bad index', JSON.parse(JSON.stringify(edited(ws, 1, (m) => (m.ModelIndices[3] = -1))).replace(/"ModelIndices"/g, '"modelIndices"')), /Models\[1\]\.modelIndices\[3\]/],
      ['negative priority', edited(ws, 2, (m) => (m.metaData.SlicingPriority = -2)), /Models\[2\]\.metaData\.SlicingPriority must be a whole number/],
      ['density above 1', edited(ws, 2, (m) => (m.metaData.Modifier.FillDensityFactor = 1.5)), /Models\[2\]\.metaData\.Modifier\.FillDensityFactor must be a number from 0/],
      ['modifier without Modifier', edited(ws, 2, (m) => delete m.metaData.Modifier), /Models\[2\]\.metaData\.Modifier is missing/],
      ['bounds index', edited(ws, 0, (m) => (m.BoundsIndices = [0, 3])), /Models\[0\]\.BoundsIndices\[1\]/],
      ['metaData not an object', edited(ws, 1, (m) => (m.metaData = 'x')), /Models\[1\]\.metaData must be an object/],
      ['name with a line break', edited(ws, 0, (m) => (m.metaData.Name = 'a\nM104 S300\n;')), /Models\[0\]\.metaData\.Name must be one line without control characters/],
    ];
    for (const [what, body, message] of cases) {
      const start = await startWs(await uploadWs(body));
      assert.equal(start.status, 400, `${what}: ${start.text}`);
      assert.equal(start.body.errorCode, 'URE000', what);
      assert.match(start.body.message, message, what);
    }
  });

  test('a workspace over 1 MiB is checked on a thread, with the same URE000 and path', async () => {
    const big = { ...edited(twoCubes(), 1, (m) => (m.ModelIndices[42] = 99999)), Padding: 'x'.repeat(1_200_000) };
    const start = await startWs(await uploadWs(big));
    assert.equal(start.status, 400, start.text);
    assert.equal(start.body.errorCode, 'URE000');
    assert.match(start.body.message, /Models\[1\]\.ModelIndices\[42\] is 99999/);
    assert.deepEqual(start.body.details, { path: 'Models[1].ModelIndices[42]' });
    const good = await startWs(await uploadWs({ ...twoCubes(), Padding: 'x'.repeat(1_200_000) }));
    assert.equal(good.status, 200, good.text);
    await waitForStatus(t, 'ws', good.body.taskId, ['finished', 'failed'], 60_000);
  });

  describe('point clouds', () => {
    const dims: [number, number, number] = [4, 2, 2];
    const cloud = encodePointCloud(Array.from({ length: 16 }, (_, i) => 40 + i * 4)); // 40…100 Shore A
    /** one cube with a point-cloud modifier over its bounding box (or `modBox`) naming `ref` */
    const pcWorkspace = (ref: string, modBox: Mesh = box(100, 100, 0, 120, 120, 20)) =>
      workspaceFile([
        { name: 'sole.stl', mesh: cubeAt(110, 110) },
        { name: 'shore.stl', mesh: modBox, priority: 1, fileReference: ref },
      ]);
    const pcEntry = (fileId: string, extra: Record<string, unknown> = {}) => ({ fileId, type: 'PC_SV', fileName: 'soft.pcsv', arrayDimensions: dims, ...extra });

    test('a valid point-cloud workspace is accepted and lists its PC_SV file', async () => {
      const pc = (await upload(t, 'PC_SV', 'soft.pcsv', cloud)).body.fileId;
      const start = await startWs(await uploadWs(pcWorkspace('soft.pcsv')), [pcEntry(pc, { filamentName: 'Generic_TPU95A' })]);
      assert.equal(start.status, 200, start.text);
      assert.deepEqual(start.body.files[1], { fileId: pc, fileName: 'soft.pcsv', type: 'PC_SV', arrayDimensions: dims, filamentName: 'Generic_TPU95A' });
      const done = await waitForStatus(t, 'ws', start.body.taskId, ['finished', 'failed'], 60_000);
      assert.equal(done.status, 'finished', JSON.stringify(done.error));
      // TPU95A's table runs 50…95 A: 40, 44, 48, 96 and 100 are clamped, and the task says so
      assert.ok(done.warnings?.some((w: string) => /'soft\.pcsv': 5 of 16 hardness values \(range 40…100\)/.test(w)), JSON.stringify(done.warnings));
    });

    test('a NaN or an infinity in the cloud is refused at start (URE000) naming the voxel; an unknown filament is URE003', async () => {
      for (const [bad, shown] of [[NaN, 'NaN'], [-Infinity, '-Infinity']] as const) {
        const values = encodePointCloud(Array.from({ length: 16 }, (_, i) => (i === 5 ? bad : 70)));
        const id = (await upload(t, 'PC_SV', 'soft.pcsv', values)).body.fileId;
        const start = await startWs(await uploadWs(pcWorkspace('soft.pcsv')), [pcEntry(id, { filamentName: 'Generic_TPU95A' })]);
        assert.equal(start.status, 400, start.text);
        assert.equal(start.body.errorCode, 'URE000');
        assert.match(start.body.message, new RegExp(`^point cloud 'soft\\.pcsv': value \\[1\\]\\[0\\]\\[1\\] \\(byte 40\\) is ${shown}, not a hardness`));
      }
      const pc = (await upload(t, 'PC_SV', 'soft.pcsv', cloud)).body.fileId;
      const unknown = await startWs(await uploadWs(pcWorkspace('soft.pcsv')), [pcEntry(pc, { filamentName: 'Generic_TPU96X' })]);
      assert.equal(unknown.status, 404, unknown.text);
      assert.equal(unknown.body.errorCode, 'URE003');
    });

    test('a PC_SV file no modifier references is listed and reported in the warnings', async () => {
      const pc = (await upload(t, 'PC_SV', 'soft.pcsv', cloud)).body.fileId;
      const start = await startWs(await uploadWs(twoCubes()), [pcEntry(pc)]);
      assert.equal(start.status, 200, start.text);
      assert.equal(start.body.files.length, 2);
      assert.ok(start.body.warnings.some((w: string) => /'soft\.pcsv' is referenced by no modifier/.test(w)), start.text);
    });

    test('a file of the other kind of task (an STL beside a workspace, a workspace or cloud beside an STL) is kept and said in the warnings', async () => {
      const stl = (await upload(t, 'STL', 'stray.stl', new Uint8Array(readFileSync(CUBE_STL)))).body.fileId;
      const ws = await startWs(await uploadWs(twoCubes()), [{ fileId: stl, type: 'STL' }]);
      assert.equal(ws.status, 200, ws.text);
      assert.ok(ws.body.warnings.some((w: string) => /'stray\.stl' \(STL\) takes no part in a Workspace task/.test(w)), ws.text);
      const pc = (await upload(t, 'PC_SV', 'soft.pcsv', cloud)).body.fileId;
      const wsFile = await uploadWs(twoCubes());
      const st = await call(t.url, '/v1/stl/tasks', {
        key: t.key,
        json: { files: [{ fileId: stl, type: 'STL' }, { fileId: wsFile, type: 'WS' }, pcEntry(pc)], settings: STL_SETTINGS },
      });
      assert.equal(st.status, 200, st.text);
      for (const what of [/\(WS\) takes no part in an STL task/, /'soft\.pcsv' \(PC_SV\) takes no part in an STL task/]) {
        assert.ok(st.body.warnings.some((w: string) => what.test(w)), st.text);
      }
    });

    test('point-cloud problems fail at task start with URE000', async () => {
      const pc = (await upload(t, 'PC_SV', 'soft.pcsv', cloud)).body.fileId;
      const shortPc = (await upload(t, 'PC_SV', 'soft.pcsv', cloud.subarray(0, 120))).body.fileId;
      const pc2 = (await upload(t, 'PC_SV', 'soft.pcsv', cloud)).body.fileId;
      const cases: Array<[string, unknown, unknown[], Record<string, unknown>, RegExp]> = [
        ['wrong size', pcWorkspace('soft.pcsv'), [pcEntry(shortPc)], STL_SETTINGS, /has 120 bytes; arrayDimensions 4×2×2 need 128/],
        ['too many values', pcWorkspace('soft.pcsv'), [pcEntry(pc, { arrayDimensions: [1000, 1000, 17] })], STL_SETTINGS, /arrayDimensions 1000×1000×17 are 17000000 values, more than 16000000/],
        ['no matching upload', pcWorkspace('other.pcsv'), [pcEntry(pc)], STL_SETTINGS, /Models\[1\]\.metaData\.FileReference names 'other\.pcsv', but the task has no PC_SV file of that name/],
        ['no PC_SV at all', pcWorkspace('soft.pcsv'), [], STL_SETTINGS, /FileReference names 'soft\.pcsv'.*PC_SV files: none/],
        ['one file listed twice', pcWorkspace('soft.pcsv'), [pcEntry(pc), pcEntry(pc)], STL_SETTINGS, /the PC_SV file 'soft\.pcsv' \(.+\) is listed twice/],
        ['two files of one name', pcWorkspace('soft.pcsv'), [pcEntry(pc), pcEntry(pc2)], STL_SETTINGS, /two PC_SV files are named 'soft\.pcsv'.*could not tell them apart/],
        ['modifier not enclosing', pcWorkspace('soft.pcsv', box(100, 100, 0, 110, 120, 20)), [pcEntry(pc)], STL_SETTINGS, /'shore\.stl' \(Models\[1\]\) does not enclose model 'sole\.stl'/],
        ['modifier enclosing nothing', pcWorkspace('soft.pcsv', box(10, 10, 0, 20, 20, 20)), [pcEntry(pc)], STL_SETTINGS, /does not enclose any model/],
        ['no shore table (entry filament)', pcWorkspace('soft.pcsv'), [pcEntry(pc, { filamentName: 'Generic_PETG' })], STL_SETTINGS, /Generic_PETG has no Shore calibration table/],
        ['no shore table (task filament)', pcWorkspace('soft.pcsv'), [pcEntry(pc)], { ...STL_SETTINGS, filamentPresetName: 'Generic_ABS' }, /Generic_ABS has no Shore calibration table/],
      ];
      for (const [what, ws, extra, settings, message] of cases) {
        const start = await startWs(await uploadWs(ws), extra, settings);
        assert.equal(start.status, 400, `${what}: ${start.text}`);
        assert.equal(start.body.errorCode, 'URE000', what);
        assert.match(start.body.message, message, what);
      }
    });
  });
});
