// Gap fill of a gap about as long as it is wide (the last square between a small pin's walls, a
// cone's tip): its line must carry the plastic the gap holds. It used to follow the few-µm sliver
// at the gap's middle, a line of 40–80 µm that carried a fifth of it, or a twentieth on a round tip.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initGeometry } from '../src/engine/geom/clipper.js';
import { pathLength } from '../src/engine/geom/path-math.js';
import { dabLine, gapFillLines } from '../src/engine/regions/gap-fill.js';
import { computeWalls } from '../src/engine/regions/walls.js';
import { rng } from './mesh-fixtures.js';

function square(cx: number, cy: number, side: number): number[] {
  const h = side / 2;
  return [cx - h, cy - h, cx + h, cy - h, cx + h, cy + h, cx - h, cy + h];
}

function circle(cx: number, cy: number, r: number, n: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(Math.round(cx + r * Math.cos((2 * Math.PI * i) / n)), Math.round(cy + r * Math.sin((2 * Math.PI * i) / n)));
  return out;
}

/** Bead area (length × width) of all lines: what their extrusion carries per unit of layer height. */
function carried(lines: { points: number[]; closed: boolean; width: number }[]): number {
  return lines.reduce((sum, l) => sum + pathLength(l.points, l.closed) * l.width, 0);
}

test('a 0.4 mm square gap gets one line that carries its area, parallel to two of its sides', async () => {
  await initGeometry();
  const gap = square(5000, 7000, 400);
  const lines = gapFillLines([gap], { width: 400, minWidth: 100, model: 0 });
  assert.equal(lines.length, 1);
  const [line] = lines;
  assert.equal(line.closed, false);
  assert.equal(line.points.length, 4);
  const area = 400 * 400;
  // within 10 % of the gap's area (the line stops at the square's sides: 400 µm at most)
  assert.ok(Math.abs(carried(lines) - area) <= 0.1 * area, `carries ${carried(lines)} of ${area} µm²`);
  // parallel to a side, through the centre
  const [x0, y0, x1, y1] = line.points;
  assert.ok(x0 === x1 || y0 === y1, `not parallel to a side: ${line.points}`);
  assert.equal((x0 + x1) / 2, 5000);
  assert.equal((y0 + y1) / 2, 7000);
});

test('a round gap (a cone tip inside its wall) gets a line that carries its area, inside the gap', async () => {
  await initGeometry();
  const r = 250;
  const gap = circle(0, 0, r, 48);
  const lines = gapFillLines([gap], { width: 400, minWidth: 100, model: 0 });
  assert.equal(lines.length, 1);
  const area = Math.PI * r * r;
  assert.ok(Math.abs(carried(lines) - area) <= 0.1 * area, `carries ${carried(lines)} of ${area} µm²`);
  for (let i = 0; i < lines[0].points.length; i += 2) assert.ok(Math.hypot(lines[0].points[i], lines[0].points[i + 1]) <= r);
});

test('a long strip keeps its line along the middle: the dab rule is for gaps about as long as wide', async () => {
  await initGeometry();
  const strip = [0, 0, 5000, 0, 5000, 300, 0, 300];
  const lines = gapFillLines([strip], { width: 400, minWidth: 100, model: 0 });
  assert.equal(lines.length, 1);
  const len = pathLength(lines[0].points, false);
  assert.ok(len > 4000 && len <= 5000, `line of ${len} µm`);
  for (let i = 1; i < lines[0].points.length; i += 2) assert.ok(Math.abs(lines[0].points[i] - 150) <= 20);
});

test('dabLine: along the long side of the smallest bounding rectangle, never longer than it, only for a compact gap', () => {
  // a 560 × 300 rectangle turned by 30°: the line runs along its 560 µm side
  const a = Math.PI / 6;
  const rect = [
    [-280, -150], [280, -150], [280, 150], [-280, 150],
  ].flatMap(([x, y]) => [Math.round(x * Math.cos(a) - y * Math.sin(a)), Math.round(x * Math.sin(a) + y * Math.cos(a))]);
  const line = dabLine([rect], 560 * 300, 300);
  const [x0, y0, x1, y1] = line;
  const direction = ((Math.atan2(y1 - y0, x1 - x0) % Math.PI) + Math.PI) % Math.PI;
  assert.ok(Math.abs(direction - a) < 0.01, `direction ${direction}, the long side's ${a}`);
  assert.ok(Math.abs(Math.hypot(x1 - x0, y1 - y0) - 560) <= 2);
  // a bead twice as wide needs only half the length
  assert.ok(Math.abs(Math.hypot(...((l) => [l[2] - l[0], l[3] - l[1]])(dabLine([rect], 560 * 300, 600))) - 280) <= 2);
  // nothing to carry, or a gap more than two beads long (no dab: its line follows its middle): no line
  assert.deepEqual(dabLine([rect], 0, 300), []);
  assert.deepEqual(dabLine([rect], 560 * 300, 250), []);
});

test('a 1 mm pin: the 0.2 mm hole its outer wall leaves in the middle is found and filled', async () => {
  await initGeometry();
  // the outer wall's centre line runs 0.3 mm from the centre and covers 0.1–0.5 mm; no second wall fits
  const pin = circle(0, 0, 500, 64);
  const r = computeWalls([pin], { width: 400, wallCount: 2, model: 0, minGapWidth: 100, gapFill: true });
  assert.equal(r.walls.filter((loops) => loops.length > 0).length, 1, 'one wall');
  assert.ok(r.gaps.length > 0, 'the middle is a gap (it was not looked for: less than half a line squared)');
  const lines = gapFillLines(r.gaps, { width: 400, minWidth: 100, model: 0 });
  assert.equal(lines.length, 1);
  const area = Math.PI * 100 * 100;
  assert.ok(carried(lines) >= 0.5 * area, `carries ${carried(lines)} of about ${area} µm²`);
});

