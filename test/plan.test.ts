import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planLayers, planLayer, fanPercent, applyMinLayerTime, simpleLayerTime } from '../src/engine/plan/index.js';
import type { LayerPlan, PlanOp } from '../src/engine/plan/types.js';
import type { IslandPaths, LayerRegions } from '../src/engine/regions/types.js';
import type { ExtrusionPath, FeatureType, Path } from '../src/engine/types.js';
import { SliceCancelled } from '../src/engine/types.js';
import { defaultSettings } from '../src/profiles/defaults.js';
import type { SliceSettings } from '../src/engine/settings.js';

const W = 400; // line width, µm

/** Counter-clockwise square (an outer contour). */
const sq = (x: number, y: number, s: number): Path => [x, y, x + s, y, x + s, y + s, x, y + s];
/** Clockwise square (a hole). */
const hole = (x: number, y: number, s: number): Path => [x, y, x, y + s, x + s, y + s, x + s, y];
const loop = (type: FeatureType, points: Path, model = 0): ExtrusionPath => ({ type, points, closed: true, width: W, model });
const line = (type: FeatureType, points: Path, model = 0): ExtrusionPath => ({ type, points, closed: false, width: W, model });

/** A square island (corner x, y; side s, µm) with two walls, optional square hole, skin and infill lines. */
function squareIsland(
  x: number,
  y: number,
  s: number,
  o: { hole?: [number, number, number]; skin?: ExtrusionPath[]; infill?: ExtrusionPath[]; model?: number } = {},
): IslandPaths {
  const m = o.model ?? 0;
  const outline = [sq(x, y, s)];
  const walls: ExtrusionPath[][] = [
    [loop('WALL-OUTER', sq(x + W / 2, y + W / 2, s - W), m)],
    [loop('WALL-INNER', sq(x + 1.5 * W, y + 1.5 * W, s - 3 * W), m)],
  ];
  const combArea = [sq(x + 1.75 * W, y + 1.75 * W, s - 3.5 * W)];
  if (o.hole) {
    const [hx, hy, hs] = o.hole;
    outline.push(hole(hx, hy, hs));
    walls[0].push(loop('WALL-OUTER', hole(hx - W / 2, hy - W / 2, hs + W), m));
    walls[1].push(loop('WALL-INNER', hole(hx - 1.5 * W, hy - 1.5 * W, hs + 3 * W), m));
    combArea.push(hole(hx - 1.75 * W, hy - 1.75 * W, hs + 3.5 * W));
  }
  const skin = o.skin ?? [];
  return { model: m, outline, combArea, walls, gapFill: [], skin, infill: o.infill ?? [], hasSkin: skin.length > 0, skinArea: [] };
}

const layerOf = (index: number, islands: IslandPaths[], extras: ExtrusionPath[] = []): LayerRegions => ({
  index,
  z: 200 * (index + 1),
  height: 200,
  islands,
  extras,
});

/** Settings without the minimum-layer-time slowdown unless asked for. */
const settings = (o: Partial<SliceSettings> = {}): SliceSettings => defaultSettings({ minLayerTime: 0, ...o });

const features = (ops: PlanOp[]) => ops.filter((o) => o.op === 'feature').map((o) => (o as { type: FeatureType }).type);

/** Travels grouped with whether they happened with the filament retracted. */
function travels(ops: PlanOp[], start = { x: 0, y: 0 }) {
  const out: Array<{ x0: number; y0: number; x1: number; y1: number; retracted: boolean }> = [];
  let x = start.x, y = start.y, retracted = false;
  for (const o of ops) {
    if (o.op === 'retract') retracted = true;
    if (o.op === 'unretract') retracted = false;
    if (o.op === 'travel' || o.op === 'extrude') {
      if (o.op === 'travel' && (o.x !== x || o.y !== y)) out.push({ x0: x, y0: y, x1: o.x, y1: o.y, retracted });
      x = o.x;
      y = o.y;
    }
  }
  return out;
}

/** Where each feature's first extrusion starts (the position just before it). */
function featureStarts(ops: PlanOp[], type: FeatureType): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let x = 0, y = 0, cur: FeatureType | null = null, armed = false;
  for (const o of ops) {
    if (o.op === 'feature') {
      cur = o.type;
      armed = cur === type;
    }
    if (o.op === 'extrude' && armed) {
      out.push([x, y]);
      armed = false;
    }
    if (o.op === 'travel' || o.op === 'extrude') {
      x = o.x;
      y = o.y;
    }
  }
  return out;
}

