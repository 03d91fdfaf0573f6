import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initGeometry, offset, islands, clipLines, union, unionWith, difference, simplify, readsResultsInPlace } from '../src/engine/geom/clipper.js';

const square = (x: number, y: number, s: number) => [x, y, x + s, y, x + s, y + s, x, y + s];
const area = (p: number[]) => {
  let a = 0;
  for (let i = 0; i < p.length; i += 2) {
    const j = (i + 2) % p.length;
    a += p[i] * p[j + 1] - p[j] * p[i + 1];
  }
  return a / 2;
};

test('offset shrinks a 20 mm square by 0.2 mm on each side', async () => {
  await initGeometry();
  const out = offset([square(0, 0, 20000)], -200);
  assert.equal(out.length, 1);
  assert.equal(area(out[0]), 19600 * 19600);
});

test('islands pairs an outer contour with its hole and keeps separate parts apart', async () => {
  await initGeometry();
  const hole = [5000, 5000, 5000, 15000, 15000, 15000, 15000, 5000];
  const isl = islands([square(0, 0, 20000), hole, square(30000, 0, 5000)]);
  assert.equal(isl.length, 2);
  const big = isl.find((i) => i.length === 2)!;
  assert.ok(area(big[0]) > 0 && area(big[1]) < 0, 'outer CCW, hole CW');
});

test('clipLines keeps only the parts of a line inside an area with a hole', async () => {
  await initGeometry();
  const hole = [5000, 5000, 5000, 15000, 15000, 15000, 15000, 5000];
  const parts = clipLines([[-1000, 10000, 30000, 10000]], [square(0, 0, 20000), hole]);
  const len = parts.reduce((s, p) => s + Math.abs(p[2] - p[0]), 0);
  assert.equal(parts.length, 2);
  assert.equal(len, 10000);
});

test('union merges overlapping squares', async () => {
  await initGeometry();
  const u = union([square(0, 0, 10000), square(5000, 0, 10000)]);
  assert.equal(u.length, 1);
  assert.equal(area(u[0]), 15000 * 10000);
});

test('results are read straight from WASM memory, and stay right when that memory grows', async () => {
  await initGeometry();
  assert.equal(readsResultsInPlace(), true, 'the PathsD layout check failed: results go through embind handles');
  // 4000 separate squares of varying size, then one 200k-point polygon that makes the WASM heap grow
  const squares = Array.from({ length: 4000 }, (_, i) => square((i % 80) * 3000, Math.floor(i / 80) * 3000, 1000 + (i % 7) * 100));
  const shrunk = offset(squares, -100);
  assert.equal(shrunk.length, 4000);
  const expected = squares.reduce((a, _, i) => a + (800 + (i % 7) * 100) ** 2, 0);
  assert.equal(shrunk.reduce((a, p) => a + area(p), 0), expected);
  const n = 700_000; // 17 MB of points in WASM memory: more than its initial 16 MB
  const zigzag: number[] = [];
  for (let i = 0; i < n; i++) zigzag.push(i * 10, i % 2 === 0 ? 0 : 7);
  zigzag.push(n * 10, 1_000_000, 0, 1_000_000);
  const big = simplify([zigzag], 1, true);
  assert.equal(big.length, 1);
  assert.deepEqual(big[0].slice(-4), [n * 10, 1_000_000, 0, 1_000_000]);
  // and a small result after the growth is still read from the right place
  assert.deepEqual(offset([square(0, 0, 20000)], -200).map(area), [19600 * 19600]);
});

test('the reused input vectors carry nothing over from one call to the next', async () => {
  await initGeometry();
  // many subjects and clips first, then calls with fewer: leftovers would show as extra area or paths
  const many = Array.from({ length: 50 }, (_, i) => square(i * 3000, 0, 2000));
  assert.equal(difference(many, [square(0, 0, 150000)]).length, 0);
  assert.equal(unionWith(many, [square(0, 10000, 1000)]).length, 51);
  assert.deepEqual(difference([square(0, 0, 10000)], [square(5000, 0, 10000)]).map(area), [5000 * 10000]);
  assert.deepEqual(unionWith([square(0, 0, 1000)], []).map(area), [1000 * 1000]);
  assert.equal(clipLines([[-1000, 500, 5000, 500]], [square(0, 0, 1000)]).length, 1);
  assert.deepEqual(offset([square(0, 0, 1000)], -100).map(area), [800 * 800]);
  assert.equal(islands([square(0, 0, 1000)]).length, 1);
});
