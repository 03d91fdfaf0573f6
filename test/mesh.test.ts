import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseModel, parseModelParts, detectFormat, meshBounds } from '../src/engine/mesh/index.js';
import { SliceError } from '../src/engine/types.js';
import { box, soup, binaryStl, asciiStl, zip, rng, signedVolume, MODELS_DIR } from './mesh-fixtures.js';

const enc = (s: string) => new TextEncoder().encode(s);
const cube = box(0, 0, 0, 10, 10, 10);
const cubeTris = soup(cube);

function badModel(fn: () => unknown, pattern: RegExp): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof SliceError, `expected a SliceError, got ${String(e)}`);
    assert.equal(e.code, 'BAD_MODEL');
    assert.match(e.message, pattern);
    return true;
  });
}

test('binary STL cube: welded to 8 vertices and 12 triangles with outward winding', () => {
  const { mesh, warnings } = parseModel(binaryStl(cubeTris), 'cube.stl');
  assert.equal(mesh.indices.length, 36);
  assert.equal(mesh.positions.length, 24);
  assert.deepEqual(warnings, []);
  assert.deepEqual(meshBounds(mesh), { min: [0, 0, 0], max: [10, 10, 10] });
  assert.ok(Math.abs(signedVolume(mesh) - 1000) < 1e-9);
});

test('binary STL whose header starts with "solid" is still read as binary', () => {
  const bytes = binaryStl(cubeTris, 'solid cube exported by a CAD tool');
  assert.equal(detectFormat(bytes), 'stl-binary');
  assert.equal(parseModel(bytes, 'cube.stl').mesh.indices.length, 36);
});

test('binary STL with a wrong triangle count trusts the file size and warns', () => {
  for (const count of [0, 5, 0xffffffff]) {
    const { mesh, warnings } = parseModel(binaryStl(cubeTris, 'solid x', count), 'c.stl');
    assert.equal(mesh.indices.length, 36, `count ${count}`);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], new RegExp(`declares ${count} triangles but the file size holds 12`));
  }
  // a trailing partial record is ignored
  const extra = new Uint8Array(binaryStl(cubeTris).length + 20);
  extra.set(binaryStl(cubeTris));
  assert.equal(parseModel(extra, 'c.stl').mesh.indices.length, 36);
});

test('binary STL shorter than one triangle is reported as truncated', () => {
  badModel(() => parseModel(binaryStl(cubeTris).subarray(0, 120), 'c.stl'), /truncated binary STL/);
  badModel(() => parseModel(new Uint8Array(50).fill(1), 'c.stl'), /too short/);
  badModel(() => parseModel(binaryStl([]), 'c.stl'), /zero triangles/);
  // cut short after three empty records: the refusal says what the header declared
  const cut = new Uint8Array(84 + 3 * 50);
  new DataView(cut.buffer).setUint32(80, 1_000_000, true);
  badModel(
    () => parseModel(cut, 'c.stl'),
    /'c\.stl' has no triangles left after dropping 3 degenerate one\(s\) \(the file was read with a warning: c\.stl: binary STL header declares 1000000 triangles but the file size holds 3; read 3\)$/,
  );
});

test('ASCII STL: CRLF, tabs, no name, several solids', () => {
  const half = cubeTris.length / 2;
  const text = asciiStl(cubeTris.slice(0, half), '', '\r\n', '\t') + '\n\n' + asciiStl(cubeTris.slice(half), 'second', '\n', '    ');
  const bytes = enc(text.replace('solid ', 'solid'));
  assert.equal(detectFormat(bytes), 'stl-ascii');
  const { mesh } = parseModel(bytes, 'cube.stl');
  assert.equal(mesh.indices.length, 36);
  assert.equal(mesh.positions.length, 24);
});

test('ASCII STL with numbers in exponent form and upper-case keywords', () => {
  const text = asciiStl(cubeTris).replace(/vertex (\S+)/g, (_m, x: string) => `VERTEX ${Number(x).toExponential()}`);
  assert.deepEqual(meshBounds(parseModel(enc(text), 'c.stl').mesh), { min: [0, 0, 0], max: [10, 10, 10] });
});