test('order inside an island: inner wall, outer wall, skin, infill; options reorder', () => {
  const isl = squareIsland(0, 0, 20000, {
    skin: [line('SKIN', [2000, 5000, 18000, 5000])],
    infill: [line('FILL', [2000, 10000, 18000, 10000])],
  });
  const plan = (o: Partial<SliceSettings>) => planLayer(layerOf(3, [isl]), settings(o), ['cube'], { x: 0, y: 0 }, 10).plan;
  assert.deepEqual(features(plan({}).ops), ['WALL-INNER', 'WALL-OUTER', 'SKIN', 'FILL']);
  assert.deepEqual(features(plan({ outerWallFirst: true }).ops), ['WALL-OUTER', 'WALL-INNER', 'SKIN', 'FILL']);
  assert.deepEqual(features(plan({ infillBeforeWalls: true }).ops), ['FILL', 'WALL-INNER', 'WALL-OUTER', 'SKIN']);
  const f = plan({}).ops.find((o) => o.op === 'feature');
  assert.deepEqual(f, { op: 'feature', type: 'WALL-INNER', model: 0, modelName: 'cube' });
});

test('a closed loop prints from its seam all the way round and back to it', () => {
  const isl = squareIsland(0, 0, 20000);
  const { plan } = planLayer(layerOf(2, [isl]), settings(), ['m'], { x: 0, y: 0 }, 10);
  const ex = plan.ops.filter((o) => o.op === 'extrude') as Array<{ x: number; y: number }>;
  // two loops of four sides each
  assert.equal(ex.length, 8);
  const [sx, sy] = featureStarts(plan.ops, 'WALL-OUTER')[0];
  assert.deepEqual([ex[7].x, ex[7].y], [sx, sy]);
});

test('aligned seams stay at the same back corner on every layer, and prefer a concave corner', () => {
  const layers = [0, 1, 2, 3].map((i) => {
    const isl = squareIsland(10000, 10000, 20000);
    // rotate the vertex order on each layer: the seam must not follow the first vertex
    const p = isl.walls[0][0].points;
    isl.walls[0][0].points = [...p.slice(2 * i), ...p.slice(0, 2 * i)];
    return layerOf(i, [isl]);
  });
  const plans = planLayers(layers, settings({ seamPosition: 'aligned' }), ['m']);
  const seams = plans.map((pl) => featureStarts(pl.ops, 'WALL-OUTER')[0]);
  for (const s of seams) assert.deepEqual(s, seams[0]);
  assert.equal(seams[0][1], 10000 + 20000 - W / 2, 'at the back (largest y)');

  // an L-ish outline with a notch at the back: the concave corner of the notch gets the seam
  const notch: Path = [0, 0, 20000, 0, 20000, 20000, 11000, 20000, 11000, 19000, 9000, 19000, 9000, 20000, 0, 20000];
  const isl: IslandPaths = { ...squareIsland(0, 0, 20000), walls: [[loop('WALL-OUTER', notch)]] };
  const pl = planLayer(layerOf(1, [isl]), settings({ seamPosition: 'aligned' }), ['m'], { x: 0, y: 0 }, 5, {
    seamTarget: { x: 10000, y: 1_000_000 },
  }).plan;
  const [nx, ny] = featureStarts(pl.ops, 'WALL-OUTER')[0];
  assert.equal(ny, 19000);
  assert.ok(nx === 9000 || nx === 11000, `seam in the notch's corner, got ${nx},${ny}`);
});

test('rear, shortest and random seams', () => {
  const isl = () => squareIsland(0, 0, 20000);
  const seamOf = (o: Partial<SliceSettings>, start = { x: 0, y: 0 }, index = 1) =>
    featureStarts(planLayer(layerOf(index, [isl()]), settings(o), ['m'], start, 5).plan.ops, 'WALL-OUTER')[0];
  assert.equal(seamOf({ seamPosition: 'rear' })[1], 20000 - W / 2);
  // shortest: the inner wall starts near the nozzle (front-left); the outer wall starts next to it
  const [sx, sy] = seamOf({ seamPosition: 'shortest' }, { x: 0, y: 0 });
  assert.deepEqual([sx, sy], [W / 2, W / 2]);
  const r1 = seamOf({ seamPosition: 'random' }, { x: 0, y: 0 }, 7);
  const r2 = seamOf({ seamPosition: 'random' }, { x: 0, y: 0 }, 7);
  assert.deepEqual(r1, r2, 'random seams are deterministic per layer');
  const many = new Set([...Array(12).keys()].map((i) => seamOf({ seamPosition: 'random' }, { x: 0, y: 0 }, i).join(',')));
  assert.ok(many.size > 1, 'random seams move between layers');
});

