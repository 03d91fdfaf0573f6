// The overlap between printed models belongs to the first; later ones are carved. Checked on chains
// of many overlapping models (the carving merges what earlier models took once a group has more than
// a few pieces) and on scattered ones: what each keeps is disjoint from the others, and together they
// cover what all of them covered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initGeometry, intersection, union } from '../src/engine/geom/clipper.js';
import { areaOf } from '../src/engine/geom/path-math.js';
import { withoutOverlaps } from '../src/engine/regions/overlap.js';
import type { Paths } from '../src/engine/types.js';
import { rng } from './mesh-fixtures.js';

function polygon(cx: number, cy: number, r: number, k: number, phase: number): number[] {
  const p: number[] = [];
  for (let j = 0; j < k; j++) p.push(Math.round(cx + r * Math.cos(phase + (2 * Math.PI * j) / k)), Math.round(cy + r * Math.sin(phase + (2 * Math.PI * j) / k)));
  return p;
}

function check(outlines: Paths[], what: string): void {
  const kept = withoutOverlaps(outlines);
  assert.equal(kept.length, outlines.length);
  const all = Math.abs(areaOf(union(outlines.flat())));
  const sum = kept.reduce((s, k) => s + Math.abs(areaOf(k)), 0);
  // rounding to whole µm along each cut leaves slivers of a few µm² per cut
  const tolerance = 1e-5 * all + 1000 * outlines.length;
  assert.ok(Math.abs(sum - all) <= tolerance, `${what}: kept ${sum} µm² of ${all}`);
  // the first keeps all it had
  assert.ok(Math.abs(Math.abs(areaOf(kept[0]!)) - Math.abs(areaOf(outlines[0]!))) <= 200, `${what}: the first model was cut`);
  for (let i = 0; i < kept.length; i++) {
    for (let j = 0; j < i; j++) {
      const both = Math.abs(areaOf(intersection(kept[i]!, kept[j]!)));
      assert.ok(both <= 20_000, `${what}: models ${j} and ${i} share ${both} µm²`);
    }
  }
}

test('a chain of 60 squares, each shifted 0.1 mm from the last: disjoint, covering the chain', async () => {
  await initGeometry();
  const squares: Paths[] = [];
  for (let i = 0; i < 60; i++) {
    const x = 50_000 + i * 100, y = 50_000 + i * 100;
    squares.push([[x, y, x + 40_000, y, x + 40_000, y + 40_000, x, y + 40_000]]);
  }
  check(squares, 'diagonal chain');
});

test('scattered polygons, some overlapping, some empty', async () => {
  await initGeometry();
  const random = rng(11);
  for (let trial = 0; trial < 20; trial++) {
    const outlines: Paths[] = [];
    const n = 2 + Math.floor(random() * 30);
    for (let i = 0; i < n; i++) {
      if (random() < 0.1) outlines.push([]);
      else outlines.push([polygon(random() * 100_000, random() * 100_000, 2_000 + random() * 20_000, 3 + Math.floor(random() * 6), random() * 6)]);
    }
    if (outlines[0]!.length === 0) outlines[0] = [polygon(50_000, 50_000, 10_000, 5, 0)];
    check(outlines, `trial ${trial}`);
  }
});
