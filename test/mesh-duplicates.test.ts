// Duplicate triangles (the same three welded vertices) are dropped when the mesh is welded: copies
// wound alike count once, copies wound opposite ways cancel in pairs. Stacked copies of a shell
// made slicing quadratic (4,000 cubes: 47 s).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseModel, parseModelParts } from '../src/engine/mesh/index.js';
import { SliceError } from '../src/engine/types.js';
import { binaryStl, box, signedVolume, soup, zip, type TestMesh } from './mesh-fixtures.js';

const cube = box(0, 0, 0, 10, 10, 10);
/** The same triangles wound the other way. */
const inverted = (m: TestMesh): TestMesh => ({ positions: m.positions, indices: m.indices.map((_, i, a) => a[i - (i % 3) + [0, 2, 1][i % 3]]) });
/** The same triangles, each starting at its second corner (same winding). */
const rotated = (m: TestMesh): TestMesh => ({ positions: m.positions, indices: m.indices.map((_, i, a) => a[i - (i % 3) + [1, 2, 0][i % 3]]) });
const parse = (...shells: TestMesh[]) => parseModel(binaryStl(shells.flatMap(soup)), 'd.stl');

/** Every edge of the mesh is used by exactly two triangles. */
function closedManifold(mesh: { indices: Uint32Array }): boolean {
  const uses = new Map<string, number>();
  const t = mesh.indices;
  for (let i = 0; i < t.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      const a = t[i + k], b = t[i + ((k + 1) % 3)];
      const key = a < b ? `${a},${b}` : `${b},${a}`;
      uses.set(key, (uses.get(key) ?? 0) + 1);
    }
  }
  return [...uses.values()].every((n) => n === 2);
}

test('copies of a shell wound alike count once, in any corner order', () => {
  const { mesh, warnings } = parse(cube, cube, rotated(cube));
  assert.equal(mesh.indices.length, 36);
  assert.equal(mesh.positions.length, 24);
  assert.ok(Math.abs(signedVolume(mesh) - 1000) < 1e-9);
  assert.deepEqual(warnings, ['d.stl: dropped 24 duplicate triangle(s) (the same corners as another)']);
  // the single shell reads with no warning, as before
  assert.deepEqual(parse(cube).warnings, []);
});

test('copies wound opposite ways cancel in pairs; the rest keep the majority winding', () => {
  // a shell and its inside-out copy enclose nothing
  assert.throws(
    () => parse(cube, inverted(cube)),
    (e: unknown) =>
      e instanceof SliceError &&
      e.code === 'BAD_MODEL' &&
      e.message === "'d.stl' has no triangles left after dropping 24 duplicate triangle(s) (the same corners as another wound the other way: they cancel in pairs)",
  );
  const twoToOne = parse(cube, inverted(cube), cube);
  assert.equal(twoToOne.mesh.indices.length, 36);
  assert.ok(Math.abs(signedVolume(twoToOne.mesh) - 1000) < 1e-9, 'wound as the two');
  assert.deepEqual(twoToOne.warnings, ['d.stl: dropped 24 duplicate triangle(s) (the same corners as another wound the other way: they cancel in pairs)']);
  const threeToOne = parse(cube, cube, inverted(cube), cube);
  assert.ok(Math.abs(signedVolume(threeToOne.mesh) - 1000) < 1e-9);
  assert.deepEqual(threeToOne.warnings, ['d.stl: dropped 36 duplicate triangle(s) (the same corners as another: 12 repeating one, 24 cancelling in pairs, wound opposite ways)']);
  const oneToTwo = parse(inverted(cube), cube, inverted(cube));
  assert.ok(Math.abs(signedVolume(oneToTwo.mesh) + 1000) < 1e-9, 'inside out, as the two');
});