test('a travel inside the comb area does not retract, even when long (up to combMaxTravel)', () => {
  const isl = squareIsland(0, 0, 30000, {
    infill: [line('FILL', [3000, 5000, 10000, 5000]), line('FILL', [20000, 25000, 27000, 25000])],
  });
  // no length limit here (the next test has it)
  const { plan } = planLayer(layerOf(2, [isl]), settings({ combing: 'all', combMaxTravel: 0 }), ['m'], { x: 3000, y: 3000 }, 5);
  const t = travels(plan.ops, { x: 3000, y: 3000 });
  const long = t.filter((m) => Math.hypot(m.x1 - m.x0, m.y1 - m.y0) > 5000);
  assert.ok(long.length >= 1);
  assert.ok(long.every((m) => !m.retracted));
  assert.ok(!plan.ops.some((o) => o.op === 'retract'));
});

test('a travel inside the part longer than combMaxTravel retracts; a combed one keeps its way round', () => {
  // 80 mm square: two infill lines 60 mm apart, the move between them straight inside the part
  const far = () =>
    squareIsland(0, 0, 80000, { infill: [line('FILL', [5000, 10000, 10000, 10000]), line('FILL', [70000, 10000, 75000, 10000])] });
  const start = { x: 5000, y: 10000 };
  // the moves over 30 mm: to the walls' seam in a corner, between the far infill lines (60 mm)
  const longMoves = (s: Partial<SliceSettings>) => {
    const { plan } = planLayer(layerOf(2, [far()]), settings({ combing: 'all', ...s }), ['m'], start, 5);
    const long = travels(plan.ops, start).filter((m) => Math.hypot(m.x1 - m.x0, m.y1 - m.y0) > 30000);
    assert.ok(long.some((m) => m.y0 === 10000 && m.y1 === 10000 && Math.abs(m.x1 - m.x0) === 60000), JSON.stringify(long));
    return long;
  };
  assert.ok(longMoves({}).every((m) => m.retracted), 'the default (30 mm) retracts every longer move');
  assert.ok(longMoves({ combMaxTravel: 0 }).every((m) => !m.retracted), '0 sets no limit');
  assert.ok(longMoves({ combMaxTravel: 150 }).every((m) => !m.retracted), 'moves under the limit are not retracted');
  // round a 10 mm hole with a 5 mm limit: retracted, and still round the hole, not over it
  const holed = squareIsland(0, 0, 30000, {
    hole: [10000, 10000, 10000],
    infill: [line('FILL', [3000, 15000, 5000, 15000]), line('FILL', [25000, 15000, 27000, 15000])],
  });
  const stats = { straight: 0, combed: 0, retracted: 0 };
  const from = { x: 3000, y: 15000 };
  const { plan } = planLayer(layerOf(2, [holed]), settings({ combing: 'all', combMaxTravel: 5 }), ['m'], from, 5, { travelStats: stats });
  // every leg from one side of the hole to the other: each on a way round, so longer than 5 mm
  const across = travels(plan.ops, from).filter((m) => Math.min(m.x0, m.x1) < 15000 && Math.max(m.x0, m.x1) > 15000);
  assert.ok(stats.retracted >= 1, JSON.stringify(stats));
  assert.ok(across.length >= 1, 'a move goes from one side of the hole to the other');
  for (const m of across) {
    assert.ok(m.retracted);
    for (let k = 1; k < 50; k++) {
      const x = m.x0 + ((m.x1 - m.x0) * k) / 50, y = m.y0 + ((m.y1 - m.y0) * k) / 50;
      assert.ok(!(x > 10000 && x < 20000 && y > 10000 && y < 20000), `over the hole: ${JSON.stringify(m)}`);
    }
  }
});

test('a move along the comb boundary (infill ends on the innermost wall) stays straight', () => {
  const run = (combArea: number[][]) => {
    // infill lines end at y = 700, 4 mm apart
    const isl = squareIsland(0, 0, 30000, {
      infill: [line('FILL', [5000, 10000, 5000, 700]), line('FILL', [9000, 700, 9000, 10000])],
    });
    isl.walls = [];
    isl.combArea = combArea;
    const stats = { straight: 0, combed: 0, retracted: 0 };
    const { plan } = planLayer(layerOf(2, [isl]), settings({ combing: 'all' }), ['m'], { x: 5000, y: 10000 }, 5, { travelStats: stats });
    const hop = travels(plan.ops, { x: 5000, y: 10000 }).find((m) => m.x0 === 5000 && m.y0 === 700);
    assert.deepEqual(hop, { x0: 5000, y0: 700, x1: 9000, y1: 700, retracted: false });
    assert.equal(stats.combed, 0);
  };
  // the boundary a hair above the ends: the move runs just outside the region
  run([[700, 720, 29300, 720, 29300, 29300, 700, 29300]]);
  // a notch in the boundary: the move wanders out of the region and back in
  run([[700, 690, 7000, 690, 7100, 780, 7200, 690, 29300, 690, 29300, 29300, 700, 29300]]);
});