test('ASCII STL errors name the problem', () => {
  badModel(() => parseModel(enc('solid empty\nendsolid empty\n'), 'e.stl'), /without any facets/);
  badModel(() => parseModel(enc(asciiStl(cubeTris).replace('vertex 10', 'vertex nan')), 'n.stl'), /'nan' on line \d+ is not a finite number/);
  badModel(() => parseModel(enc(asciiStl(cubeTris).replace('vertex 10', 'vertex 1e999')), 'n.stl'), /not a finite number/);
  // a byte that would not show (a NUL, a control character, a stray UTF-8 byte) is named by its code
  badModel(() => parseModel(enc(asciiStl(cubeTris).replace('vertex 10', 'vertex 1\u00000')), 'n.stl'), /'1\\x000' on line \d+ is not a finite number/);
  badModel(() => parseModel(enc('v 0 0 0\nv 1 0 0.5\u00ff\nv 0 1 0\nf 1 2 3\n'), 's.obj'), /OBJ: vertex coordinate '0\.5\\xc3\\xbf' on line 2/);
  const cut = asciiStl(cubeTris);
  badModel(() => parseModel(enc(cut.slice(0, cut.indexOf('vertex', 200) + 9)), 't.stl'), /the file ends in the middle of a vertex on line \d+ \(is it truncated\?\)/);
});

test('OBJ errors name the problem and the line', () => {
  badModel(() => parseModel(enc('v 0 0 0\nv 1 0\nv 0 1 0\nf 1 2 3\n'), 's.obj'), /OBJ: the vertex on line 2 has 2 coordinates, not 3/);
  badModel(() => parseModel(enc('v 0 0 0\nv 1 0 x\nv 0 1 0\nf 1 2 3\n'), 's.obj'), /OBJ: vertex coordinate 'x' on line 2 is not a finite number/);
  // faces that name no vertex: the first one's line and why
  badModel(() => parseModel(enc('v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 99\n'), 's.obj'), /without any usable face: 1 skipped, the first on line 4 \(it names vertex 99; the file has 3\)/);
  badModel(() => parseModel(enc('v 0 0 0\nv 1 0 0\nv 0 1 0\n# c\nf -1 -2 -9\n'), 's.obj'), /the first on line 5 \(an index that is no vertex number\)/);
  // a fractional or exponent index is no vertex number (`f 1.5 2 3` was read as vertex 1, silently)
  badModel(() => parseModel(enc('v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1.5 2 3\n'), 's.obj'), /the first on line 4 \(an index that is no vertex number\)/);
  const oneBad = parseModel(enc('v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nf 1e0 2 3\n'), 's.obj');
  assert.equal(oneBad.mesh.indices.length, 3);
  assert.match(oneBad.warnings.join(), /skipped 1 face/);
  // a forward reference to a vertex defined later is fine
  assert.equal(parseModel(enc('f 1 2 3\nv 0 0 0\nv 10 0 0\nv 0 10 0\n'), 'fwd.obj').mesh.indices.length, 3);
  assert.equal(parseModel(enc('v 0 0 0\nv 10 0 0\nv 0 10 0\nf 1/1/1 2//2 3/3\n'), 'slashes.obj').mesh.indices.length, 3);
});

test('empty, blank and unknown files', () => {
  badModel(() => parseModel(new Uint8Array(0), 'x.stl'), /empty file/);
  badModel(() => parseModel(enc(' \n\t\r\n'), 'x.stl'), /empty file/);
  badModel(() => parseModel(enc('hello, this is a text file\nnot a model\n'), 'x.stl'), /unknown model format/);
  badModel(() => parseModel(enc('\n  {"Models": []}'), 'w.json'), /unknown model format: this looks like JSON \(a Workspace file\?\)/);
});

test('binary STL with NaN or huge coordinates is refused', () => {
  const nan = cubeTris.slice();
  nan[4] = NaN;
  badModel(() => parseModel(binaryStl(nan), 'n.stl'), /NaN/);
  const inf = cubeTris.slice();
  inf[7] = -Infinity;
  badModel(() => parseModel(binaryStl(inf), 'i.stl'), /infinite/);
  const far = cubeTris.map((v) => v * 1e6);
  badModel(() => parseModel(binaryStl(far), 'f.stl'), /beyond ±1000000 mm/);
  // one corner of one triangle far out: its triangle turns degenerate in float arithmetic, and was
  // dropped as a repair with a warning
  for (const v of [1e20, 3e38, -1e9]) {
    const one = cubeTris.slice();
    one[3] = v;
    badModel(() => parseModel(binaryStl(one), 'one.stl'), /beyond ±1000000 mm \(a vertex at/);
  }
});

test('degenerate triangles are dropped and counted; none left is an error', () => {
  const tris = cubeTris.concat([1, 1, 1, 1, 1, 1, 5, 5, 5], [0, 0, 0, 1, 1, 1, 2, 2, 2]); // repeated corner, colinear
  const { mesh, warnings } = parseModel(binaryStl(tris), 'd.stl');
  assert.equal(mesh.indices.length, 36);
  assert.equal(mesh.positions.length, 24, 'vertices only the dropped triangles used are gone');
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /dropped 2 degenerate triangle\(s\) \(1 with repeated corners, 1 with zero area\)/);
  badModel(() => parseModel(binaryStl([0, 0, 0, 1, 1, 1, 2, 2, 2]), 'd.stl'), /no triangles left/);
});

