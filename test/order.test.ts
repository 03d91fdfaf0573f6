import { test } from 'node:test';
import assert from 'node:assert/strict';
import { orderNearest, visitEnd } from '../src/engine/plan/order.js';
import type { ExtrusionPath } from '../src/engine/types.js';
import { rng } from './mesh-fixtures.js';

/** The rule orderNearest promises, written the plain way: nearest end, ties to the path listed first, then to its start. */
function referenceOrder(paths: ExtrusionPath[], x: number, y: number): string[] {
  const left = paths.map((p, i) => i);
  const out: string[] = [];
  while (left.length) {
    let best = -1, bestD = Infinity, bestRev = false;
    for (const i of [...left].sort((a, b) => a - b)) {
      const p = paths[i].points, k = p.length;
      const d0 = (p[0] - x) ** 2 + (p[1] - y) ** 2;
      const d1 = paths[i].closed ? Infinity : (p[k - 2] - x) ** 2 + (p[k - 1] - y) ** 2;
      if (d0 < bestD) [best, bestD, bestRev] = [i, d0, false];
      if (d1 < bestD) [best, bestD, bestRev] = [i, d1, true];
    }
    left.splice(left.indexOf(best), 1);
    const p = paths[best].points, k = p.length;
    out.push(`${best}${bestRev ? 'r' : ''}`);
    if (paths[best].closed) {
      // a closed path starts and ends at its vertex nearest the nozzle
      let bv = 0, bd = Infinity;
      for (let v = 0; v < k; v += 2) {
        const d = (p[v] - x) ** 2 + (p[v + 1] - y) ** 2;
        if (d < bd) [bv, bd] = [v, d];
      }
      [x, y] = [p[bv], p[bv + 1]];
    } else [x, y] = bestRev ? [p[0], p[1]] : [p[k - 2], p[k - 1]];
  }
  return out;
}

function randomPaths(n: number, seed: number, lattice: number): ExtrusionPath[] {
  const r = rng(seed);
  const at = () => Math.floor(r() * lattice) * 1000;
  return Array.from({ length: n }, (_, i) => {
    const closed = i % 5 === 0;
    const points = closed ? [at(), at(), at(), at(), at(), at()] : r() < 0.3 ? [at(), at(), at(), at()] : [at(), at(), at(), at(), at(), at()];
    return { type: 'FILL', points, closed, width: 400, model: 0 } as ExtrusionPath;
  });
}

test('orderNearest over many paths keeps the plain rule, ties included', () => {
  for (const [n, lattice, seed] of [[10, 5, 1], [65, 4, 2], [300, 8, 3], [800, 200, 4], [2000, 40, 5]]) {
    const paths = randomPaths(n, seed, lattice);
    const got = orderNearest(paths, 0, 0).map((v) => `${paths.indexOf(v.path)}${v.reverse ? 'r' : ''}`);
    assert.deepEqual(got, referenceOrder(paths, 0, 0), `n=${n} lattice=${lattice}`);
  }
});

test('orderNearest visits every path once and enters a closed one at its vertex nearest the nozzle', () => {
  const paths = randomPaths(200, 9, 50);
  let [x, y] = [7000, 3000];
  const visits = orderNearest(paths, x, y);
  assert.equal(new Set(visits.map((v) => v.path)).size, paths.length);
  for (const v of visits) {
    if (v.path.closed) {
      const p = v.path.points;
      const d = (j: number) => (p[2 * j] - x) ** 2 + (p[2 * j + 1] - y) ** 2;
      for (let j = 0; j < p.length / 2; j++) assert.ok(d(v.start) <= d(j));
    }
    [x, y] = visitEnd(v);
  }
});
