// The print-time simulation against hand-computed trapezoids, and the G-code move parser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { simulate, simulateSteps, parseGcode, estimateLayerTimes, type MachineLimits, type MoveInput } from '../src/engine/output/index.js';
import { trapezoidTime } from '../src/engine/output/trapezoid.js';
import { defaultSettings } from '../src/profiles/defaults.js';
import type { LayerPlan } from '../src/engine/plan/types.js';

/** Limits of the default profile (the peers' Ender 3 setup), with overrides. */
function limits(over: Partial<MachineLimits> = {}): MachineLimits {
  return {
    maxFeedrate: [500, 500, 10, 50],
    maxAccel: [500, 500, 100, 5000],
    maxJerk: [10, 10, 0.4, 5],
    printAccel: 500,
    travelAccel: 500,
    retractAccel: 1000,
    junctionDeviation: 0,
    ...over,
  };
}
const NO_JERK = { maxJerk: [0, 0, 0, 0] as const };
const close = (actual: number, expected: number, tol = 1e-9) =>
  assert.ok(Math.abs(actual - expected) <= tol, `expected ${expected}, got ${actual}`);

test('a single 100 mm move at 50 mm/s, a = 500, from rest to rest: 100/50 + 50/500 = 2.1 s', () => {
  const r = simulate([{ dx: 100, dy: 0, feed: 50 }], limits(NO_JERK));
  close(r.totalS, 2.1);
});

test('a short move never reaches cruise speed: a triangle', () => {
  // 2 mm at a = 500: peak sqrt(a·d) = sqrt(1000) ≈ 31.6 mm/s < 50; t = 2·peak/a
  const r = simulate([{ dx: 2, dy: 0, feed: 50 }], limits(NO_JERK));
  close(r.totalS, (2 * Math.sqrt(1000)) / 500);
  assert.ok(r.totalS > 2 / 50, 'slower than at constant cruise speed');
});

test('jerk lets a move start and end at the jerk speed', () => {
  // X jerk 10: start and end at 10 mm/s; ramps of (50²−10²)/(2·500) = 2.4 mm taking 0.08 s each
  const r = simulate([{ dx: 100, dy: 0, feed: 50 }], limits());
  close(r.totalS, 2 * 0.08 + (100 - 4.8) / 50);
});

test('two collinear moves: no slowdown at the junction', () => {
  const r = simulate(
    [
      { dx: 50, dy: 0, feed: 50 },
      { dx: 50, dy: 0, feed: 50 },
    ],
    limits(NO_JERK),
  );
  close(r.totalS, 2.1);
  close(r.moveTimes[0]!, 0.1 + 47.5 / 50); // accelerate, then cruise to the end: no deceleration
  close(r.moveTimes[1]!, 0.1 + 47.5 / 50);
});

test('look-ahead across many short collinear segments equals one long move', () => {
  const moves: MoveInput[] = Array.from({ length: 100 }, () => ({ dx: 1, dy: 0, feed: 50 }));
  close(simulate(moves, limits(NO_JERK)).totalS, 2.1, 1e-9);
});

test('a 90° corner with jerk 10: the junction speed is limited to 10 mm/s', () => {
  const corner = [
    { dx: 100, dy: 0, feed: 50 },
    { dx: 0, dy: 100, feed: 50 },
  ];
  const r = simulate(corner, limits());
  // each leg: 10 → 50 → 10 mm/s (ramps 2.4 mm, 0.08 s), like the single move with jerk above
  const leg = 2 * 0.08 + (100 - 4.8) / 50;
  close(r.moveTimes[0]!, leg);
  close(r.moveTimes[1]!, leg);
  // without jerk the corner is a full stop: slower
  close(simulate(corner, limits(NO_JERK)).totalS, 4.2);
});

