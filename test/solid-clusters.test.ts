import { test } from 'node:test';
import assert from 'node:assert/strict';
import { solidClusters } from '../src/engine/plan/solid-clusters.js';
import { planLayer } from '../src/engine/plan/index.js';
import type { PlanOp } from '../src/engine/plan/types.js';
import type { IslandPaths } from '../src/engine/regions/types.js';
import type { ExtrusionPath, FeatureType, Path } from '../src/engine/types.js';
import { defaultSettings } from '../src/profiles/defaults.js';

const W = 400;
const line = (type: FeatureType, points: Path): ExtrusionPath => ({ type, points, closed: false, width: W, model: 0 });
const sq = (x: number, y: number, w: number, h: number): Path => [x, y, x + w, y, x + w, y + h, x, y + h];
/** skin lines at 45° filling a square patch (corner x, y; side s) one line width apart */
function skinPatch(x: number, y: number, s: number): ExtrusionPath[] {
  const out: ExtrusionPath[] = [];
  for (let d = W; d < 2 * s; d += W) {
    const a = Math.max(0, d - s), b = Math.min(d, s);
    if (b - a > 50) out.push(line('SKIN', [x + a, y + d - a, x + b, y + d - b]));
  }
  return out;
}

test('solidClusters: one group per place; a skin patch with the gap fill beside it is one', () => {
  const bottomGap = line('WALL-INNER', [10000, 1000, 12000, 1000]);
  const topGap = line('WALL-INNER', [10000, 59000, 12000, 59000]);
  const bottomSkin = skinPatch(12400, 500, 3000);
  const topSkin = skinPatch(12400, 56500, 3000);
  const groups = solidClusters([bottomGap, topGap], [...bottomSkin, ...topSkin], W);
  assert.equal(groups.length, 2);
  assert.deepEqual(groups[0].gaps, [bottomGap]);
  assert.deepEqual(groups[0].skin, bottomSkin);
  assert.deepEqual(groups[1].gaps, [topGap]);
  assert.deepEqual(groups[1].skin, topSkin);
  assert.deepEqual(groups[0].box, [10000, 500, 15400, 3500]);
  // a chain of neighbours joins; a line 2 widths + 1 µm beyond the reach on each side does not
  const a = line('SKIN', [0, 0, 1000, 0]), b = line('SKIN', [1000 + 2 * W, 0, 2000, 0]), c = line('SKIN', [2000 + 2 * W + 1, 0, 3000, 0]);
  assert.equal(solidClusters([], [a, b, c], W).length, 2);
  assert.equal(solidClusters([], [a, b], W).length, 1);
});

test('gap fill and skin at both ends of an island: one trip to the far end, not two', () => {
  // a 20 × 60 mm island whose walls end near the top; gap fill and a skin patch at each end
  const outline = [sq(0, 0, 20000, 60000)];
  const wall: ExtrusionPath = { type: 'WALL-OUTER', points: sq(200, 200, 19600, 59600), closed: true, width: W, model: 0 };
  const isl: IslandPaths = {
    model: 0,
    outline,
    combArea: [sq(700, 700, 18600, 58600)],
    walls: [[wall]],
    gapFill: [line('WALL-INNER', [2000, 1500, 6000, 1500]), line('WALL-INNER', [2000, 58500, 6000, 58500])],
    skin: [...skinPatch(7000, 1000, 3000), ...skinPatch(7000, 56000, 3000)],
    infill: [],
    hasSkin: true,
    skinArea: [],
  };
  const s = defaultSettings({ minLayerTime: 0 });
  const { plan } = planLayer({ index: 5, z: 1200, height: 200, islands: [isl], extras: [] }, s, ['m'], { x: 10000, y: 61000 }, 10);
  // moves that go more than half the island's length (travels, with their combed legs added up)
  let x = 10000, y = 61000, run = 0, long = 0;
  for (const o of plan.ops as PlanOp[]) {
    if (o.op === 'travel') run += Math.hypot(o.x - x, o.y - y);
    if (o.op === 'extrude') {
      if (run > 30000) long++;
      run = 0;
    }
    if (o.op === 'travel' || o.op === 'extrude') [x, y] = [o.x, o.y];
  }
  assert.equal(long, 1, 'the nozzle crosses the island once, from the near end to the far one');
});
