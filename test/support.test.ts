import { test } from 'node:test';
import assert from 'node:assert/strict';
import { box } from './mesh-fixtures.js';
import { sliceMeshes, boxDistance, samples } from './support-gcode.js';
import { initGeometry } from '../src/engine/geom/clipper.js';
import { supportAreas } from '../src/engine/support/areas.js';
import { areaOf } from '../src/engine/geom/path-math.js';

// A T: a 10 × 10 mm pillar 10 mm tall under a 30 × 10 × 3 mm slab whose arms overhang 10 mm each
// side. Placed on the bed its bounding box is centred at (110, 110): x −10…20 → 95…125.
const PILLAR = { x0: 105, y0: 105, x1: 115, y1: 115 };
const tShape = () => [box(0, 0, 0, 10, 10, 10), box(-10, 0, 10, 20, 10, 13)];
const SUPPORT = new Set(['SUPPORT', 'SUPPORT-INTERFACE']);

test("support 'everywhere' fills under both arms of a T, keeps the XY distance, the Z gap and an interface", async () => {
  const { moves, result } = await sliceMeshes(tShape(), { supportType: 'everywhere' });
  assert.ok(!result.stats.warnings.some((w) => /support/.test(w)), 'no "not generated" warning');
  const sup = moves.filter((m) => SUPPORT.has(m.type));
  assert.ok(sup.length > 0, 'support printed');
  // under both arms, from the first layer up
  const xs = sup.flatMap((m) => [m.x0, m.x1]);
  assert.ok(Math.min(...xs) < 97 && Math.max(...xs) > 123, `support spans both arms: ${Math.min(...xs)}…${Math.max(...xs)}`);
  assert.ok(sup.some((m) => m.z <= 0.2 + 1e-6), 'support starts on the plate');
  // never inside the pillar nor within 0.8 mm of it (centre lines keep 0.8 + half a bead), but for
  // the roof right under the slab, which reaches to half a line from it (the overhang distance) so
  // the slab's underside is held up to the pillar: bead edges 0.25 mm off it
  const nearestOf = (moves: typeof sup) => {
    let nearest = Infinity;
    for (const m of moves) for (const [x, y] of samples(m)) nearest = Math.min(nearest, boxDistance(x, y, PILLAR));
    return nearest;
  };
  const column = nearestOf(sup.filter((m) => m.z < 9.5));
  assert.ok(column >= 0.8, `closest support centre to the pillar: ${column.toFixed(3)} mm`);
  const roof = nearestOf(sup.filter((m) => m.z > 9.5));
  assert.ok(roof >= 0.2 + 0.2 && roof < 0.8, `closest roof centre to the pillar: ${roof.toFixed(3)} mm`);
  // the slab's underside is at z = 10: the layer right below it (top 10.0) is left empty (Z gap 1)
  const top = Math.max(...sup.map((m) => m.z));
  assert.ok(Math.abs(top - 9.8) < 1e-6, `highest support layer at z ${top}`);
  // the top two support layers are interface, the ones below plain support
  const iface = sup.filter((m) => m.type === 'SUPPORT-INTERFACE');
  assert.deepEqual([...new Set(iface.map((m) => m.z.toFixed(2)))].sort(), ['9.60', '9.80']);
  assert.ok(sup.some((m) => m.type === 'SUPPORT' && Math.abs(m.z - 5) < 0.11));
});

test("support 'none' prints no support", async () => {
  const { moves, text } = await sliceMeshes(tShape(), { supportType: 'none' });
  assert.equal(moves.filter((m) => SUPPORT.has(m.type)).length, 0);
  assert.ok(!text.includes(';TYPE:SUPPORT'));
});

