// A 3MF places its objects through build items and components (nested): every placement copies the
// object's vertices. Only the vertices the object's triangles use are copied, so what a file can make
// the reader hold is bounded by the triangles it prints: a 14 KB file of a cube with 200,000 unused
// vertices, placed 10,000 times, made the reader allocate gigabytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseModel } from '../src/engine/mesh/index.js';
import { readThreeMf } from '../src/engine/mesh/threemf.js';
import { binaryStl, box, soup, zip } from './mesh-fixtures.js';

const cube = box(0, 0, 0, 10, 10, 10);

/**
 * A 3MF of object 1 (the cube, its vertex list padded with `unused` vertices no triangle uses), placed
 * fan^levels times through `levels` nested objects of `fan` components each, all in the same place.
 */
function amplifiedXml(unused: number, levels: number, fan: number): string {
  const v = [];
  for (let i = 0; i < cube.positions.length; i += 3) v.push(`<vertex x="${cube.positions[i]}" y="${cube.positions[i + 1]}" z="${cube.positions[i + 2]}"/>`);
  const t = [];
  for (let i = 0; i < cube.indices.length; i += 3) t.push(`<triangle v1="${cube.indices[i]}" v2="${cube.indices[i + 1]}" v3="${cube.indices[i + 2]}"/>`);
  let objects = `<object id="1" type="model"><mesh><vertices>${v.join('')}${'<vertex x="1" y="1" z="1"/>'.repeat(unused)}</vertices><triangles>${t.join('')}</triangles></mesh></object>`;
  for (let k = 2; k <= levels + 1; k++) objects += `<object id="${k}" type="model"><components>${`<component objectid="${k - 1}"/>`.repeat(fan)}</components></object>`;
  return `<?xml version="1.0"?><model unit="millimeter" xmlns="http://schemas.microsoft.com/3dmanufacturing/core/2015/02"><resources>${objects}</resources><build><item objectid="${levels + 1}"/></build></model>`;
}
const amplified = (unused: number, levels: number, fan: number) => zip({ '3D/3dmodel.model': amplifiedXml(unused, levels, fan) });

test('3MF: a placement copies only the vertices its triangles use, however many the object lists', () => {
  // 20,000 unused vertices placed 1,000 times: 20 million vertices before, 8,000 now
  const bytes = amplified(20_000, 3, 10);
  assert.ok(bytes.length < 20_000, `${bytes.length} bytes`);
  const raw = readThreeMf(bytes);
  assert.equal(raw.indices!.length, 36 * 1000);
  assert.equal(raw.positions.length, 3 * 8 * 1000);
  // the cubes all lie in one place: welding leaves one
  const { mesh, warnings } = parseModel(bytes, 'amp.3mf');
  assert.equal(mesh.indices.length, 36);
  assert.equal(mesh.positions.length, 24);
  assert.match(warnings.join(), /amp\.3mf: dropped 11988 duplicate triangle\(s\)/);
});

test('3MF: a bad vertex index is still refused, naming it, when the object is placed many times', () => {
  const xml = amplifiedXml(10, 2, 10).replace('v3="3"/>', 'v3="18"/>');
  assert.match(xml, /v3="18"/);
  assert.throws(() => parseModel(zip({ '3D/3dmodel.model': xml }), 'bad.3mf'), /object 1 has a triangle with vertex index '18' \(the object has 18 vertices\)/);
});

test('stratum slice: an amplified 3MF slices as the one cube it prints, in bounded memory', () => {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const work = mkdtempSync(join(tmpdir(), 'stratum-3mf-amp-'));
  try {
    writeFileSync(join(work, 'amp.3mf'), amplified(50_000, 4, 10)); // 10,000 placements
    writeFileSync(join(work, 'one.stl'), binaryStl(soup(cube)));
    const run = (model: string) =>
      spawnSync(process.execPath, [join(root, 'bin', 'stratum.js'), 'slice', model, '-o', model + '.gcode', '--quiet'], { cwd: work, encoding: 'utf8', timeout: 60_000 });
    const amp = run('amp.3mf');
    assert.equal(amp.status, 0, amp.stderr);
    assert.match(amp.stderr, /warning: amp\.3mf: dropped 119988 duplicate triangle\(s\)/);
    assert.equal(run('one.stl').status, 0);
    const named = (f: string) => readFileSync(join(work, f), 'utf8').replace(/^;MESH:.*$/gm, ';MESH:');
    assert.equal(named('amp.3mf.gcode'), named('one.stl.gcode'));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