test('a travel across a hole is combed around it, or retracted when combing is off', () => {
  // 30 mm square with a 10 mm hole in the middle; two infill lines on either side of the hole
  const mk = () =>
    squareIsland(0, 0, 30000, {
      hole: [10000, 10000, 10000],
      infill: [line('FILL', [3000, 15000, 5000, 15000]), line('FILL', [25000, 15000, 27000, 15000])],
    });
  const start = { x: 3000, y: 15000 };
  const crossesHole = (m: { x0: number; y0: number; x1: number; y1: number }) => {
    // sample the move: any point strictly inside the hole
    for (let k = 1; k < 50; k++) {
      const x = m.x0 + ((m.x1 - m.x0) * k) / 50, y = m.y0 + ((m.y1 - m.y0) * k) / 50;
      if (x > 10000 && x < 20000 && y > 10000 && y < 20000) return true;
    }
    return false;
  };
  // combing on: the infill-to-infill move goes round the hole, unretracted, never over it
  const stats = { straight: 0, combed: 0, retracted: 0 };
  const combed = planLayer(layerOf(2, [mk()]), settings({ combing: 'all' }), ['m'], start, 5, { travelStats: stats }).plan;
  const ct = travels(combed.ops, start);
  assert.ok(stats.combed >= 1, 'at least one combed route');
  assert.ok(!combed.ops.some((o) => o.op === 'retract'), 'no retraction needed');
  for (const m of ct) assert.ok(!crossesHole(m) || m.retracted, `move over the hole unretracted: ${JSON.stringify(m)}`);
  // combing off: whatever crosses the hole is retracted
  const off = planLayer(layerOf(2, [mk()]), settings({ combing: 'off' }), ['m'], start, 5).plan;
  const ot = travels(off.ops, start);
  assert.ok(ot.some(crossesHole), 'a straight move crosses the hole');
  for (const m of ot) if (crossesHole(m)) assert.ok(m.retracted);
});

test('a short travel over a narrow gap retracts although shorter than retractMinTravel', () => {
  // two squares 1 mm apart, the nozzle hops 1.2 mm from one to the other
  const a = squareIsland(0, 0, 10000, { infill: [line('FILL', [9800, 2000, 9800, 8000])] });
  const b = squareIsland(11000, 0, 10000, { infill: [line('FILL', [11200, 8000, 11200, 2000])] });
  a.walls = [];
  b.walls = [];
  const s = settings({ retractMinTravel: 1.5 });
  const { plan } = planLayer(layerOf(2, [a, b]), s, ['m'], { x: 9800, y: 1000 }, 5);
  const t = travels(plan.ops, { x: 9800, y: 1000 });
  const hop = t.find((m) => m.x0 === 9800 && m.x1 === 11200);
  assert.ok(hop, 'the hop exists');
  assert.ok(Math.hypot(hop.x1 - hop.x0, hop.y1 - hop.y0) < 1500);
  assert.ok(hop.retracted);
});

test('two islands: the move between them retracts; z-hop lifts and lowers around it', () => {
  const a = squareIsland(0, 0, 10000);
  const b = squareIsland(30000, 0, 10000);
  const s = settings({ zHop: 0.4 });
  const { plan } = planLayer(layerOf(4, [a, b]), s, ['m'], { x: 0, y: 0 }, 10);
  const t = travels(plan.ops, { x: 0, y: 0 });
  const between = t.filter((m) => (m.x0 < 10000) !== (m.x1 < 10000));
  assert.equal(between.length, 1);
  assert.ok(between[0].retracted);
  const i = plan.ops.findIndex((o) => o.op === 'retract');
  assert.deepEqual(plan.ops[i], { op: 'retract', length: 5, speed: 40 });
  const lift = plan.ops[i + 1] as { op: string; z?: number };
  assert.equal(lift.op, 'travel');
  assert.equal(lift.z, plan.z + 400);
  const down = plan.ops[i + 3] as { op: string; z?: number };
  assert.equal(down.z, plan.z);
  assert.deepEqual(plan.ops[i + 4], { op: 'unretract', length: 5, speed: 40 });
});

test('no retraction at layer change unless retractAtLayerChange', () => {
  const isl = squareIsland(0, 0, 20000);
  const layers = [0, 1].map((i) => layerOf(i, [isl]));
  const first = (plans: LayerPlan[]) => plans[1].ops.find((o) => o.op === 'retract' || o.op === 'extrude')!.op;
  assert.equal(first(planLayers(layers, settings(), ['m'])), 'extrude');
  // the first move of the print leaves the part (from the home position): retracted, as the peers do
  const skirt = loop('SKIRT', sq(-60000, -60000, 140000), -1);
  const l0 = planLayers([layerOf(0, [isl], [skirt])], settings(), ['m'])[0];
  assert.equal(l0.ops.find((o) => o.op === 'retract' || o.op === 'extrude')!.op, 'retract');
  assert.equal(first(planLayers(layers, settings({ retractAtLayerChange: true }), ['m'])), 'retract');
});

