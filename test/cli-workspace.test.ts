// `stratum slice WORKSPACE.json`: the command line slices a Workspace file (placed models, box and
// point-cloud modifiers) as the service slices the same file as a workspace task. It used to refuse
// every Workspace, including the ones `stratum workspace from-stl` writes.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { STRATUM_BIN, call, startTestServer, upload, waitForStatus, type TestServer } from './api-helpers.js';
import { binaryStl, box, soup } from './mesh-fixtures.js';
import { isWorkspaceFile, parseCloudArg, parseCloudArgs } from '../src/cli/workspace-input.js';

const work = mkdtempSync(join(tmpdir(), 'stratum-cli-ws-'));
after(() => rmSync(work, { recursive: true, force: true }));

function stratum(...args: string[]) {
  const r = spawnSync(process.execPath, [STRATUM_BIN, ...args], { encoding: 'utf8', cwd: work, timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The G-code without the lines that name when and how long (the header's generator line is the same). */
const body = (gcode: string) => gcode.split('\n').filter((l) => !/^;(Generated|TIME_ELAPSED|PRINT\.TIME|estimated)/i.test(l));

describe('stratum slice on a Workspace file', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
    writeFileSync(join(work, 'cube.stl'), binaryStl(soup(box(0, 0, 0, 20, 20, 10))));
    const made = [
      stratum('workspace', 'from-stl', 'cube.stl', '-o', 'box.json', '--modifier', 'BOX:0,0,-1,10,20,11:1'),
      stratum('pointcloud', '--dims', '4,1,1', '--hardness', '70 + 20*x', '-o', 'ramp.pcsv'),
      stratum('workspace', 'from-stl', 'cube.stl', '-o', 'cloud.json', '--pointcloud', 'ramp.pcsv'),
    ];
    for (const r of made) assert.equal(r.code, 0, r.stderr);
  });
  after(async () => t?.close());

  async function serviceGcode(ws: string, pc?: { name: string; dims: number[]; filament: string }): Promise<string> {
    const wsId = (await upload(t, 'WS', ws, readFileSync(join(work, ws)))).body.fileId;
    const files: unknown[] = [{ fileId: wsId, type: 'WS', fileName: ws }];
    if (pc) {
      const pcId = (await upload(t, 'PC_SV', pc.name, readFileSync(join(work, pc.name)))).body.fileId;
      files.push({ fileId: pcId, type: 'PC_SV', fileName: pc.name, arrayDimensions: pc.dims, filamentName: pc.filament });
    }
    const start = await call(t.url, '/v1/ws/tasks', { key: t.key, json: { files, settings: { printerModel: 'Creality Ender 3', supportType: 'n' } } });
    assert.equal(start.status, 200, start.text);
    const done = await waitForStatus(t, 'ws', start.body.taskId, ['finished', 'failed'], 60_000);
    assert.equal(done.status, 'finished', JSON.stringify(done.error));
    return (await call(t.url, `/v1/output/${done.output.outputId}/download`, { key: t.key })).text;
  }

  test('a workspace with a box modifier slices to the service\'s G-code', async () => {
    const r = stratum('slice', 'box.json', '-o', 'box.gcode');
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(body(readFileSync(join(work, 'box.gcode'), 'utf8')), body(await serviceGcode('box.json')));
    // the modifier took effect: more plastic than the cube alone
    const plain = stratum('slice', 'cube.stl', '-o', 'plain.gcode', '--json');
    const ws = stratum('slice', 'box.json', '-o', 'box.gcode', '--json');
    assert.ok(JSON.parse(ws.stdout).filamentMm > JSON.parse(plain.stdout).filamentMm * 1.1, `${ws.stdout} vs ${plain.stdout}`);
  });

  test('a point-cloud workspace takes its cloud from --pointcloud, as the service from its PC_SV file', async () => {
    const r = stratum('slice', 'cloud.json', '-o', 'cloud.gcode', '--pointcloud', 'ramp.pcsv:4,1,1:Generic_TPU95A');
    assert.equal(r.code, 0, r.stderr);
    const service = await serviceGcode('cloud.json', { name: 'ramp.pcsv', dims: [4, 1, 1], filament: 'Generic_TPU95A' });
    assert.deepEqual(body(readFileSync(join(work, 'cloud.gcode'), 'utf8')), body(service));
  });

  test('what is missing or wrong is said: the cloud, its size, a cloud for a model file', () => {
    const missing = stratum('slice', 'cloud.json', '-o', 'x.gcode');
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /FileReference names 'ramp\.pcsv', but no --pointcloud file has that name \(given: none\); add --pointcloud FILE:NX,NY,NZ/);
    const size = stratum('slice', 'cloud.json', '-o', 'x.gcode', '--pointcloud', 'ramp.pcsv:4,1,2:Generic_TPU95A');
    assert.equal(size.code, 1);
    assert.match(size.stderr, /point cloud 'ramp\.pcsv' has 32 bytes; arrayDimensions 4×1×2 need 64/);
    const notWs = stratum('slice', 'cube.stl', '-o', 'x.gcode', '--pointcloud', 'ramp.pcsv:4,1,1');
    assert.equal(notWs.code, 2);
    assert.match(notWs.stderr, /--pointcloud is for Workspace files/);
    const notWsBatch = stratum('slice', 'cube.stl', 'cube.stl', '-o', 'several', '--pointcloud', 'ramp.pcsv:4,1,1');
    assert.equal(notWsBatch.code, 2);
    assert.match(notWsBatch.stderr, /--pointcloud is for Workspace files .* every MODEL here is a model file/);
    const bad = stratum('slice', 'cloud.json', '-o', 'x.gcode', '--pointcloud', 'ramp.pcsv');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--pointcloud takes FILE:NX,NY,NZ\[:FILAMENT\]/);
  });
});

