// The user's tools for workspaces: `stratum workspace from-stl` and `stratum pointcloud` write files
// the service reads back as meant; PC_SV decoding and the hardness → density mapping.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { main } from '../src/cli/main.js';
import { parseModifierArg } from '../src/cli/modifier-arg.js';
import { hardnessFunction, sampleGrid } from '../src/cli/pointcloud-command.js';
import { getFilament } from '../src/profiles/index.js';
import { densityFieldOf, encodePointCloud, readPointCloud } from '../src/service/workspace/point-cloud.js';
import { readWorkspace } from '../src/service/workspace/read-workspace.js';
import { CUBE_STL, removeDir, tempDir } from './api-helpers.js';

const dir = tempDir('ws-tools');
after(() => removeDir(dir));

test('workspace from-stl: the cube centred on the Ender 3 bed, base at 0, modifiers relative to it', async () => {
  const out = join(dir, 'cube.json');
  const code = await main(['workspace', 'from-stl', CUBE_STL, '-o', out, '-m', 'BOX:0,0,0,10,20,20:1', '-m', 'BOX:5,0,0,10,20,20:0:7', '--pointcloud', 'soft.pcsv']);
  assert.equal(code, 0);
  const raw = JSON.parse(readFileSync(out, 'utf8'));
  assert.deepEqual(raw.Printer, { Dummy: [3, 0, 1] });
  assert.equal(raw.Models[0].metaData.SlicingPriority, 0);
  assert.deepEqual(raw.Models[1].metaData.Modifier, { FillDensityFactor: 1 });
  const ws = readWorkspace(readFileSync(out), 'cube.json');
  assert.equal(ws.models.length, 1);
  const box = ws.placed[0]!.box;
  assert.deepEqual(box.min.map((v) => Math.round(v * 100) / 100), [100, 100, 0]);
  assert.deepEqual(box.max.map((v) => Math.round(v * 100) / 100), [120, 120, 20]);
  assert.deepEqual(
    ws.modifiers.map((m) => [m.priority, m.fillDensity, m.fileReference, m.box.min[0], m.box.max[0]]),
    [
      [1, 1, undefined, 100, 110],
      [7, 0, undefined, 105, 110],
      [3, undefined, 'soft.pcsv', 100, 120],
    ],
  );
});

test('workspace from-stl: wrong modifier arguments are usage errors', async () => {
  assert.throws(() => parseModifierArg('BOX:0,0,0,1,1:1'), /six numbers/);
  assert.throws(() => parseModifierArg('BOX:0,0,0,1,1,1:1.5'), /factor must be from 0/);
  assert.throws(() => parseModifierArg('BOX:0,0,0,0,1,1:1'), /no volume/);
  assert.throws(() => parseModifierArg('SPHERE:0,0,0,1,1,1:1'), /expected BOX/);
  assert.deepEqual(parseModifierArg('box:10,0,0,0,5,5:0.25:3'), { min: [0, 0, 0], max: [10, 5, 5], factor: 0.25, priority: 3 });
  assert.equal(await main(['workspace', 'from-stl', CUBE_STL, '-o', join(dir, 'x.json'), '-m', 'BOX:1']), 2);
});