test('extrusion amount: bead cross-section × length / filament area, by free sides', () => {
  const isl = squareIsland(0, 0, 20000, { infill: [{ ...line('FILL', [2000, 10000, 12000, 10000]), flow: 0.5 }] });
  isl.walls = [];
  const s = settings({ flowMultiplier: 1.1 });
  const { plan } = planLayer(layerOf(1, [isl]), s, ['m'], { x: 2000, y: 10000 }, 5);
  const ex = plan.ops.filter((o) => o.op === 'extrude') as Array<{ e: number }>;
  assert.equal(ex.length, 1);
  const fil = Math.PI * (1.75 / 2) ** 2;
  // a sparse infill line has air on both sides: the rounded-rectangle section (w − h)·h + π h²/4
  const stadium = (w: number, h: number) => (w - h) * h + (Math.PI * h * h) / 4;
  const expected = (1.1 * 0.5 * stadium(0.4, 0.2) * 10) / fil;
  assert.ok(Math.abs(ex[0].e - expected) < 1e-9, `${ex[0].e} vs ${expected}`);
  // layer 0 uses its own (first-layer) height
  const l0 = { ...layerOf(0, [isl]), height: 300 };
  const e0 = (planLayer(l0, s, ['m'], { x: 2000, y: 10000 }, 5).plan.ops.find((o) => o.op === 'extrude') as { e: number }).e;
  assert.ok(Math.abs(e0 - (1.1 * 0.5 * stadium(0.4, 0.3) * 10) / fil) < 1e-9);
  // lines of a solid region lie side by side: the full rectangle
  isl.infill = [{ ...line('FILL', [2000, 10000, 12000, 10000]), freeSides: 0 }];
  const solid = planLayer(layerOf(1, [isl]), s, ['m'], { x: 2000, y: 10000 }, 5).plan.ops.find((o) => o.op === 'extrude') as { e: number };
  assert.ok(Math.abs(solid.e - (1.1 * 0.4 * 0.2 * 10) / fil) < 1e-9);
});

test('walls: the outer and the innermost wall each have one free side, walls between walls none', () => {
  // E per mm of path of each wall type on one layer
  const perMm = (isl: IslandPaths) => {
    const { plan } = planLayer(layerOf(1, [isl]), settings(), ['m'], { x: 0, y: 0 }, 5);
    const out = new Map<FeatureType, { e: number; mm: number }>();
    let type: FeatureType | null = null, x = 0, y = 0;
    for (const o of plan.ops) {
      if (o.op === 'feature') type = o.type;
      if (o.op === 'extrude' && type) {
        const f = out.get(type) ?? { e: 0, mm: 0 };
        f.e += o.e;
        f.mm += Math.hypot(o.x - x, o.y - y) / 1000;
        out.set(type, f);
      }
      if (o.op === 'travel' || o.op === 'extrude') {
        x = o.x;
        y = o.y;
      }
    }
    return new Map([...out].map(([k, v]) => [k, v.e / v.mm]));
  };
  const fil = Math.PI * (1.75 / 2) ** 2;
  const rect = (0.4 * 0.2) / fil;
  const side = (0.2 * 0.2 * (1 - Math.PI / 4)) / 2 / fil; // what one free side holds less
  const two = perMm(squareIsland(0, 0, 20000));
  assert.ok(Math.abs(two.get('WALL-OUTER')! - (rect - side)) < 1e-9);
  assert.ok(Math.abs(two.get('WALL-INNER')! - (rect - side)) < 1e-9);
  // three walls: the middle one lies between two walls
  const three = squareIsland(0, 0, 20000);
  three.walls.push([loop('WALL-INNER', sq(2.5 * W, 2.5 * W, 20000 - 5 * W))]);
  const byLoop = planLayer(layerOf(1, [three]), settings(), ['m'], { x: 0, y: 0 }, 5).plan.ops.filter((o) => o.op === 'extrude') as Array<{ e: number }>;
  const eInner = (s: number) => (4 * (s / 1000) * (rect - side));
  const eMiddle = 4 * ((20000 - 3 * W) / 1000) * rect;
  const total = byLoop.reduce((t, o) => t + o.e, 0);
  const expected = 4 * ((20000 - W) / 1000) * (rect - side) + eMiddle + eInner(20000 - 5 * W);
  assert.ok(Math.abs(total - expected) < 1e-6, `${total} vs ${expected}`);
  // one wall only: air outside, infill inside
  const one = squareIsland(0, 0, 20000);
  one.walls = [one.walls[0]];
  assert.ok(Math.abs(perMm(one).get('WALL-OUTER')! - (rect - 2 * side)) < 1e-9);
});