test("support 'buildplate' drops columns that would stand on the model, 'everywhere' keeps them", async () => {
  // a 30 × 10 × 2 base, a pillar in its middle, and a slab on top overhanging the base only
  const shape = () => [box(0, 0, 0, 30, 10, 2), box(12, 0, 2, 18, 10, 10), box(0, 0, 10, 30, 10, 12)];
  const base = { x0: 95, y0: 105, x1: 125, y1: 115 };
  const e = await sliceMeshes(shape(), { supportType: 'everywhere' });
  const onModel = e.moves.filter((m) => SUPPORT.has(m.type));
  assert.ok(onModel.length > 0, "'everywhere' supports the slab from the base");
  assert.ok(onModel.every((m) => m.z > 2.2 - 1e-6), 'resting on the base with one empty layer above it');
  const b = await sliceMeshes(shape(), { supportType: 'buildplate' });
  const sup = b.moves.filter((m) => SUPPORT.has(m.type));
  const over = sup.filter((m) => samples(m).some(([x, y]) => boxDistance(x, y, base) === 0));
  assert.equal(over.length, 0, "'buildplate' puts no support above the model");
  // and the T (whose arms reach past everything below) still gets its support from the plate
  const t = await sliceMeshes(tShape(), { supportType: 'buildplate' });
  assert.ok(t.moves.some((m) => SUPPORT.has(m.type) && m.z <= 0.2 + 1e-6));
});

test('supportAreas: an overhang smaller than the minimum area gets no support; steep walls none at all', async () => {
  await initGeometry();
  const sq = (x: number, y: number, s: number) => [x, y, x + s, y, x + s, y + s, x, y + s];
  const params = { angleDeg: 50, xyDistance: 800, xyOverhangDistance: 200, zLayers: 1, interfaceLayers: 2, minArea: 1e6, buildplateOnly: false };
  // 10 layers of a 10 mm square, then 5 layers 2 mm wider on one side (a 2 × 10 mm overhang)
  const layers = [...Array(10).fill([sq(0, 0, 10000)]), ...Array(5).fill([[0, 0, 12000, 0, 12000, 10000, 0, 10000]])];
  const big = supportAreas(layers, layers.map(() => 200), params);
  assert.ok(big[0] && areaOf(big[0].support) > 0.5e6, 'the 2 mm ledge is supported from the plate');
  // a ledge of 0.9 × 1 mm (0.9 mm² < 1 mm²) is not
  const small = [...Array(10).fill([sq(0, 0, 10000)]), ...Array(5).fill([[0, 0, 10900, 0, 10900, 1000, 10000, 1000, 10000, 10000, 0, 10000]])];
  assert.ok(supportAreas(small, small.map(() => 200), params).every((l) => l === undefined));
  // a wall leaning out at 45° (0.2 mm a layer) stays within the 50° angle: no support
  const lean = Array.from({ length: 15 }, (_, i) => [sq(0, 0, 10000 + 200 * i)]);
  assert.ok(supportAreas(lean, lean.map(() => 200), params).every((l) => l === undefined));
});

test('the support pass reports progress before the layers, and the bar never goes back', async () => {
  const seen: Array<[number, string]> = [];
  await sliceMeshes(tShape(), { supportType: 'everywhere' }, { onProgress: (f, stage) => seen.push([f, stage]) });
  const stages = seen.map(([, s]) => s);
  assert.ok(stages.includes('support') && stages.indexOf('support') < stages.indexOf('layers'), stages.join(','));
  for (let i = 1; i < seen.length; i++) assert.ok(seen[i][0] >= seen[i - 1][0], `progress ${seen[i - 1][0]} → ${seen[i][0]}`);
  assert.equal(seen[seen.length - 1][0], 1);
});

