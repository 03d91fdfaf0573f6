// The repeats a prismatic part's layers allow: island splits and walls taken from the layer below,
// fills from one of the last few layers, and the pattern phases that decide when two layers' infill
// lines are alike.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cleanIslands, initGeometry, islands } from '../src/engine/geom/clipper.js';
import type { WallResult } from '../src/engine/regions/walls.js';
import { wallsForLayer, type LayerGeometry, type WallsReuse } from '../src/engine/regions/build.js';
import { defaultSettings } from '../src/profiles/defaults.js';
import { RecentResults } from '../src/engine/regions/recent-results.js';
import { CoverCache } from '../src/engine/regions/cover-cache.js';
import { commonArea } from '../src/engine/regions/skins.js';
import { infillLines, infillPhase, type InfillParams } from '../src/engine/infill/index.js';
import { samePaths, hashPaths } from '../src/engine/geom/path-math.js';
import type { InfillPattern } from '../src/engine/settings.js';

const square = (x: number, y: number, s: number) => [x, y, x + s, y, x + s, y + s, x, y + s];
const holeCW = (x: number, y: number, s: number) => [x, y, x, y + s, x + s, y + s, x + s, y];

const geometry = (index: number, section: number[][]): LayerGeometry => ({ index, z: 200 * index + 200, height: 200, outlines: [section] });
const newReuse = (): WallsReuse => ({ islands: new RecentResults<number[][][]>(1), walls: new RecentResults<WallResult>(1) });

test('walls of islands that repeat the layer below point for point come from there, equal to computing them', async () => {
  await initGeometry();
  const s = defaultSettings();
  const reuse = newReuse();
  const plate = () => [square(0, 0, 20000), holeCW(5000, 5000, 3000), square(30000, 0, 8000)];
  const first = wallsForLayer(geometry(1, plate()), s, reuse);
  assert.equal(first.length, 2);
  // new arrays, the same points: split and walls from the layer below, the same as computing them
  const again = wallsForLayer(geometry(2, plate()), s, reuse);
  assert.equal(reuse.islands.hits, 1);
  assert.equal(reuse.walls.hits, 2);
  assert.deepEqual(again, wallsForLayer(geometry(2, plate()), s));
  assert.equal(again[0]!.walls[0]![0]!.points, first[0]!.walls[0]![0]!.points);
  // one island a micrometre larger: only that one is computed anew, and right
  const grown = [square(0, 0, 20001), holeCW(5000, 5000, 3000), square(30000, 0, 8000)];
  assert.deepEqual(wallsForLayer(geometry(3, grown), s, reuse), wallsForLayer(geometry(3, grown), s));
  assert.equal(reuse.walls.hits, 3);
  // the first layer's wider lines: nothing taken from the layer above
  const wide = { ...s, firstLayerLineWidth: 0.5 };
  assert.deepEqual(wallsForLayer(geometry(0, grown), wide, reuse), wallsForLayer(geometry(0, grown), wide));
  assert.equal(reuse.walls.hits, 3);
  // only the layer right below counts: two layers later the islands are computed again
  wallsForLayer(geometry(4, []), s, reuse);
  wallsForLayer(geometry(5, plate()), s, reuse);
  assert.equal(reuse.walls.hits, 3);
});

test('recent results: drawn once while the same area and key come back within three layers', () => {
  const recent = new RecentResults<number[][]>(3);
  let draws = 0;
  const draw = () => {
    draws++;
    return [[0, 0, 100, 100]];
  };
  const area = [square(0, 0, 1000)];
  const first = recent.get(area, 'k', draw);
  recent.nextLayer();
  recent.nextLayer();
  assert.equal(recent.get([square(0, 0, 1000)], 'k', draw), first);
  assert.equal(draws, 1);
  recent.get(area, 'other key', draw);
  recent.get([square(0, 0, 1001)], 'k', draw);
  assert.equal(draws, 3);
  // carried forward on every hit; forgotten after more than three layers without one
  for (let i = 0; i < 4; i++) recent.nextLayer();
  recent.get(area, 'k', draw);
  assert.equal(draws, 4);
  assert.equal(recent.hits, 1);
});

