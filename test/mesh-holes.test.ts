// An open mesh's holes (src/engine/layers/holes.ts): its boundary edges found with typed arrays, as a
// count per edge finds them, and grouped into holes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boundaryEdges, MeshHoles } from '../src/engine/layers/holes.js';
import { box, merge, rng } from './mesh-fixtures.js';

/** The reference: every edge counted in a map, those used once kept, in key order. */
function countedBoundary(indices: Uint32Array, nV: number): number[] {
  const uses = new Map<number, number>();
  for (let t = 0; t < indices.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const a = indices[t + k];
      const b = indices[t + ((k + 1) % 3)];
      const key = Math.min(a, b) * nV + Math.max(a, b);
      uses.set(key, (uses.get(key) ?? 0) + 1);
    }
  }
  return [...uses].filter(([, n]) => n === 1).map(([key]) => key).sort((x, y) => x - y);
}

const sorted = (keys: number[]) => [...keys].sort((x, y) => x - y);

test('a closed box has no boundary edge; without one triangle, its three edges', () => {
  const b = box(0, 0, 0, 10, 10, 10);
  const closed = Uint32Array.from(b.indices);
  assert.deepEqual(boundaryEdges(closed, 8), []);
  const open = closed.slice(3); // the first bottom triangle: 0, 2, 3
  assert.deepEqual(sorted(boundaryEdges(open, 8)), [0 * 8 + 2, 0 * 8 + 3, 2 * 8 + 3]);
  const holes = new MeshHoles(open);
  assert.ok(holes.holeOf(0, 2) >= 0);
  assert.equal(holes.holeOf(0, 2), holes.holeOf(2, 3));
  assert.equal(holes.holeOf(0, 2), holes.holeOf(0, 3));
  assert.equal(holes.holeOf(4, 5), -1, 'an edge of two triangles is on no hole');
});

test('two holes get two ids; the edges of a triangle given twice are on no hole', () => {
  const m = merge(box(0, 0, 0, 10, 10, 10), box(20, 0, 0, 30, 10, 10));
  const all = Uint32Array.from(m.indices);
  // drop the first triangle of each box's bottom, and add a duplicate of one side triangle
  const kept = [...all.slice(3, 36), ...all.slice(39), ...all.slice(6, 9)];
  const indices = Uint32Array.from(kept);
  assert.deepEqual(sorted(boundaryEdges(indices, 16)), countedBoundary(indices, 16));
  const holes = new MeshHoles(indices);
  const first = holes.holeOf(0, 2);
  const second = holes.holeOf(8, 10);
  assert.ok(first >= 0 && second >= 0);
  assert.notEqual(first, second);
  // the duplicate is the top's first triangle, 4 5 7: its edges now have three uses
  for (const [a, b] of [[4, 5], [5, 7], [4, 7]]) assert.equal(holes.holeOf(a!, b!), -1);
});

test('random triangle soups and a large grid: the same boundary as counting every edge', () => {
  const r = rng(7);
  for (let round = 0; round < 20; round++) {
    const nV = 5 + Math.floor(r() * 60);
    const nT = 1 + Math.floor(r() * 200);
    const indices = Uint32Array.from({ length: 3 * nT }, () => Math.floor(r() * nV));
    assert.deepEqual(sorted(boundaryEdges(indices, nV)), countedBoundary(indices, nV), `round ${round}`);
  }
  // a 300 × 300 grid of quads with every 7th quad missing: 160,000 triangles
  const n = 301;
  const grid: number[] = [];
  for (let y = 0; y < n - 1; y++) {
    for (let x = 0; x < n - 1; x++) {
      if ((y * (n - 1) + x) % 7 === 3) continue;
      const v = y * n + x;
      grid.push(v, v + 1, v + n + 1, v, v + n + 1, v + n);
    }
  }
  const indices = Uint32Array.from(grid);
  assert.deepEqual(sorted(boundaryEdges(indices, n * n)), countedBoundary(indices, n * n));
});