test('support and raft reach the layer threads: the same support and raft as on the main thread', async () => {
  const { LayerPool } = await import('../src/runner/layer-pool.js');
  const pool = new LayerPool(2);
  try {
    // a T 62 mm tall (over 300 layers: the engine uses the executor), arms at 58 mm
    const tall = () => [box(0, 0, 0, 10, 10, 58), box(-10, 0, 58, 20, 10, 62)];
    const settings = { supportType: 'everywhere' as const, adhesionType: 'raft' as const };
    let used = 0;
    // a box is little layer work: the threshold at 0 makes the engine use the threads all the same
    const threaded = await sliceMeshes(tall(), settings, {
      executor: (b, onLayer, signal) => {
        used++;
        return pool.executor(b, onLayer, signal);
      },
      minVerticesForThreads: 0,
    });
    assert.equal(used, 1);
    const serial = await sliceMeshes(tall(), settings);
    // undirected: where a layer starts may flip the direction a path is printed in
    const key = (m: { type: string; z: number; x0: number; y0: number; x1: number; y1: number }) =>
      `${m.type} ${m.z} ${[`${m.x0},${m.y0}`, `${m.x1},${m.y1}`].sort().join(' ')}`;
    const pick = (ms: typeof serial.moves) => ms.filter((m) => m.type.startsWith('SUPPORT') || m.type === 'RAFT').map(key).sort();
    const a = pick(threaded.moves);
    assert.ok(a.filter((k) => k.startsWith('SUPPORT')).length > 100 && a.some((k) => k.startsWith('RAFT')));
    assert.deepEqual(a, pick(serial.moves));
  } finally {
    pool.terminate();
  }
});

test('support patterns: lines run one way, grid crosses them, zigzag joins them into fewer, longer runs', async () => {
  const layerOf = async (pattern: 'lines' | 'grid' | 'zigzag') => {
    const { moves } = await sliceMeshes(tShape(), { supportType: 'everywhere', supportPattern: pattern });
    return moves.filter((m) => m.type === 'SUPPORT' && Math.abs(m.z - 5) < 1e-6);
  };
  // runs: consecutive moves that continue where the last one ended (no travel between)
  const runs = (ms: Awaited<ReturnType<typeof layerOf>>) => ms.filter((m, i) => i === 0 || m.x0 !== ms[i - 1].x1 || m.y0 !== ms[i - 1].y1).length;
  const long = (ms: Awaited<ReturnType<typeof layerOf>>, axis: 'x' | 'y') =>
    ms.filter((m) => (axis === 'x' ? Math.abs(m.x1 - m.x0) > 3 && m.y0 === m.y1 : Math.abs(m.y1 - m.y0) > 3 && m.x0 === m.x1)).length;
  const lines = await layerOf('lines');
  const grid = await layerOf('grid');
  const zigzag = await layerOf('zigzag');
  // the arms are 10 mm long in x and 10 mm deep in y: lines along x; the grid adds lines along y
  // (the outline around each area has long sides both ways: compare with the lines' count)
  assert.ok(long(lines, 'x') >= 4, `lines along x: ${long(lines, 'x')}`);
  assert.ok(long(grid, 'y') > long(lines, 'y'), `grid lines along y: ${long(grid, 'y')} vs ${long(lines, 'y')}`);
  assert.ok(runs(zigzag) < runs(lines), `zigzag runs ${runs(zigzag)} < lines runs ${runs(lines)}`);
});

test('a slope steeper than the support angle gets a roof all along it, not only plain support short of it', async () => {
  // a 10 mm block whose right face leans out 65° from vertical over its 10 mm height
  const lean = Math.tan((65 * Math.PI) / 180) * 10;
  const block = box(0, 0, 0, 10, 10, 10);
  block.positions = block.positions.map((v, i) => (i % 3 === 0 && block.positions[i + 2]! > 0 ? v + lean : v));
  const { moves } = await sliceMeshes([block], { supportType: 'everywhere' });
  const iface = moves.filter((m) => m.type === 'SUPPORT-INTERFACE');
  // interface on most layers under the slope (its first few layers are within the Z gap and roof of the plate)
  const layers = new Set(iface.map((m) => m.z.toFixed(2)));
  assert.ok(layers.size >= 30, `interface on ${layers.size} layers`);
  // and it stays off the part beside it: the slope at height z is at x = 100 - 10 - lean/2 + 10 + lean * z / 10 (centred on 110)
  for (const m of iface) {
    const edge = 110 - (10 + lean) / 2 + 10 + (lean * (m.z - 0.1)) / 10;
    assert.ok(Math.min(m.x0, m.x1) > edge + 0.2, `interface at x ${Math.min(m.x0, m.x1)} on z ${m.z}, the part's edge at ${edge.toFixed(2)}`);
  }
});