test('a hash collision is never taken for a repeat: the points are compared', () => {
  const a = [[1, 2, 3, 4, 5, 6]];
  const b = [[1, 2, 3, 4, 5, 7]];
  assert.equal(samePaths(a, b), false);
  assert.notEqual(hashPaths(a), hashPaths(b));
  assert.equal(samePaths(a, [[1, 2, 3, 4, 5, 6]]), true);
});

test('infill phases: layers in the same phase get the very same lines, at any height', async () => {
  await initGeometry();
  const area = [square(0, 0, 30000), holeCW(10000, 10000, 6000)];
  const base = { density: 20, lineWidth: 400, angle: 45 };
  const cases: Array<{ pattern: InfillPattern; density?: number; period: number }> = [
    { pattern: 'lines', period: 2 },
    { pattern: 'grid', period: 1 },
    { pattern: 'triangles', period: 1 },
    { pattern: 'concentric', period: 1 },
    { pattern: 'honeycomb', period: 3 },
    { pattern: 'gyroid', density: 100, period: 2 }, // solid: any pattern turns 90° every layer
  ];
  for (const c of cases) {
    const at = (layerIndex: number): InfillParams => ({ ...base, pattern: c.pattern, density: c.density ?? base.density, layerIndex, z: 300 + 200 * layerIndex });
    for (const layer of [1, 2, 3]) {
      assert.equal(infillPhase(at(layer)), infillPhase(at(layer + c.period)), c.pattern);
      assert.deepEqual(infillLines(area, at(layer + c.period)), infillLines(area, at(layer)), `${c.pattern} layer ${layer}`);
    }
    if (c.period > 1) {
      assert.notEqual(infillPhase(at(1)), infillPhase(at(2)));
      assert.notDeepEqual(infillLines(area, at(2)), infillLines(area, at(1)), c.pattern);
    }
  }
  // patterns that change with height have no phase: never taken from another layer
  for (const pattern of ['gyroid', 'cubic'] as const) {
    const p: InfillParams = { ...base, pattern, layerIndex: 4, z: 1100 };
    assert.equal(infillPhase(p), undefined);
    assert.notDeepEqual(infillLines(area, p), infillLines(area, { ...p, layerIndex: 6, z: 1500 }));
  }
});

test('a clean area of one counter-clockwise loop is one island as it stands; others go through the polygon tree', async () => {
  await initGeometry();
  const loop = square(0, 0, 10000);
  const one = cleanIslands([loop]);
  assert.equal(one.length, 1);
  assert.equal(one[0][0], loop);
  // a lone clockwise loop goes through the tree like anything else
  assert.deepEqual(cleanIslands([holeCW(0, 0, 1000)]), islands([holeCW(0, 0, 1000)]));
  // a loop with a hole and a second loop: two islands
  const two = cleanIslands([square(0, 0, 10000), holeCW(2000, 2000, 1000), square(20000, 0, 5000)]);
  assert.deepEqual(two.map((i) => i.length).sort(), [1, 2]);
});