test('pointcloud: PC_SV bytes are little-endian doubles, x-major, z fastest, sampled at voxel centres', async () => {
  const out = join(dir, 'ramp.pcsv');
  assert.equal(await main(['pointcloud', '--dims', '4,2,3', '--hardness', '100*x + 10*y + z', '-o', out]), 0);
  const bytes = readFileSync(out);
  assert.equal(bytes.byteLength, 4 * 2 * 3 * 8);
  const values = readPointCloud(bytes, [4, 2, 3], 'ramp.pcsv');
  // index (ix*ny + iy)*nz + iz; x = (ix + 0.5)/nx
  const at = (ix: number, iy: number, iz: number) => values[(ix * 2 + iy) * 3 + iz]!;
  assert.equal(at(0, 0, 0), 100 * 0.125 + 10 * 0.25 + 1 / 6);
  assert.equal(at(3, 1, 2), 100 * 0.875 + 10 * 0.75 + 5 / 6);
  assert.equal(bytes.readDoubleLE(8), at(0, 0, 1));
  assert.equal(await main(['pointcloud', '--dims', '2,2', '--hardness', 'x', '-o', out]), 2);
  assert.throws(() => sampleGrid([1, 1, 1], hardnessFunction('x / 0 - Infinity')), /not a finite number/);
  assert.equal(sampleGrid([1, 1, 2], hardnessFunction('max(x, z) + PI'))[1], 0.75 + Math.PI);
  assert.equal(sampleGrid([1, 1, 1], hardnessFunction('1e2 * x + .5e1'))[0], 55);
  // the operators, as JavaScript reads them
  const value = (expr: string) => hardnessFunction(expr)(0.25, 0.5, 1);
  assert.equal(value('x < 0.5 ? 90 : 60'), 90);
  assert.equal(value('x >= 0.5 ? 90 : y == 0.5 && z != 0 ? 70 : 60'), 70);
  assert.equal(value('2 ** 3 ** 2'), 512);
  assert.equal(value('-x * 4 + 100 % 7'), 1);
  assert.equal(value('max(x, y, z) + min(1, 2) - abs(-3)'), -1);
  assert.equal(value('!0 + !5 + (x || 7) + (0 || 7)'), 8.25);
  // arithmetic only, read by a parser of our own: no other names, strings, brackets, assignments or
  // functions (a file written, the process ended, a property set on Math, a loop for ever)
  for (const expr of [
    'process.exit(0)', '(()=>{while(1);})()', "x['constructor']", 'x.constructor', 'globalThis', 'this', '`${x}`',
    '(abs => abs(abs, 60))((abs, x) => x > 0 ? abs(abs, x-1) + abs(abs, x-1) : 0)', 'Infinity = 1', 'abs.PI = 5', '(...abs) => abs', '/x/', 'x = 5', 'min(', '1 +', '(1',
  ]) {
    assert.throws(() => hardnessFunction(expr), /--hardness/, expr);
  }
  assert.equal(typeof Math.abs, 'function');
});

test('PC_SV: wrong size and non-finite values are refused with the voxel named', () => {
  assert.throws(() => readPointCloud(new Uint8Array(40), [2, 2, 2], 'a.pcsv'), /has 40 bytes; arrayDimensions 2×2×2 need 64/);
  const bad = encodePointCloud([1, 2, 3, NaN]);
  assert.throws(() => readPointCloud(bad, [1, 2, 2], 'b.pcsv'), /value \[0\]\[1\]\[1\] \(byte 24\) is NaN/);
});

test('hardness maps to density through the filament table, clamping and counting out-of-range values', () => {
  const tpu = getFilament('Generic_TPU95A'); // 50 A → 5 %, … 95 A → 100 %
  const d = densityFieldOf(Float64Array.from([40, 50, 70, 80, 99]), [5, 1, 1], { min: [0, 0, 0], max: [10, 1, 1] }, tpu);
  assert.deepEqual(Array.from(d.field.density), [5, 5, 20, 35, 100]);
  assert.equal(d.clamped, 2);
  assert.deepEqual([d.field.nx, d.field.ny, d.field.nz, d.field.max[0]], [5, 1, 1, 10]);
  assert.throws(() => densityFieldOf(Float64Array.from([60]), [1, 1, 1], { min: [0, 0, 0], max: [1, 1, 1] }, getFilament('Generic_PETG')), /no Shore calibration table/);
});

test('workspace from-stl refuses what the service would refuse later: a wrong extension, a bad or repeated --pointcloud, absurd corners and priorities', async () => {
  const out = join(dir, 'refused.json');
  const run = (...extra: string[]) => main(['workspace', 'from-stl', CUBE_STL, '-o', out, ...extra]);
  assert.equal(await main(['workspace', 'from-stl', CUBE_STL, '-o', join(dir, 'w.txt')]), 2);
  assert.equal(await run('--pointcloud', ''), 2);
  assert.equal(await run('--pointcloud', 'a\nb.pcsv'), 2);
  assert.equal(await run('--pointcloud', '../soft.pcsv'), 2);
  assert.equal(await run('--pointcloud', 'a.pcsv', '--pointcloud', 'b.pcsv'), 2);
  assert.throws(() => parseModifierArg('BOX:0,0,0,1e308,10,10:1'), /corners must be within 100000 mm of the model/);
  assert.throws(() => parseModifierArg('BOX:0,0,0,10,10,10:1:99999999'), /priority must be a whole number from 1 to 1000000/);
  assert.equal(existsSync(out), false, 'nothing was written');
});