test('a binary STL whose header is spaces and whose triangle count starts with a { byte is a model, not a Workspace', () => {
  // 123 triangles: the count's first byte is 0x7b; before, the command read the file as JSON
  const tris: number[] = [];
  for (let i = 0; i < 123; i++) tris.push(...soup(box(i, 0, 0, i + 0.9, 10, 10)).slice(0, 9));
  const stl = binaryStl(tris, ' '.repeat(80));
  assert.equal(stl[80], 0x7b);
  assert.equal(isWorkspaceFile('brace.stl', stl), false);
  assert.equal(isWorkspaceFile('brace', stl), true, 'without a model extension the content decides');
  assert.equal(isWorkspaceFile('ws.json', new Uint8Array()), true);
});

test('--pointcloud values: a path with colons, the filament optional', () => {
  assert.deepEqual(parseCloudArg('a.pcsv:4,1,2'), { path: 'a.pcsv', dims: [4, 1, 2] });
  assert.deepEqual(parseCloudArg('c:/x/a.pcsv:4,1,2:Generic_TPU95A'), { path: 'c:/x/a.pcsv', dims: [4, 1, 2], filament: 'Generic_TPU95A' });
  assert.throws(() => parseCloudArg('a.pcsv:4,1'), /--pointcloud takes FILE:NX,NY,NZ/);
  assert.throws(() => parseCloudArg('a.pcsv:0,1,1'), /each count must be from 1 to 1000000/);
  assert.throws(() => parseCloudArg(':4,1,1'), /--pointcloud takes/);
  // two files of one base name, or one file twice: a modifier's FileReference could not tell them
  // apart (one was picked silently by the order of the flags, with a warning that the other was unused)
  assert.throws(() => parseCloudArgs(['ramp.pcsv:8,1,1', '/tmp/ramp.pcsv:4,2,1']), /--pointcloud ramp.pcsv and \/tmp\/ramp.pcsv have the same file name 'ramp.pcsv'/);
  assert.throws(() => parseCloudArgs(['ramp.pcsv:8,1,1', './ramp.pcsv:8,1,1']), /same file name/);
  assert.equal(parseCloudArgs(['a/ramp.pcsv:8,1,1', 'a/ramp2.pcsv:8,1,1']).length, 2);
});