test('a 45° turn with jerk 10: junction 10·√2 (X coasts, Y starts)', () => {
  const s = Math.SQRT1_2 * 100;
  const r = simulate(
    [
      { dx: 100, dy: 0, feed: 50 },
      { dx: s, dy: s, feed: 50 },
    ],
    limits(),
  );
  // per axis: X 50 → 35.36 (jump 14.6 > 10), Y 0 → 35.36: scaled until both jumps are within 10,
  // which leaves the junction at 10·√2 ≈ 14.14 mm/s
  const vj = 10 * Math.SQRT2;
  const ramp = (v0: number, v1: number) => ({ d: Math.abs(v1 * v1 - v0 * v0) / 1000, t: Math.abs(v1 - v0) / 500 });
  const up = ramp(10, 50);
  const down = ramp(50, vj);
  close(r.moveTimes[0]!, up.t + down.t + (100 - up.d - down.d) / 50);
  const up2 = ramp(vj, 50);
  const down2 = ramp(50, 10);
  close(r.moveTimes[1]!, up2.t + down2.t + (100 - up2.d - down2.d) / 50);
});

test('junction deviation at a 90° corner: v² = a·δ·sin(θ/2)/(1 − sin(θ/2))', () => {
  const r = simulate(
    [
      { dx: 100, dy: 0, feed: 50 },
      { dx: 0, dy: 100, feed: 50 },
    ],
    limits({ junctionDeviation: 0.05 }),
  );
  const sinHalf = Math.SQRT1_2;
  const vj = Math.sqrt((500 * 0.05 * sinHalf) / (1 - sinHalf));
  const dDown = (2500 - vj * vj) / 1000;
  // starts from rest (no classic jerk), 0 → 50 → vj
  close(r.moveTimes[0]!, 0.1 + (50 - vj) / 500 + (100 - 2.5 - dDown) / 50);
  close(r.moveTimes[1]!, (50 - vj) / 500 + 0.1 + (100 - 2.5 - dDown) / 50);
});

test('a retract is an extruder-only move at the retract acceleration', () => {
  // 5 mm at 40 mm/s, a = 1000, E jerk 5: ramps 5 → 40 of 0.7875 mm taking 0.035 s each
  const r = simulate([{ dx: 0, dy: 0, de: -5, feed: 40 }], limits());
  close(r.totalS, 2 * 0.035 + (5 - 2 * 0.7875) / 40);
});

test('per-axis limits: a Z move is capped at the Z feedrate and acceleration', () => {
  // asked for 50 mm/s, Z allows 10 mm/s at 100 mm/s² with jerk 0.4
  const r = simulate([{ dx: 0, dy: 0, dz: 2, feed: 50 }], limits());
  const d = (100 - 0.16) / 200;
  close(r.totalS, (2 * 9.6) / 100 + (2 - 2 * d) / 10);
});

test('moves that go nowhere take no time', () => {
  const r = simulate(
    [
      { dx: 0, dy: 0, feed: 50 },
      { dx: 10, dy: 0, feed: 0 },
    ],
    limits(),
  );
  assert.equal(r.totalS, 0);
});

test('trapezoidTime: cruise, triangle and degenerate ramp', () => {
  close(trapezoidTime(100, 0, 50, 0, 500), 2.1);
  close(trapezoidTime(1, 0, 50, 0, 500), (2 * Math.sqrt(500)) / 500);
  close(trapezoidTime(1, 10, 50, 10, Infinity), 1 / 50);
});

