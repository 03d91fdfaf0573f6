// Stitching's candidate joins: found through a grid in the order the joins are tried, exactly as
// listing every (tail, head) pair and sorting them did; a layer of soup with too many of them skips
// the search instead of listing millions (20,000 random triangles took 56 s and 1 GB).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { OpenChain } from '../src/engine/layers/chain.js';
import { candidatePairs, MAX_PAIRS } from '../src/engine/layers/stitch-pairs.js';
import { stitchChains, MAX_STITCH_UM } from '../src/engine/layers/stitch.js';
import { rng } from './mesh-fixtures.js';

/** A chain from (x0, y0) to (x1, y1) through one point in between. */
function chain(x0: number, y0: number, x1: number, y1: number, tailKey = 0, headKey = 0): OpenChain {
  return { points: [x0, y0, (x0 + x1) / 2 + 7, (y0 + y1) / 2, x1, y1], headLo: headKey, headHi: headKey + 1, tailLo: tailKey, tailHi: tailKey + 1 };
}

/** The pairs as stitching listed them before: every tail with every head, stably sorted. */
function reference(open: OpenChain[], tails: number[], tailHole: number[], heads: number[], headHole: number[], maxGap: number): [number, number][] {
  const pairs: { d: number; i: number; j: number; same: boolean }[] = [];
  tails.forEach((i, ti) => {
    const c = open[i].points;
    const tx = c[c.length - 2];
    const ty = c[c.length - 1];
    heads.forEach((j, hj) => {
      const d = (open[j].points[0] - tx) ** 2 + (open[j].points[1] - ty) ** 2;
      const same = tailHole[ti] >= 0 && tailHole[ti] === headHole[hj];
      if (same || d <= maxGap * maxGap) pairs.push({ d, i, j, same });
    });
  });
  pairs.sort((a, b) => (a.same === b.same ? a.d - b.d : a.same ? -1 : 1));
  return pairs.map((p) => [p.i, p.j]);
}

test('candidate joins come in the order a full listing sorted them: same hole first, nearest next, ties as listed', () => {
  const random = rng(11);
  for (let round = 0; round < 200; round++) {
    const k = 1 + Math.floor(random() * 40);
    // coarse coordinates, so that distances tie and pairs sit right on the gap limit; some negative
    const at = () => (Math.floor(random() * 9) - 3) * 2500;
    const open = Array.from({ length: k }, () => chain(at(), at(), at(), at()));
    const tails = [...Array(k).keys()].filter(() => random() < 0.8);
    const heads = [...Array(k).keys()].filter(() => random() < 0.8);
    const hole = () => (random() < 0.5 ? -1 : Math.floor(random() * 3));
    const tailHole = tails.map(hole);
    const headHole = heads.map(hole);
    const pairs = candidatePairs(open, tails, tailHole, heads, headHole, MAX_STITCH_UM)!;
    const got = Array.from(pairs.tail, (i, p) => [i, pairs.head[p]]);
    assert.deepEqual(got, reference(open, tails, tailHole, heads, headHole, MAX_STITCH_UM), `round ${round}`);
  }
});

test('past the budget there are no candidates; a layer of soup is stitched by exact joins only, quickly', () => {
  const random = rng(5);
  // 3,000 loose segments in a 20 mm square: every end is within 10 mm of half the others
  const open = Array.from({ length: 3000 }, (_, n) => {
    const x = random() * 20_000, y = random() * 20_000;
    return chain(x, y, x + random() * 500, y + random() * 500, 10 * n, 10 * n + 5);
  });
  const all = [...open.keys()];
  assert.equal(candidatePairs(open, all, all.map(() => -1), all, all.map(() => -1), MAX_STITCH_UM), null);
  assert.ok(MAX_PAIRS < 3000 * 1000);
  const started = performance.now();
  const { loops, dropped } = stitchChains(open, null);
  const ms = performance.now() - started;
  assert.deepEqual([loops.length, dropped], [0, 3000]);
  assert.ok(ms < 1500, `${ms.toFixed(0)} ms`); // tens of ms; listing and sorting ~4.5 million pairs took seconds
  // a few loose ends still find each other
  const few = stitchChains([chain(0, 0, 1000, 0), chain(1000, 300, 0, 300)], null);
  assert.deepEqual([few.loops.length, few.dropped], [1, 0]);
});