test('skin detection intersects a run of layers once for the layer below it and the layer above it', async () => {
  await initGeometry();
  const layers = [0, 1, 2, 3, 4, 5].map((k) => [square(k * 100, 0, 10000)]);
  const covers = new CoverCache(3);
  const run = [layers[1], layers[2], layers[3]];
  const first = covers.common(run);
  assert.deepEqual(first, commonArea(run));
  covers.nextLayer();
  covers.nextLayer();
  assert.equal(covers.common([layers[1], layers[2], layers[3]]), first);
  assert.equal(covers.hits, 1);
  // another run, or the same areas in another order or length: computed, and right
  assert.deepEqual(covers.common([layers[2], layers[3], layers[4]]), commonArea([layers[2], layers[3], layers[4]]));
  assert.deepEqual(covers.common([layers[1], layers[2]]), commonArea([layers[1], layers[2]]));
  assert.equal(covers.hits, 1);
  // off the model's end (a missing layer) or an empty layer covers nothing
  assert.deepEqual(covers.common([layers[1], undefined]), []);
  assert.deepEqual(covers.common([layers[1], []]), []);
  // forgotten once no later layer can ask for it
  for (let i = 0; i < 4; i++) covers.nextLayer();
  covers.common(run);
  assert.equal(covers.hits, 1);
});

test('plans of repeated layers are reused, lifted to their height, equal to planning them', async () => {
  await initGeometry();
  const { RepeatedLayerPlanner } = await import('../src/engine/plan/repeated-layers.js');
  const { planLayer, defaultSeamTarget } = await import('../src/engine/plan/index.js');
  // z-hop on: reused travels must be lifted to the new layer's height, not the old one's
  const s = defaultSettings({ zHop: 0.4, fanFullLayer: 3 });
  const opts = { seamTarget: defaultSeamTarget(s) };
  const hole = holeCW(8000, 8000, 4000);
  const wall = (points: number[]) => ({ type: 'WALL-OUTER' as const, points, closed: true, width: 400, model: 0 });
  const line = (points: number[]) => ({ type: 'FILL' as const, points, closed: false, width: 400, model: 0 });
  // a plate with a hole (travels comb or hop round it), its sparse infill turning every other layer
  const layer = (index: number) => ({
    index,
    z: 200 * index + 200,
    height: 200,
    extras: [],
    islands: [
      {
        model: 0,
        outline: [square(0, 0, 20000), hole],
        combArea: [square(200, 200, 19600), holeCW(7800, 7800, 4400)],
        walls: [[wall(square(200, 200, 19600)), wall(holeCW(7800, 7800, 4400))]],
        gapFill: [],
        skin: [],
        infill:
          index % 2 === 0
            ? [line([1000, 3000, 19000, 3000]), line([19000, 15000, 1000, 15000]), line([1000, 17000, 6000, 17000])]
            : [line([3000, 1000, 3000, 19000]), line([15000, 19000, 15000, 1000]), line([17000, 1000, 17000, 6000])],
        hasSkin: false,
        skinArea: [],
      },
    ],
  });
  // travel counts too: a reused layer counts its travels again
  const counted = { straight: 0, combed: 0, retracted: 0 };
  const countedDirect = { straight: 0, combed: 0, retracted: 0 };
  const planner = new RepeatedLayerPlanner(s, ['plate'], 12, { ...opts, travelStats: counted });
  let cached: { x: number; y: number } | null = null;
  let direct: { x: number; y: number } | null = null;
  let liftedHops = 0;
  for (let i = 0; i < 12; i++) {
    const before = planner.reused;
    const a = planner.plan(layer(i), cached);
    const b = planLayer(layer(i), s, ['plate'], direct, 12, { ...opts, travelStats: countedDirect });
    assert.deepEqual(a.plan, b.plan, `layer ${i}`);
    assert.deepEqual(a.end, b.end);
    if (planner.reused > before) liftedHops += a.plan.ops.filter((o) => o.op === 'travel' && o.z !== undefined && o.z > a.plan.z).length;
    cached = a.end;
    direct = b.end;
  }
  // layers 0–2 differ (first-layer speeds, the fan's ramp); from there every other layer repeats
  assert.ok(planner.reused >= 6, `${planner.reused} of 12 layers reused`);
  assert.ok(liftedHops > 0, 'reused layers hop, at their own height');
  assert.deepEqual(counted, countedDirect);
  assert.ok(counted.straight + counted.combed + counted.retracted > 12, 'travels were counted');
});