test('first-layer speeds; feature speeds above it', () => {
  const isl = squareIsland(0, 0, 20000, {
    skin: [line('SKIN', [2000, 5000, 18000, 5000])],
    infill: [line('FILL', [2000, 10000, 18000, 10000])],
  });
  const skirt = loop('SKIRT', sq(-6000, -6000, 32000), -1);
  const s = settings({ firstLayerSpeed: 20, skirtSpeed: 15, firstLayerTravelSpeed: 100, travelSpeed: 150 });
  const speedsBy = (ops: PlanOp[]) => {
    const m = new Map<string, Set<number>>();
    let cur = '';
    for (const o of ops) {
      if (o.op === 'feature') cur = o.type;
      if (o.op === 'extrude') m.set(cur, (m.get(cur) ?? new Set()).add(o.speed));
      if (o.op === 'travel') m.set('travel', (m.get('travel') ?? new Set()).add(o.speed));
    }
    return Object.fromEntries([...m].map(([k, v]) => [k, [...v]]));
  };
  const l0 = planLayer(layerOf(0, [isl], [skirt]), s, ['m'], { x: 0, y: 0 }, 5).plan;
  assert.deepEqual(features(l0.ops)[0], 'SKIRT');
  const f0 = l0.ops.find((o) => o.op === 'feature');
  assert.deepEqual(f0, { op: 'feature', type: 'SKIRT', model: -1 });
  assert.deepEqual(speedsBy(l0.ops), { SKIRT: [15], 'WALL-INNER': [20], 'WALL-OUTER': [20], SKIN: [20], FILL: [20], travel: [100] });
  const l1 = planLayer(layerOf(1, [isl]), s, ['m'], { x: 0, y: 0 }, 5).plan;
  assert.deepEqual(speedsBy(l1.ops), { 'WALL-INNER': [25], 'WALL-OUTER': [25], SKIN: [25], FILL: [50], travel: [150] });
});

test('fan: off on the first layer, ramps, full from fanFullLayer; written only on change', () => {
  const s = settings({ fanOffLayers: 1, fanFullLayer: 3, fanSpeed: 100 });
  assert.deepEqual([0, 1, 2, 3].map((i) => fanPercent(i, s)), [0, 50, 100, 100]);
  const s2 = settings({ fanOffLayers: 2, fanFullLayer: 6, fanSpeed: 80 });
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6].map((i) => fanPercent(i, s2)), [0, 0, 20, 40, 60, 80, 80]);
  const isl = squareIsland(0, 0, 20000);
  const plans = planLayers([0, 1, 2, 3].map((i) => layerOf(i, [isl])), s, ['m']);
  const fans = plans.map((p) => p.ops.filter((o) => o.op === 'fan').map((o) => (o as { percent: number }).percent));
  assert.deepEqual(fans, [[0], [50], [100], []]);
  assert.equal(plans[1].ops[0].op, 'fan', 'at the start of the layer');
});

test('minimum layer time caps the fastest speeds first, down to minPrintSpeed', () => {
  const ext = (x: number, speed: number): PlanOp => ({ op: 'extrude', x, y: 0, e: 1, speed });
  // 50 mm at 50 mm/s (1 s) then 50 mm at 25 mm/s (2 s)
  const mk = () => [ext(50000, 50), ext(100000, 25)];
  const s = (minLayerTime: number, minPrintSpeed = 5) => settings({ minLayerTime, minPrintSpeed });
  let ops = mk();
  assert.equal(applyMinLayerTime(ops, { x: 0, y: 0 }, s(2)), null, 'already slow enough');
  ops = mk();
  assert.ok(Math.abs(applyMinLayerTime(ops, { x: 0, y: 0 }, s(4))! - 25) < 1e-9);
  assert.deepEqual(ops.map((o) => (o as { speed: number }).speed), [25, 25]);
  ops = mk();
  assert.ok(Math.abs(applyMinLayerTime(ops, { x: 0, y: 0 }, s(5))! - 20) < 1e-9);
  const t = simpleLayerTime(ops, { x: 0, y: 0 });
  assert.ok(Math.abs(t.extrudeS + t.otherS - 5) < 1e-9);
  ops = mk();
  applyMinLayerTime(ops, { x: 0, y: 0 }, s(100, 10));
  assert.deepEqual(ops.map((o) => (o as { speed: number }).speed), [10, 10], 'never below minPrintSpeed');
  // travels count towards the layer time but keep their speed
  const withTravel: PlanOp[] = [{ op: 'travel', x: 150000, y: 0, speed: 150 }, { op: 'extrude', x: 200000, y: 0, e: 1, speed: 50 }];
  applyMinLayerTime(withTravel, { x: 0, y: 0 }, s(3));
  assert.equal((withTravel[0] as { speed: number }).speed, 150);
  assert.ok(Math.abs((withTravel[1] as { speed: number }).speed - 25) < 1e-9);
  // the planner applies it to whole layers
  const small = squareIsland(0, 0, 5000);
  const pl = planLayer(layerOf(5, [small]), settings({ minLayerTime: 10, minPrintSpeed: 10 }), ['m'], { x: 0, y: 0 }, 10).plan;
  assert.ok(pl.ops.filter((o) => o.op === 'extrude').every((o) => (o as { speed: number }).speed === 10));
});