test('OBJ: quads fanned, negative indices, v/vt/vn forms, comments', () => {
  const obj = [
    '# a cube', 'o cube', 'v 0 0 0', 'v 10 0 0', 'v 10 10 0', 'v 0 10 0',
    'v 0 0 10', 'v 10 0 10', 'v 10 10 10', 'v 0 10 10', 'vt 0 0', 'vn 0 0 1',
    'f 1 4 3 2', 'f 5/1 6/1 7/1 8/1', 'f 1//1 2//1 6//1 5//1', 'f -6/1/1 -5/1/1 -1/1/1 -2/1/1',
    'f 4 1 5 8', 'f 2 3 7 6', 'f 1 2 99',
  ].join('\r\n');
  const { mesh, warnings } = parseModel(enc(obj), 'cube.obj');
  assert.equal(mesh.indices.length, 36);
  assert.ok(Math.abs(signedVolume(mesh) - 1000) < 1e-9);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /skipped 1 face/);
});

test('a model under 1 mm across is taken to be in metres', () => {
  const obj = 'v 0 0 0\nv 0.02 0 0\nv 0 0.02 0\nv 0 0 0.02\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n';
  const { mesh, warnings } = parseModel(enc(obj), 'tet.obj');
  assert.deepEqual(meshBounds(mesh).max.map((v) => Math.round(v * 1e4) / 1e4), [20, 20, 20]);
  assert.match(warnings.join(), /assuming metres/);
});