test('a 3MF plate: an object that cancels out is left out, saying why; all of them cancelling is refused', () => {
  const object = (id: number, m: TestMesh) =>
    `<object id="${id}" type="model"><mesh><vertices>${m.positions.map((_, i) => (i % 3 ? '' : `<vertex x="${m.positions[i]}" y="${m.positions[i + 1]}" z="${m.positions[i + 2]}"/>`)).join('')}</vertices>` +
    `<triangles>${m.indices.map((_, i) => (i % 3 ? '' : `<triangle v1="${m.indices[i]}" v2="${m.indices[i + 1]}" v3="${m.indices[i + 2]}"/>`)).join('')}</triangles></mesh></object>`;
  const both: TestMesh = { positions: [...cube.positions, ...cube.positions], indices: [...cube.indices, ...inverted(cube).indices.map((v) => v + 8)] };
  const plate = (items: string) => zip({ '3D/3dmodel.model': `<model unit="millimeter"><resources>${object(1, cube)}${object(2, both)}</resources><build>${items}</build></model>` });
  const one = parseModelParts(plate('<item objectid="1"/><item objectid="2" transform="1 0 0 0 1 0 0 0 1 30 0 0"/>'), 'p.3mf');
  assert.deepEqual(one.parts.map((p) => p.name), ['p.3mf #1']);
  assert.deepEqual(one.warnings, ['p.3mf #2: left out, no triangles left after dropping 24 duplicate triangle(s) (the same corners as another wound the other way: they cancel in pairs)']);
  assert.throws(
    () => parseModelParts(plate('<item objectid="2"/><item objectid="2" transform="1 0 0 0 1 0 0 0 1 30 0 0"/>'), 'p.3mf'),
    /^SliceError: 'p\.3mf' has no triangles left in any of its 2 objects \(the file was read with warnings: p\.3mf #1: left out, no triangles left after dropping 24 duplicate/,
  );
});

test('two boxes that share a face: the face, in both with opposite windings, cancels and leaves one closed box', () => {
  const left = box(0, 0, 0, 10, 10, 10);
  const right = box(10, 0, 0, 20, 10, 10);
  // the right box's face at x = 10 (its triangles 8 and 9) made of the left box's face there (10 and 11), wound the other way
  const face = (m: TestMesh, t: number) => m.indices.slice(3 * t, 3 * t + 3).flatMap((v) => m.positions.slice(3 * v, 3 * v + 3));
  const inward = (tri: number[]) => [...tri.slice(0, 3), ...tri.slice(6, 9), ...tri.slice(3, 6)];
  const rightTris = [0, 1, 2, 3, 4, 5, 6, 7, 10, 11].flatMap((t) => face(right, t));
  const shared = [...inward(face(left, 10)), ...inward(face(left, 11))];
  const { mesh, warnings } = parseModel(binaryStl([...soup(left), ...rightTris, ...shared]), 'd.stl');
  assert.equal(mesh.indices.length / 3, 20);
  assert.ok(closedManifold(mesh));
  assert.ok(Math.abs(signedVolume(mesh) - 2000) < 1e-9);
  assert.deepEqual(warnings, ['d.stl: dropped 4 duplicate triangle(s) (the same corners as another wound the other way: they cancel in pairs)']);
});

test('stratum slice: a shell stacked 50 times gives the G-code of the single shell, and says what it dropped', () => {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const work = mkdtempSync(join(tmpdir(), 'stratum-dup-'));
  try {
    const shell = box(0, 0, 0, 20, 20, 10);
    writeFileSync(join(work, 'one.stl'), binaryStl(soup(shell)));
    writeFileSync(join(work, 'fifty.stl'), binaryStl(Array.from({ length: 50 }, (_, k) => soup(k % 2 ? rotated(shell) : shell)).flat()));
    const run = (model: string) =>
      spawnSync(process.execPath, [join(root, 'bin', 'stratum.js'), 'slice', model, '-o', model + '.gcode', '--quiet'], { cwd: work, encoding: 'utf8', timeout: 60_000 });
    const one = run('one.stl');
    assert.equal(one.status, 0, one.stderr);
    assert.equal(one.stderr, '');
    const fifty = run('fifty.stl');
    assert.equal(fifty.status, 0, fifty.stderr);
    assert.equal(fifty.stderr, 'warning: fifty.stl: dropped 588 duplicate triangle(s) (the same corners as another)\n');
    const named = (f: string) => readFileSync(join(work, f), 'utf8').replace(/^;MESH:.*$/gm, ';MESH:');
    assert.equal(named('fifty.stl.gcode'), named('one.stl.gcode'));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

test('a cone of 5,000 sides (one vertex on every side triangle): no duplicate found where there is none; one copy of a side, or of a base triangle, is found and dropped', () => {
  // the apex is the lowest-numbered vertex of all 5,000 side triangles, so their group is sorted
  // rather than compared pair by pair; the base's centre is numbered last (welding numbers vertices
  // as they first appear), so its triangles fall into groups of one or two, compared pair by pair
  const n = 5000;
  const positions = [0, 0, 10, 0, 0, 0];
  for (let k = 0; k < n; k++) positions.push(10 * Math.cos((2 * Math.PI * k) / n), 10 * Math.sin((2 * Math.PI * k) / n), 0);
  const ring = (k: number) => 2 + (k % n);
  const indices: number[] = [];
  for (let k = 0; k < n; k++) indices.push(0, ring(k), ring(k + 1)); // sides, outwards
  for (let k = 0; k < n; k++) indices.push(1, ring(k + 1), ring(k)); // base, downwards
  const cone: TestMesh = { positions, indices };
  const plain = parse(cone);
  assert.equal(plain.mesh.indices.length, 3 * 2 * n);
  assert.deepEqual(plain.warnings, []);
  const withSide: TestMesh = { positions, indices: [...indices, 0, ring(1234), ring(1235)] };
  const withBase: TestMesh = { positions, indices: [...indices, 1, ring(8), ring(7)] };
  for (const m of [withSide, withBase]) {
    const r = parse(m);
    assert.equal(r.mesh.indices.length, 3 * 2 * n);
    assert.deepEqual(r.warnings, ['d.stl: dropped 1 duplicate triangle(s) (the same corners as another)']);
  }
});