test('monotonic skin: neighbouring lines always follow each other the same way', () => {
  // horizontal skin lines 0.4 mm apart, split by a hole between x = 8 and 12 mm on rows 3..6
  const lines: ExtrusionPath[] = [];
  for (let r = 0; r < 10; r++) {
    const y = 2000 + r * W;
    if (r >= 3 && r <= 6) {
      lines.push(line('SKIN', [2000, y, 8000, y]), line('SKIN', [12000, y, 18000, y]));
    } else lines.push(line('SKIN', [2000, y, 18000, y]));
  }
  const isl = squareIsland(0, 0, 20000, { skin: lines });
  isl.walls = [];
  /** The printed lines in order; the sign of y-steps between overlapping neighbours (+1 up, −1 down). */
  const run = (start: { x: number; y: number }) => {
    const { plan } = planLayer(layerOf(1, [isl]), settings({ monotonicSkin: true }), ['m'], start, 5);
    const printed: Array<{ y: number; x0: number; x1: number }> = [];
    let x = start.x;
    for (const o of plan.ops) {
      if (o.op === 'extrude') printed.push({ y: o.y, x0: Math.min(x, o.x), x1: Math.max(x, o.x) });
      if (o.op === 'extrude' || o.op === 'travel') x = o.x;
    }
    assert.equal(printed.length, lines.length);
    const signs = new Set<number>();
    for (let i = 0; i < printed.length; i++) {
      for (let j = i + 1; j < printed.length; j++) {
        const a = printed[i], b = printed[j];
        const overlap = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0) > 0;
        if (overlap && Math.abs(a.y - b.y) === W) signs.add(Math.sign(b.y - a.y));
      }
    }
    // each line starts at the end nearer the previous line's end: directions alternate
    const ends = plan.ops.filter((o) => o.op === 'extrude').map((o) => (o as { x: number }).x);
    assert.notEqual(ends[0], ends[1]);
    return [...signs];
  };
  assert.deepEqual(run({ x: 1000, y: 1000 }), [1], 'from below: upwards only');
  assert.deepEqual(run({ x: 19000, y: 19000 }), [-1], 'from above: downwards only');
});

test('an unknown start (a batch on another thread): the first move retracts and goes straight there', () => {
  const isl = squareIsland(0, 0, 20000);
  const { plan } = planLayer(layerOf(5, [isl]), settings({ zHop: 0.4 }), ['m'], null, 10);
  const moves = plan.ops.filter((o) => o.op !== 'fan' && o.op !== 'feature');
  assert.deepEqual(moves[0], { op: 'retract', length: 5, speed: 40 });
  const [sx, sy] = featureStarts(plan.ops, 'WALL-INNER')[0];
  assert.deepEqual(moves[1], { op: 'travel', x: sx, y: sy, z: plan.z + 400, speed: 150 });
  assert.deepEqual(moves[2], { op: 'travel', x: sx, y: sy, z: plan.z, speed: 5 });
  assert.equal(moves[3].op, 'unretract');
});

test('paths with fewer than two points are skipped', () => {
  const isl = squareIsland(0, 0, 20000, { infill: [line('FILL', []), line('FILL', [5000, 5000]), line('FILL', [5000, 6000, 9000, 6000])] });
  const { plan } = planLayer(layerOf(1, [isl]), settings(), ['m'], { x: 0, y: 0 }, 3);
  const ops = plan.ops.filter((o) => o.op === 'travel' || o.op === 'extrude') as Array<{ x: number; y: number }>;
  assert.ok(ops.every((o) => Number.isFinite(o.x) && Number.isFinite(o.y)));
  assert.ok(!ops.some((o) => o.x === 5000 && o.y === 5000), 'no move to a lone point');
});