test('a gap whose lines carry too little to be worth their travel and prime is left out; a rippling one is not', async () => {
  await initGeometry();
  const p = { width: 400, minWidth: 100, model: 0 };
  const rect = (x: number, y: number, w: number, h: number) => [x, y, x + w, y, x + w, y + h, x, y + h];
  // a gap of 0.12 × 0.12 mm (under twice the narrowest width squared): nothing; 0.25 × 0.2 mm: a dab
  assert.deepEqual(gapFillLines([rect(0, 0, 120, 120)], p), []);
  assert.equal(gapFillLines([rect(0, 0, 250, 200)], p).length, 1);
  // a long gap whose width ripples is cut into many short lines of even width: each carries little,
  // the gap much, and it is filled
  const ripple: number[] = [];
  for (let x = 0; x <= 10_000; x += 10) ripple.push(x, Math.round(100 + 20 * Math.sin((2 * Math.PI * x) / 300)));
  for (let x = 10_000; x >= 0; x -= 10) ripple.push(x, -Math.round(100 + 20 * Math.sin((2 * Math.PI * x) / 300)));
  const rippleLines = gapFillLines([ripple], p);
  // (about a quarter of its 2 mm²: the medial axis of a ripple this fine gives short dabs; the
  // figure before any minimum, 0.46 mm², is the floor here)
  assert.ok(carried(rippleLines) > 0.4e6, `a 10 mm gap 0.2 ± 0.04 mm wide carries ${carried(rippleLines)} µm²`);
  // whatever the gaps, no gap's lines carry less than an eighth of a square line in all (sharp tips
  // used to leave 0.06 mm lines of 0.004 mm³, each with a retraction)
  const random = rng(5);
  for (let trial = 0; trial < 200; trial++) {
    const n = 3 + Math.floor(random() * 5);
    const r = 100 + random() * 600;
    const gap = circle(5000, 5000, r, n).map((v, i) => (i % 2 ? v : Math.round(5000 + (v - 5000) * (0.2 + random()))));
    const lines = gapFillLines([gap], p);
    assert.ok(lines.length === 0 || carried(lines) >= (400 * 400) / 8, `trial ${trial}: lines carrying ${carried(lines)} µm²`);
  }
});

test('a fin thinner than a line beside a walled part is its outer surface: printed as the outer wall, at its speed', async () => {
  await initGeometry();
  // computeWalls keeps the fin apart from the gaps between and inside the walls
  const fin = [0, 0, 10_000, 0, 10_000, 4_850, 14_000, 4_850, 14_000, 5_150, 10_000, 5_150, 10_000, 10_000, 0, 10_000];
  const r = computeWalls([fin], { width: 400, wallCount: 2, model: 0, minGapWidth: 100, gapFill: true });
  assert.ok(r.outerGaps.length > 0, 'the fin is not found');
  assert.deepEqual(r.gaps, [], 'the fin counted as a gap between the walls');
  // through the engine: every extrusion over the fin (x > 10.5 mm from the part's corner) is the outer wall
  const { slice } = await import('../src/engine/pipeline.js');
  const { defaultSettings } = await import('../src/profiles/defaults.js');
  const { box, merge } = await import('./mesh-fixtures.js');
  const t = merge(box(0, 0, 0, 10, 10, 2), box(10, 4.85, 0, 14, 5.15, 2));
  const s = defaultSettings();
  const out = await slice([{ name: 'fin', mesh: { positions: Float32Array.from(t.positions), indices: Uint32Array.from(t.indices) } }], s);
  const gcode = new TextDecoder().decode(out.output);
  // the part is centred on the bed: its corner at (bed centre − 7, bed centre − 5)
  const x0 = s.bedWidth / 2 - 7;
  let type = '';
  let layer = -1;
  let feed = 0;
  let onFin = 0;
  // per layer: the feed rates of the outer wall on the square, and of whatever is printed on the fin
  const wallFeeds = new Map<number, Set<number>>();
  const finFeeds = new Map<number, Set<number>>();
  const add = (m: Map<number, Set<number>>, f: number) => m.set(layer, (m.get(layer) ?? new Set()).add(f));
  for (const line of gcode.split('\n')) {
    if (line.startsWith(';LAYER:')) layer = Number(line.slice(7));
    if (line.startsWith(';TYPE:')) type = line.slice(6);
    const f = /^G[01] .*F([\d.]+)/.exec(line);
    if (f) feed = Number(f[1]);
    const m = /^G1 X([\d.]+) Y[\d.]+ E/.exec(line);
    if (!m || layer < 1) continue; // layer 0 has the skirt around the part
    if (Number(m[1]) - x0 > 10.5) {
      onFin++;
      assert.equal(type, 'WALL-OUTER', `layer ${layer}: an extrusion on the fin at x ${m[1]} is ${type}`);
      add(finFeeds, feed);
    } else if (type === 'WALL-OUTER') add(wallFeeds, feed);
  }
  for (const [l, feeds] of finFeeds) for (const f of feeds) assert.ok(wallFeeds.get(l)?.has(f), `layer ${l}: the fin at F${f}, the outer wall at ${[...(wallFeeds.get(l) ?? [])]}`);
  assert.ok(onFin >= 9, `only ${onFin} extrusions on the fin (one line a layer on layers 1-9)`);
});