const MODEL_NS = 'http://schemas.microsoft.com/3dmanufacturing/core/2015/02';
function model3mf(unit: string, objects: string, build: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<model unit="${unit}" xml:lang="en-US" xmlns="${MODEL_NS}">\n<!-- a comment <vertex x="9"/> -->\n<resources>${objects}</resources>\n<build>${build}</build>\n</model>`;
}
function meshObject(id: number, m: { positions: number[]; indices: number[] }): string {
  const v = [];
  for (let i = 0; i < m.positions.length; i += 3) v.push(`<vertex x="${m.positions[i]}" y="${m.positions[i + 1]}" z="${m.positions[i + 2]}" />`);
  const t = [];
  for (let i = 0; i < m.indices.length; i += 3) t.push(`<triangle v1="${m.indices[i]}" v2="${m.indices[i + 1]}" v3="${m.indices[i + 2]}"/>`);
  return `<object id="${id}" type="model"><mesh><vertices>${v.join('\n')}</vertices><triangles>${t.join('')}</triangles></mesh></object>`;
}
const RELS = `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Target="/3D/3dmodel.model" Id="rel0" Type="http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel"/></Relationships>`;

test('3MF: a model part cut short says so (it was "no object with triangles in the build")', () => {
  const xml = model3mf('millimeter', meshObject(1, cube), `<item objectid="1"/>`);
  const cut = xml.slice(0, xml.indexOf('<triangles>') + 40);
  badModel(() => parseModel(zip({ '_rels/.rels': RELS, '3D/3dmodel.model': cut }), 'cut.3mf'), /model part '\/3D\/3dmodel\.model' is cut short: its XML ends before <\/model>/);
});

test('3MF: unit, build transforms and components', () => {
  const xml = model3mf(
    'centimeter',
    meshObject(1, cube) + `<object id="2" type="model"><components><component objectid="1" transform="1 0 0 0 1 0 0 0 1 2 0 0"/></components></object>`,
    `<item objectid="1"/><item objectid="2" transform="1 0 0 0 1 0 0 0 1 0 0 3"/>`,
  );
  for (const store of [false, true]) {
    const { mesh, warnings } = parseModel(zip({ '[Content_Types].xml': '<Types/>', '_rels/.rels': RELS, '3D/3dmodel.model': xml }, store), 'two.3mf');
    assert.deepEqual(warnings, []);
    assert.equal(mesh.indices.length, 72, 'the cube twice');
    // cm → mm: the first cube spans 0..100 mm, the second is moved 20 mm in x and 30 mm in z
    assert.deepEqual(meshBounds(mesh), { min: [0, 0, 0], max: [120, 100, 130] });
  }
});

test('3MF plate: each build item is a part of its own (name, mesh, place kept); a one-item file is one part', () => {
  const named = meshObject(1, cube).replace('<object id="1" type="model">', '<object id="1" type="model" name="left leg">');
  const xml = model3mf(
    'millimeter',
    named + `<object id="2" type="model"><components><component objectid="1" transform="1 0 0 0 1 0 0 0 1 0 0 0"/></components></object>`,
    `<item objectid="1"/><item objectid="2" transform="1 0 0 0 1 0 0 0 1 30 0 0"/>`,
  );
  const { parts, warnings } = parseModelParts(zip({ '_rels/.rels': RELS, '3D/3dmodel.model': xml }), 'plate.3mf');
  assert.deepEqual(warnings, []);
  assert.deepEqual(parts.map((p) => p.name), ['plate.3mf: left leg', 'plate.3mf #2']);
  assert.deepEqual(parts.map((p) => p.mesh.indices.length), [36, 36]);
  assert.deepEqual(parts.map((p) => meshBounds(p.mesh)), [
    { min: [0, 0, 0], max: [10, 10, 10] },
    { min: [30, 0, 0], max: [40, 10, 10] },
  ]);
  // an item of nothing but zero-area triangles is left out with a warning, not the whole plate refused
  const flat = `<object id="3" type="model" name="sliver"><mesh><vertices><vertex x="0" y="0" z="0"/><vertex x="1" y="0" z="0"/><vertex x="2" y="0" z="0"/></vertices><triangles><triangle v1="0" v2="1" v3="2"/></triangles></mesh></object>`;
  const withFlat = model3mf('millimeter', named + flat, `<item objectid="1"/><item objectid="3" transform="1 0 0 0 1 0 0 0 1 50 0 0"/>`);
  const kept = parseModelParts(zip({ '3D/3dmodel.model': withFlat }), 'plate.3mf');
  assert.deepEqual(kept.parts.map((p) => p.name), ['plate.3mf: left leg']);
  assert.match(kept.warnings.join(), /plate\.3mf: sliver: left out/);
  const single = parseModelParts(zip({ '3D/3dmodel.model': model3mf('millimeter', meshObject(1, cube), '<item objectid="1"/>') }), 'one.3mf');
  assert.deepEqual(single.parts.map((p) => [p.name, p.mesh.indices.length]), [['one.3mf', 36]]);
  assert.deepEqual(parseModelParts(enc(asciiStl(soup(box(0, 0, 0, 5, 5, 5)))), 'a.stl').parts.map((p) => p.name), ['a.stl']);
});

test('3MF errors: no model part, missing object, bad index, damaged archive', () => {
  badModel(() => parseModel(zip({ 'readme.txt': 'hi' }), 'x.3mf'), /3MF without a model/);
  const missing = model3mf('millimeter', meshObject(1, cube), '<item objectid="7"/>');
  badModel(() => parseModel(zip({ '3D/3dmodel.model': missing }), 'x.3mf'), /object 7, which does not exist/);
  const badIndex = model3mf('millimeter', meshObject(1, { positions: cube.positions, indices: [0, 1, 8] }), '<item objectid="1"/>');
  badModel(() => parseModel(zip({ '3D/3dmodel.model': badIndex }), 'x.3mf'), /vertex index '8'/);
  const good = zip({ '3D/3dmodel.model': model3mf('millimeter', meshObject(1, cube), '<item objectid="1"/>') });
  badModel(() => parseModel(good.subarray(0, good.length - 30), 'x.3mf'), /corrupt 3MF\/zip archive/);
  const scrambled = good.slice();
  for (let i = 40; i < 80; i++) scrambled[i] ^= 0x5a; // inside the deflated model
  badModel(() => parseModel(scrambled, 'x.3mf'), /3MF|corrupt|finite|object|vertex|triangles/);
});

test('a 3MF entry whose declared size is wrong either way still reads whole (the inflate sizes its output by it)', () => {
  const xml = model3mf('millimeter', meshObject(1, cube), '<item objectid="1"/>');
  const right = zip({ '3D/3dmodel.model': xml });
  const expected = parseModel(right, 'right.3mf').mesh;
  for (const declared of [0, 5, xml.length - 1, xml.length + 1, 10 << 20, 60 << 20]) {
    const wrong = right.slice();
    const view = new DataView(wrong.buffer);
    view.setUint32(22, declared, true);
    const central = wrong.length - 22 - (46 + '3D/3dmodel.model'.length);
    assert.equal(view.getUint32(central, true), 0x02014b50);
    view.setUint32(central + 24, declared, true);
    const { mesh } = parseModel(wrong, 'wrong.3mf');
    assert.deepEqual(Array.from(mesh.indices), Array.from(expected.indices), `declared ${declared}`);
    assert.deepEqual(Array.from(mesh.positions), Array.from(expected.positions), `declared ${declared}`);
  }
});

test('3MF zip bombs are refused before they are inflated whole, whatever size the archive declares', () => {
  // 80 MiB of XML whitespace packs to ~80 KiB: past 64 MiB an entry may not grow over 64× its packed size
  const filler = new Uint8Array(80 << 20).fill(0x20);
  const head = new TextEncoder().encode(model3mf('millimeter', meshObject(1, cube), '<item objectid="1"/>'));
  const body = new Uint8Array(head.length + filler.length);
  body.set(head);
  body.set(filler, head.length);
  const bomb = zip({ '3D/3dmodel.model': body });
  badModel(() => parseModel(bomb, 'bomb.3mf'), /'3D\/3dmodel.model' inflates to more than 64 MiB from 0\.\d\d MiB: refused as a likely zip bomb/);
  // the same archive declaring a small size in both headers: inflating stops at the limit
  const lying = bomb.slice();
  const view = new DataView(lying.buffer);
  view.setUint32(22, 1000, true);
  const central = lying.length - 22 - (46 + '3D/3dmodel.model'.length);
  assert.equal(view.getUint32(central, true), 0x02014b50);
  view.setUint32(central + 24, 1000, true);
  badModel(() => parseModel(lying, 'bomb.3mf'), /refused as a likely zip bomb/);
  // below 64 MiB any ratio is taken: the same model with 8 MiB of whitespace reads
  const xml = new TextDecoder().decode(head);
  const cut = xml.indexOf('<model');
  const spaced = new TextEncoder().encode(xml.slice(0, cut) + ' '.repeat(8 << 20) + xml.slice(cut));
  assert.equal(parseModel(zip({ '3D/3dmodel.model': spaced }), 'spaced.3mf').mesh.indices.length, 36);
});

test('3MF component bombs: 15 levels of 10 components are refused at once; a unit named like a prototype key is unknown', () => {
  // a 5 KB file that would place 10^15 empty objects: it tied a slicing worker up until the task timeout
  let objects = '<object id="0" type="model"><mesh><vertices></vertices><triangles></triangles></mesh></object>';
  for (let k = 1; k <= 15; k++) objects += `<object id="${k}" type="model"><components>${`<component objectid="${k - 1}"/>`.repeat(10)}</components></object>`;
  const started = performance.now();
  badModel(() => parseModel(zip({ '3D/3dmodel.model': model3mf('millimeter', objects, '<item objectid="15"/>') }), 'bomb.3mf'), /places more than 100,000 objects/);
  assert.ok(performance.now() - started < 5000);
  // a fan-out that stays within the bound still reads: 3 levels of 10 cubes, 1,000 cubes (all in one
  // place, so welding leaves one)
  let fan = meshObject(0, cube);
  for (let k = 1; k <= 3; k++) fan += `<object id="${k}" type="model"><components>${`<component objectid="${k - 1}"/>`.repeat(10)}</components></object>`;
  const fanned = parseModel(zip({ '3D/3dmodel.model': model3mf('millimeter', fan, '<item objectid="3"/>') }), 'fan.3mf');
  assert.equal(fanned.mesh.indices.length, 36);
  assert.match(fanned.warnings.join(), /dropped 11988 duplicate triangle\(s\)/);
  for (const unit of ['constructor', 'toString', '__proto__']) {
    const { mesh, warnings } = parseModel(zip({ '3D/3dmodel.model': model3mf(unit, meshObject(1, cube), '<item objectid="1"/>') }), 'u.3mf');
    assert.match(warnings.join(), /unknown unit .* millimetres assumed/, unit);
    assert.ok(Array.from(mesh.positions).every(Number.isFinite), unit);
  }
});

test('hostile input: random bytes, truncations and huge counts never crash or hang', () => {
  const objText = 'v 0 0 0\nv 10 0 0\nv 0 10 0\nv 0 0 10\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n';
  const samples: Uint8Array[] = [
    binaryStl(cubeTris),
    enc(asciiStl(cubeTris)),
    enc(objText),
    zip({ '_rels/.rels': RELS, '3D/3dmodel.model': model3mf('millimeter', meshObject(1, cube), '<item objectid="1"/>') }),
  ];
  const random = rng(7);
  for (let k = 0; k < 40; k++) {
    const b = new Uint8Array(Math.floor(random() * 3000));
    for (let i = 0; i < b.length; i++) b[i] = random() * 256;
    if (k % 4 === 0 && b.length > 4) b.set([0x50, 0x4b, 3, 4]); // pretend to be a zip
    if (k % 4 === 1) b.set(enc('solid ').subarray(0, b.length));
    samples.push(b);
  }
  const t0 = performance.now();
  let parsed = 0;
  let refused = 0;
  for (const full of samples.slice(0, 4)) {
    for (let n = 0; n < full.length; n += 37) samples.push(full.slice(0, n));
    // flip bytes in the middle too
    const flipped = full.slice();
    for (let i = 0; i < flipped.length; i += 53) flipped[i] ^= 0xff;
    samples.push(flipped);
  }
  for (const s of samples) {
    try {
      const { mesh } = parseModel(s, 'fuzz');
      assert.ok(mesh.indices.length > 0 && mesh.indices.length % 3 === 0);
      assert.ok(mesh.indices.every((v) => v < mesh.positions.length / 3));
      assert.ok(mesh.positions.every(Number.isFinite));
      parsed++;
    } catch (e) {
      assert.ok(e instanceof SliceError, `fuzz input of ${s.length} bytes threw ${String(e)}`);
      refused++;
    }
  }
  assert.ok(parsed > 10 && refused > 10, `${parsed} parsed, ${refused} refused`);
  // a hang guard only (generous: the machine may be shared), not a speed goal
  assert.ok(performance.now() - t0 < 60_000, 'fuzzing hung');
  // a header claiming four billion triangles over a short body reads what is there
  const huge = binaryStl(cubeTris, 'x', 0xffffffff);
  assert.equal(parseModel(huge, 'h.stl').mesh.indices.length, 36);
});

test('shared models: 3DBenchy STL and 3MF agree; the bunny OBJ comes in metres', { skip: !MODELS_DIR }, () => {
  const read = (f: string) => new Uint8Array(readFileSync(path.join(MODELS_DIR!, f)));
  const benchy = read('3dbenchy.stl');
  const t0 = performance.now();
  const stl = parseModel(benchy, '3dbenchy.stl');
  const ms = performance.now() - t0;
  // 225,154 triangles in the file; 8 collapse when welded and a few are flat
  const tris = stl.mesh.indices.length / 3;
  assert.ok(tris > 225_100 && tris <= 225_146, `${tris} triangles`);
  assert.match(stl.warnings.join(), /8 with repeated corners/);
  const b = meshBounds(stl.mesh);
  assert.ok(Math.abs(b.max[0] - b.min[0] - 60) < 0.1 && Math.abs(b.max[2] - b.min[2] - 48) < 0.1);
  const mf = parseModel(read('3dbenchy.3mf'), '3dbenchy.3mf');
  assert.equal(mf.mesh.indices.length, stl.mesh.indices.length);
  assert.deepEqual(meshBounds(mf.mesh), b);
  const bunny = parseModel(read('stanford_bunny.obj'), 'stanford_bunny.obj');
  const bb = meshBounds(bunny.mesh);
  assert.ok(Math.abs(bb.max[0] - bb.min[0] - 155.7) < 1, 'bunny scaled from metres');
  assert.match(bunny.warnings.join(), /assuming metres/);
  console.log(`3DBenchy binary STL parsed + welded in ${ms.toFixed(0)} ms (in a process that has already parsed other files)`);
});