test('planLayers throws SliceCancelled when the signal fires', () => {
  const ac = new AbortController();
  ac.abort();
  const layers = [layerOf(0, [squareIsland(0, 0, 10000)])];
  assert.throws(() => planLayers(layers, settings(), ['m'], ac.signal), SliceCancelled);
});

test('planLayers equals planLayer chained through each end position, from an unknown start', () => {
  const isl = squareIsland(0, 0, 20000, { infill: [line('FILL', [5000, 10000, 15000, 10000])] });
  const s = settings();
  const layers = [0, 1, 2].map((i) => layerOf(i, [isl]));
  const all = planLayers(layers, s, ['m']);
  // where the start G-code left the nozzle is not known: the first layer starts retracted
  let pos: { x: number; y: number } | null = null;
  assert.equal(all[0]!.ops.find((o) => o.op === 'retract' || o.op === 'travel' || o.op === 'extrude')?.op, 'retract');
  layers.forEach((l, i) => {
    const r = planLayer(l, s, ['m'], pos, 3);
    assert.deepEqual(r.plan, all[i]);
    const last = [...r.plan.ops].reverse().find((o) => o.op === 'extrude') as { x: number; y: number };
    assert.deepEqual(r.end, { x: last.x, y: last.y });
    pos = r.end;
  });
});

test('bridge lines: their own feature op after the plain skin, bridge fan around them, the mark survives packing', async () => {
  const { encodePlans, decodePlans } = await import('../src/engine/plan/codec.js');
  const s = settings({ bridgeFan: 40, bridgeSpeed: 12 });
  const skin = [line('SKIN', [1000, 1000, 9000, 1000]), line('SKIN', [1000, 1400, 9000, 1400])];
  const bridge: ExtrusionPath[] = [1800, 2200, 2600].map((y) => ({ ...line('SKIN', [1000, y, 9000, y]), bridge: true, speed: 12, flow: 0.9 }));
  const layer = layerOf(5, [squareIsland(0, 0, 10000, { skin: [...skin, ...bridge] })]);
  const { plan } = planLayer(layer, s, ['m'], { x: 0, y: 0 }, 10);
  const marks = plan.ops.filter((o) => o.op === 'feature' || o.op === 'fan').map((o) => (o.op === 'fan' ? `fan ${o.percent}` : `${o.type}${o.bridge ? ' bridge' : ''}`));
  assert.deepEqual(marks.slice(-4), ['SKIN', 'SKIN bridge', 'fan 40', 'fan 100']);
  // every extrusion between the bridge mark and the fan's return is a bridge line at the bridge speed
  const from = plan.ops.findIndex((o) => o.op === 'feature' && o.bridge);
  const to = plan.ops.findIndex((o, i) => i > from && o.op === 'fan' && o.percent === 100);
  const inBridge = plan.ops.slice(from, to).filter((o) => o.op === 'extrude');
  assert.equal(inBridge.length, 3);
  assert.ok(inBridge.every((o) => o.op === 'extrude' && o.speed === 12));
  const decoded = decodePlans(encodePlans([plan]))[0];
  assert.deepEqual(decoded.ops.filter((o) => o.op === 'feature'), plan.ops.filter((o) => o.op === 'feature'));
});

test('packed plans read back layer by layer with reused move objects equal the plans packed', async () => {
  const { encodePlans, packedPlanSource } = await import('../src/engine/plan/codec.js');
  const s = settings({ zHop: 0.4, retractMinTravel: 0.5 });
  // two layers of two islands each (travels between them, with a z-hop), then a smaller third
  const plans = [0, 1, 2].map((i) => {
    const islands = i < 2 ? [squareIsland(0, 0, 10000), squareIsland(20000, 0, 8000)] : [squareIsland(0, 0, 5000)];
    return planLayer(layerOf(i, islands), s, ['m'], { x: 0, y: 0 }, 10).plan;
  });
  assert.ok(plans[0].ops.some((o) => o.op === 'travel' && o.z !== undefined), 'a lifted travel is among the ops');
  const copies = plans.map((p) => structuredClone(p));
  const source = packedPlanSource([encodePlans(plans)]);
  const firstMoves: PlanOp[] = [];
  for (let i = 0; i < source.length; i++) {
    const got = source.get(i);
    // each layer as it was, read before the next one is asked for (a z-less travel has no z key)
    assert.deepEqual(got, copies[i], `layer ${i}`);
    firstMoves.push(got.ops.find((o) => o.op === 'extrude')!);
  }
  // the moves of each layer are the same objects, filled again: no garbage per move
  assert.equal(firstMoves[1], firstMoves[0]);
  assert.equal(firstMoves[2], firstMoves[0]);
});