test('parseGcode: absolute/relative modes, G92, G28, comments and layer markers', () => {
  const text = [
    'G28 ; home',
    'G1 Z2 F600',
    'G92 E0',
    ';LAYER:0',
    'G1 X10 Y0 F1200 E1.5 ; extrude',
    'G1 E-3.5 F2400',
    'M83',
    'G1 E2',
    ';LAYER_CHANGE',
    'G91',
    'G1 X5 E0.5',
    'G90',
    'G1 X20 Y5',
    'G4 P500',
    'g1 x20 y5',
    '  G1 X20 Y6',
  ].join('\n');
  const p = parseGcode(text);
  const m = p.moves;
  assert.equal(m.length, 7);
  assert.deepEqual(p.layerStarts, [1, 4]);
  assert.deepEqual([m.dx[0], m.dz[0], m.feed[0]], [0, 2, 10]);
  assert.deepEqual([m.dx[1], m.de[1], m.feed[1]], [10, 1.5, 20]);
  assert.deepEqual([m.de[2], m.feed[2]], [-5, 40]);
  assert.equal(m.de[3], 2); // M83: relative E
  assert.deepEqual([m.dx[4], m.de[4]], [5, 0.5]); // G91
  assert.deepEqual([m.dx[5], m.dy[5], m.de[5]], [5, 5, 0]); // back to absolute XY
  assert.deepEqual([m.dy[6]], [1]);
  close(p.dwellS, 0.5);
  close(p.netE, 1.5 - 5 + 2 + 0.5);
  assert.deepEqual({ x: p.end.x, y: p.end.y, z: p.end.z, relativeE: p.end.relativeE }, { x: 20, y: 6, z: 2, relativeE: true });
});

test('estimateLayerTimes: one value per layer, matching the simulation of the same moves', () => {
  const s = defaultSettings();
  const square = (z: number, speed: number): LayerPlan => ({
    index: z / 200 - 1,
    z,
    height: 200,
    ops: [
      { op: 'travel', x: 100000, y: 100000, speed: 150 },
      { op: 'extrude', x: 120000, y: 100000, e: 0.66, speed },
      { op: 'extrude', x: 120000, y: 120000, e: 0.66, speed },
      { op: 'extrude', x: 100000, y: 120000, e: 0.66, speed },
      { op: 'extrude', x: 100000, y: 100000, e: 0.66, speed },
    ],
  });
  // one layer: four 20 mm sides at 25 mm/s with 90° corners (jerk 10): each side 10 → 25 → 10 mm/s
  const side = 2 * (15 / 500) + (20 - 2 * ((625 - 100) / 1000)) / 25;
  const single = estimateLayerTimes([square(200, 25)], s);
  assert.equal(single.length, 1);
  close(single[0]!, 4 * side, 1e-9);

  // two layers: the same moves as a hand-built list (the second layer starts with its Z move, 0.2 mm at
  // zSpeed), split at the layer boundary; the first layer now ends at the junction with that Z move
  const times = estimateLayerTimes([square(200, 25), square(400, 50)], s);
  assert.equal(times.length, 2);
  const sides = (feed: number): MoveInput[] =>
    [[20, 0], [0, 20], [-20, 0], [0, -20]].map(([dx, dy]) => ({ dx: dx!, dy: dy!, de: 0.66, feed }));
  const all = simulate([...sides(25), { dx: 0, dy: 0, dz: 0.2, feed: 5 }, ...sides(50)], limits());
  const t = [...all.moveTimes];
  close(times[0]!, t.slice(0, 4).reduce((a, b) => a + b), 1e-9);
  close(times[1]!, t.slice(4).reduce((a, b) => a + b), 1e-9);
  assert.ok(times[0]! > 4 * side, 'slowing into the Z move costs time');
  assert.ok(times[1]! < times[0]!, 'the faster layer is quicker');
});

test('the simulation yields between blocks of moves in each of its four passes, with the same times', () => {
  // 600,000 moves: three blocks of 2^18 a pass; a zigzag of prints, travels and retractions
  const moves: MoveInput[] = [];
  for (let i = 0; i < 600_000; i++) {
    const k = i % 4;
    moves.push(k === 3 ? { dx: 0, dy: 0, de: -0.8, feed: 40 } : { dx: k === 1 ? -3 : 5, dy: k * 0.7, de: k === 2 ? 0 : 0.2, feed: k === 2 ? 150 : 40 });
  }
  const steps = simulateSteps(moves, limits());
  let yields = 0;
  let r = steps.next();
  while (!r.done) {
    yields++;
    r = steps.next();
  }
  assert.equal(yields, 4 * 3);
  const whole = simulate(moves, limits());
  assert.equal(r.value.totalS, whole.totalS);
  assert.deepEqual(r.value.moveTimes, whole.moveTimes);
  assert.ok(whole.totalS > 0 && Number.isFinite(whole.totalS));
});
