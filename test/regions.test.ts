import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clipLines, initGeometry, intersection, offset, union } from '../src/engine/geom/clipper.js';
import { areaOf, bboxOf, pathLength } from '../src/engine/geom/path-math.js';
import { computeWalls } from '../src/engine/regions/walls.js';
import { fillForLayer, innerAreasByModel, wallsForLayer } from '../src/engine/regions/build.js';
import { commonArea, splitSkin } from '../src/engine/regions/skins.js';
import { gapFillLines } from '../src/engine/regions/gap-fill.js';
import { connectAlongEdge } from '../src/engine/regions/infill-connect.js';
import { infillLines } from '../src/engine/infill/index.js';
import { layerSpecs } from '../src/engine/setup/layer-heights.js';
import { placeModels } from '../src/engine/setup/place.js';
import { defaultSettings } from '../src/profiles/defaults.js';
import { SliceError } from '../src/engine/types.js';
import { rng } from './mesh-fixtures.js';

const square = (x: number, y: number, s: number) => [x, y, x + s, y, x + s, y + s, x, y + s];
const holeCW = (x: number, y: number, s: number) => [x, y, x, y + s, x + s, y + s, x + s, y];
const W = 400;
const wallParams = { width: W, wallCount: 2, model: 0, minGapWidth: 100, gapFill: true };

test('walls of a 20 mm square: outer loop half a line inside, inner loop one line further', async () => {
  await initGeometry();
  const r = computeWalls([square(0, 0, 20000)], wallParams);
  assert.equal(r.walls.length, 2);
  assert.equal(r.walls[0][0].type, 'WALL-OUTER');
  assert.equal(r.walls[1][0].type, 'WALL-INNER');
  assert.deepEqual(bboxOf([r.walls[0][0].points]), { minX: 200, minY: 200, maxX: 19800, maxY: 19800 });
  assert.deepEqual(bboxOf([r.walls[1][0].points]), { minX: 600, minY: 600, maxX: 19400, maxY: 19400 });
  assert.equal(pathLength(r.walls[0][0].points, true), 4 * 19600);
  // inner area starts at the inner wall's inner edge
  assert.equal(areaOf(r.innerArea), 18400 * 18400);
  assert.equal(r.gaps.length, 0, 'a square leaves no gaps');
});

test('walls of a square with a square hole: loops around the outside and around the hole', async () => {
  await initGeometry();
  const r = computeWalls([square(0, 0, 20000), holeCW(8000, 8000, 4000)], wallParams);
  assert.equal(r.walls[0].length, 2, 'outer wall: one loop outside, one around the hole');
  const hole = r.walls[0].find((p) => areaOf([p.points]) < 0)!;
  assert.deepEqual(bboxOf([hole.points]), { minX: 7800, minY: 7800, maxX: 12200, maxY: 12200 });
  assert.equal(areaOf(r.innerArea), 18400 * 18400 - 5600 * 5600);
});

test('a part 1 mm wide gets two walls and a gap fill line down the middle', async () => {
  await initGeometry();
  const strip = [0, 0, 30000, 0, 30000, 1000, 0, 1000];
  const r = computeWalls([strip], wallParams);
  assert.ok(r.walls[0].length >= 1);
  assert.ok(r.gaps.length > 0, 'the 0.2 mm middle strip is a gap');
  const lines = gapFillLines(r.gaps, { width: W, minWidth: 100, model: 0 });
  assert.ok(lines.length >= 1);
  const len = lines.reduce((s, l) => s + pathLength(l.points, false), 0);
  assert.ok(len > 25000, `gap fill runs along the strip (length ${len})`);
  for (const l of lines) {
    for (let i = 1; i < l.points.length; i += 2) assert.ok(Math.abs(l.points[i] - 500) <= 30, 'on the centre line');
  }
});

test('a part thinner than one line still prints as a single line', async () => {
  await initGeometry();
  const strip = [0, 0, 20000, 0, 20000, 350, 0, 350];
  const r = computeWalls([strip], wallParams);
  assert.equal(r.walls.length, 0);
  const lines = gapFillLines(r.gaps, { width: W, minWidth: 100, model: 0 });
  assert.equal(lines.length, 1);
  assert.ok(Math.abs(lines[0].width - 350) <= 20, `bead as wide as the part (${lines[0].width})`);
});

/** A rectangle `length` × `width` centred on (cx, cy), turned by `deg` degrees. */
const turnedBar = (cx: number, cy: number, length: number, width: number, deg: number): number[] => {
  const a = (deg * Math.PI) / 180, c = Math.cos(a), s = Math.sin(a);
  return [[-1, -1], [1, -1], [1, 1], [-1, 1]].flatMap(([u, v]) => [
    Math.round(cx + (u * length * c) / 2 - (v * width * s) / 2),
    Math.round(cy + (u * length * s) / 2 + (v * width * c) / 2),
  ]);
};
const gapFillLength = (lines: { points: number[]; closed: boolean }[]) => lines.reduce((s, l) => s + pathLength(l.points, l.closed), 0);

test('a gap exactly as wide as the narrowest filled (0.9 mm rib, two 0.4 mm walls) is filled', async () => {
  await initGeometry();
  const rib = [0, 0, 20000, 0, 20000, 900, 0, 900];
  const r = computeWalls([rib], wallParams);
  const lines = gapFillLines(r.gaps, { width: W, minWidth: 100, model: 0 });
  assert.ok(gapFillLength(lines) > 15000, `a 0.1 mm line down the rib (${gapFillLength(lines)} µm)`);
});

test('a tapering part gets gap fill all along, as wide as the gap is there', async () => {
  await initGeometry();
  // 20 mm long, 1.2 mm wide at one end and 1.0 mm at the other: one wall each side, a 0.4–0.2 mm gap
  const fin = [0, 0, 20000, 100, 20000, 1100, 0, 1200];
  const r = computeWalls([fin], wallParams);
  const lines = gapFillLines(r.gaps, { width: W, minWidth: 100, model: 0 });
  const len = gapFillLength(lines);
  // the widest spot alone gave 4 mm of line
  assert.ok(len > 17000, `gap fill runs down the fin (length ${len})`);
  const wideEnd = lines.reduce((a, b) => (Math.min(a.points[0], a.points.at(-2)!) < Math.min(b.points[0], b.points.at(-2)!) ? a : b));
  const narrowEnd = lines.reduce((a, b) => (Math.max(a.points[0], a.points.at(-2)!) > Math.max(b.points[0], b.points.at(-2)!) ? a : b));
  assert.ok(wideEnd.width > narrowEnd.width + 80, `bead wider at the wide end (${wideEnd.width} vs ${narrowEnd.width})`);
  for (const l of lines) assert.ok(l.width >= 100 && l.width <= 450, `bead ${l.width} µm`);
});

test('a long taper from nothing: gap fill in few moves, not one per step of width', async () => {
  await initGeometry();
  // a 50 mm wedge from a point to 0.6 mm, alone (a gap between walls of this shape): the axis runs
  // its length and the width grows from 0, cut into steps of 15 %; each step went out as its own
  // µm-long move (a self-crossing outline's wedges made a million moves a layer)
  const wedge = [[0, 0, 50000, -300, 50000, 300]];
  const lines = gapFillLines(wedge, { width: W, minWidth: 100, model: 0 });
  const points = lines.reduce((n, l) => n + l.points.length / 2, 0);
  const len = gapFillLength(lines);
  assert.ok(len > 35000, `gap fill where the wedge is at least 0.1 mm wide (${len} µm)`);
  assert.ok(points < 4 * lines.length + 20, `${points} points in ${lines.length} pieces`);
  const widths = lines.map((l) => l.width).sort((a, b) => a - b);
  assert.ok(widths[0] >= 100 && widths.at(-1)! > 450, `beads ${widths[0]}–${widths.at(-1)} µm`);
});

test('a crossing of two strokes gets gap fill down every arm, not only at the crossing', async () => {
  await initGeometry();
  const x = union([turnedBar(10000, 10000, 12000, 1200, 60), turnedBar(10000, 10000, 12000, 1200, -60)]);
  const r = computeWalls(x, wallParams);
  const lines = gapFillLines(r.gaps, { width: W, minWidth: 100, model: 0 });
  const len = gapFillLength(lines);
  // four arms of about 5.5 mm each; the sliver at the widest spot gave 0.1 mm
  assert.ok(len > 18000, `gap fill down the arms (length ${len})`);
  // every line keeps clear of the outline: the walls lie between (0.4 mm)
  const inside = offset(x, -300, 'miter', 2);
  const outsideParts = clipLines(lines.map((l) => l.points), inside, false);
  const outsideLen = outsideParts.reduce((s, p) => s + pathLength(p, false), 0);
  assert.ok(outsideLen < 50, `gap fill stays inside the part (${outsideLen} µm outside)`);
});

test('gap fill on random thin shapes: lines stay inside, none thinner than the minimum, no bead past 1.5 lines', async () => {
  await initGeometry();
  const rand = rng(2026);
  let axisLines = 0;
  for (let k = 0; k < 150; k++) {
    // a wobbly band: a random polyline of 3–6 points, thickened to 0.15–0.9 mm, varying along it
    const n = 3 + Math.floor(rand() * 4);
    const pts: number[] = [];
    for (let i = 0; i < n; i++) pts.push(Math.round(rand() * 20000), Math.round(rand() * 20000));
    const band = union(
      Array.from({ length: n - 1 }, (_, i) => {
        const [x0, y0, x1, y1] = pts.slice(2 * i, 2 * i + 4);
        const len = Math.hypot(x1 - x0, y1 - y0);
        return turnedBar((x0 + x1) / 2, (y0 + y1) / 2, len, 150 + rand() * 750, (Math.atan2(y1 - y0, x1 - x0) * 180) / Math.PI);
      }),
    );
    const lines = gapFillLines(band, { width: W, minWidth: 100, model: 0 });
    axisLines += lines.length;
    const grown = offset(band, 30, 'miter', 2);
    const outside = clipLines(lines.map((l) => l.points), grown, false).reduce((a, p) => a + pathLength(p, false), 0);
    assert.ok(outside < 1, `shape ${k}: ${outside} µm of gap fill outside the shape`);
    for (const l of lines) {
      assert.ok(l.width >= 100 && l.width <= 1.5 * W, `shape ${k}: bead ${l.width} µm`);
      assert.ok(l.points.every(Number.isFinite), `shape ${k}: finite points`);
    }
  }
  assert.ok(axisLines > 150, `lines were made (${axisLines})`);
});

test('skin detection: a ledge half-way up gets its own top skin', async () => {
  await initGeometry();
  // a 20 mm base under a 10 mm tower: on the base's last layer, the part not under the tower is top skin
  const base = [square(0, 0, 20000)];
  const tower = [square(5000, 5000, 10000)];
  const inner = [square(800, 800, 18400)];
  const above = commonArea([tower, tower, tower]);
  const below = commonArea([base, base, base]);
  const { solid, sparse } = splitSkin(inner, above, below, false, W);
  assert.equal(areaOf(solid), 18400 * 18400 - 10000 * 10000);
  assert.equal(areaOf(sparse), 10000 * 10000);
  // mid-tower layer: all sparse
  const mid = splitSkin([square(5800, 5800, 8400)], commonArea([tower, tower, tower]), commonArea([tower, tower, tower]), false, W);
  assert.equal(mid.solid.length, 0);
  // a layer with nothing above within 3 layers is all top skin
  const top = splitSkin(inner, commonArea([base, base, undefined]), below, false, W);
  assert.equal(areaOf(top.solid), 18400 * 18400);
  // ... sharp tips included (a 20° spike: the sliver opening would have left its tip to infill)
  const spike = [[0, 0, 20000, 3527, 0, 7054]];
  const none: typeof above = [];
  for (const [a, b] of [[above, none], [none, below]]) {
    const whole = splitSkin(spike, a, b, false, W, 500);
    assert.deepEqual(whole.solid, spike);
    assert.equal(whole.sparse.length, 0);
  }
  // with nothing below, the whole island is also where bridges may be
  assert.deepEqual(splitSkin(spike, above, [], false, W, 500).bottom, spike);
});

test('skin detection: strips of a slope narrower than the walls go to sparse infill, a narrow pocket stays skin', async () => {
  await initGeometry();
  const inner = [square(0, 0, 10000)];
  const below = [square(0, 0, 10000)];
  // the layers above step back by 0.5 mm (a slope): the bare strip is narrower than two walls (0.8 mm)
  const above = [square(500, 0, 10000)];
  const strip = splitSkin(inner, above, below, false, W, 500, 2 * W);
  assert.equal(strip.solid.length, 0, 'a 0.5 mm strip is dropped');
  assert.equal(areaOf(strip.sparse), 10000 * 10000);
  // the old rule (strips under one line only) kept it, and grew it by the expansion
  const old = splitSkin(inner, above, below, false, W, 500);
  assert.ok(areaOf(old.solid) > 500 * 10000, `old rule: ${areaOf(old.solid)} µm² of skin`);
  // a step of 1.2 mm is a ledge: its skin stays (grown by the expansion into the sparse infill)
  const ledge = splitSkin(inner, [square(1200, 0, 10000)], below, false, W, 500, 2 * W);
  assert.ok(Math.abs(areaOf(ledge.solid) - 1700 * 10000) < 10000 * 40, `ledge skin ${areaOf(ledge.solid)} µm²`);
  // an arm of the inner area only 0.7 mm wide, with nothing above it: all skin, nothing sparse to
  // give it to, so it stays skin although it is narrower than the walls
  const arm = [0, 4650, 14000, 4650, 14000, 5350, 0, 5350];
  const withArm = union([square(0, 0, 10000), arm]);
  const pocket = splitSkin(withArm, [square(0, 0, 10000)], withArm, false, W, 500, 2 * W);
  const armOnly = intersection(pocket.solid, [[10000, 4000, 14000, 4000, 14000, 6000, 10000, 6000]]);
  assert.ok(Math.abs(areaOf(armOnly) - 4000 * 700) < 4000 * 40, `arm skin ${areaOf(armOnly)} µm² of ${4000 * 700}`);
});

test('skin detection: the bottom (where bridges may be) is made when read, and is the inner area less what lies below', async () => {
  await initGeometry();
  // an overhang: the layer reaches 4 mm past the block below it, and nothing above covers it
  const inner = [square(0, 0, 10000)];
  const below = [square(0, 0, 6000)];
  const split = splitSkin(inner, [square(0, 0, 3000)], below, false, W, 500, 2 * W);
  assert.ok(split.solid.length > 0);
  assert.equal(areaOf(split.bottom), 10000 * 10000 - 6000 * 6000);
  assert.equal(split.bottom, split.bottom, 'made once');
  // a prismatic layer: no skin, and nothing bare below
  const prism = splitSkin(inner, inner, inner, false, W, 500, 2 * W);
  assert.equal(prism.solid.length, 0);
  assert.deepEqual(prism.bottom, []);
});

test('layer heights: a 20 mm cube at 0.2 mm has 100 layers cut through their middles', () => {
  const specs = layerSpecs(20000, 0.2, 0.2);
  assert.equal(specs.length, 100);
  assert.deepEqual(specs[0], { index: 0, z: 200, height: 200, sliceZ: 100 });
  assert.equal(specs[99].z, 20000);
  const thick = layerSpecs(10000, 0.3, 0.2);
  assert.equal(thick[0].height, 300);
  assert.equal(thick[1].z, 500);
});

test('placement centres a model on the bed, drops it to z = 0 and rejects one too large', () => {
  const s = defaultSettings();
  const positions = new Float32Array([-30, -10, -5, -10, -10, -5, -30, 10, 5]);
  const mesh = { positions, indices: new Uint32Array([0, 1, 2]) };
  const { bounds } = placeModels([{ name: 'm', mesh }], s);
  assert.deepEqual(bounds.min, [100, 100, 0]);
  assert.deepEqual(bounds.max, [120, 120, 10]);
  const huge = { positions: new Float32Array([0, 0, 0, 300, 0, 0, 0, 10, 10]), indices: new Uint32Array([0, 1, 2]) };
  assert.throws(() => placeModels([{ name: 'big.stl', mesh: huge }], s), (e: unknown) => {
    assert.ok(e instanceof SliceError);
    assert.equal(e.code, 'OUT_OF_VOLUME');
    assert.match(e.message, /big\.stl.*outside the build volume/);
    return true;
  });
});

test('infill connectors run along the area edge, join the lines into one chain and anchor its ends', async () => {
  await initGeometry();
  const rect = (x0: number, y0: number, x1: number, y1: number) => [x0, y0, x1, y0, x1, y1, x0, y1];
  // a 10 × 4 mm area and one 10 mm away: 20 % lines at 45°, 2 mm apart
  const areaA = rect(0, 0, 10000, 4000);
  const areaB = rect(20000, 0, 30000, 4000);
  const area = [areaA, areaB];
  const lines = infillLines(area, { pattern: 'lines', density: 20, lineWidth: W, angle: 45, layerIndex: 0, z: 200 });
  assert.ok(lines.length >= 6, `${lines.length} lines`);
  const p = { maxConnect: 4000, anchor: 1200, tolerance: 20 };
  const chains = connectAlongEdge(lines, area, p);
  assert.equal(chains.length, 2, 'one chain per area: no connector jumps between them');
  const onEdge = (x: number, y: number) =>
    area.some(([x0, y0, x1, , , y1]) => x >= x0 - 20 && x <= x1 + 20 && y >= y0 - 20 && y <= y1 + 20 && Math.min(x - x0, x1 - x, y - y0, y1 - y) <= 20);
  let lineLen = 0;
  for (const l of lines) lineLen += pathLength(l, false);
  let added = 0;
  for (const c of chains) {
    for (let i = 0; i + 3 < c.length; i += 2) {
      assert.ok(onEdge(c[i], c[i + 1]), `chain point ${c[i]},${c[i + 1]} lies on the edge`);
      const dx = c[i + 2] - c[i], dy = c[i + 3] - c[i + 1];
      const len = Math.hypot(dx, dy);
      const deg = ((Math.atan2(dy, dx) * 180) / Math.PI + 360) % 180;
      if (Math.abs(deg - 45) > 1) {
        // not an infill line: a connector or an anchor piece, running along the edge
        assert.ok(onEdge((c[i] + c[i + 2]) / 2, (c[i + 1] + c[i + 3]) / 2), 'connectors follow the edge');
        assert.ok(len <= p.maxConnect + 1, `a piece along the edge of ${len.toFixed(0)} µm`);
        added += len;
      }
    }
    // the chain's two ends are anchored: its first and last pieces run along the edge, ≤ the anchor
    const n = c.length;
    for (const [ax, ay, bx, by] of [[c[0], c[1], c[2], c[3]], [c[n - 2], c[n - 1], c[n - 4], c[n - 3]]]) {
      const deg = ((Math.atan2(by - ay, bx - ax) * 180) / Math.PI + 360) % 180;
      assert.ok(Math.abs(deg - 45) > 1, 'an anchor at each free end');
      assert.ok(Math.hypot(bx - ax, by - ay) <= p.anchor + 1);
    }
  }
  // n lines in 2 chains: n − 2 connectors and 4 anchors at most
  const most = (lines.length - chains.length) * p.maxConnect + 2 * chains.length * p.anchor;
  assert.ok(added > 0 && added <= most, `connectors and anchors add ${added.toFixed(0)} µm (at most ${most}) to ${lineLen.toFixed(0)} µm of lines`);
  // connectors longer than allowed are not made; the lines stay as they were (no anchors asked)
  const loose = connectAlongEdge(lines, area, { maxConnect: 100, anchor: 0, tolerance: 20 });
  assert.equal(loose.length, lines.length);
  assert.deepEqual(loose.map((l) => pathLength(l, false)).reduce((a, b) => a + b, 0), lineLen);
});

test('sparse infill lines are spaced so that the density is the share of the volume they fill', async () => {
  await initGeometry();
  const s = defaultSettings({ infillDensity: 20, infillPattern: 'lines' });
  const side = 30000;
  const g = { index: 10, z: 2200, height: 200, outlines: [[[0, 0, side, 0, side, side, 0, side]]] };
  const walls = wallsForLayer(g, s);
  const inner = innerAreasByModel(walls, 1);
  const layer = fillForLayer(g, walls, () => inner, s);
  const infill = layer.islands[0].infill;
  assert.ok(infill.length > 0 && layer.islands[0].skin.length === 0);
  // the 45° pieces of the chains are the lines: their offsets across the line direction
  const offsets = new Set<number>();
  for (const p of infill) {
    for (let i = 0; i + 3 < p.points.length; i += 2) {
      const [x0, y0, x1, y1] = p.points.slice(i, i + 4);
      if (Math.abs(x1 - x0 - (y1 - y0)) < 2 && Math.abs(x1 - x0) > 1000) offsets.add(Math.round((y0 - x0) / Math.SQRT2));
    }
  }
  const sorted = [...offsets].sort((a, b) => a - b);
  const gaps = sorted.slice(1).map((v, i) => v - sorted[i]);
  // a 0.4 × 0.2 mm bead with air on both sides fills (0.4 − 0.2 (1 − π/4)) mm of width: at 20 %
  // its lines lie 1.785 mm apart (a full 0.4 mm rectangle would be 2.0 mm)
  const spacing = (400 - 200 * (1 - Math.PI / 4)) / 0.2;
  assert.ok(gaps.length > 5);
  for (const d of gaps) assert.ok(Math.abs(d - spacing) <= 3, `lines ${d} µm apart, expected ${spacing.toFixed(0)}`);
  // and they fill 20 % of the volume: bead section / spacing = 0.2 × height
  const section = 400 * 200 - 200 * 200 * (1 - Math.PI / 4);
  assert.ok(Math.abs(section / gaps[0] / 200 - 0.2) < 0.001);
});

test('skin: a narrow arm running along the skin lines gets a line, whatever the line grid', async () => {
  await initGeometry();
  const s = defaultSettings({ skinAngle: 45 });
  // a 12 mm square with an arm at 45° (parallel to the skin lines) leaving one corner: the arm is
  // 2.3 mm wide, so two walls a side leave it an inner strip 0.7 mm wide (above the 1.5-line
  // opening that would hand it to gap fill). One skin area: its lines are spaced across the whole
  // island, so where they fall in the arm depends on the arm's position
  const along = [Math.SQRT1_2, Math.SQRT1_2];
  const across = [-Math.SQRT1_2, Math.SQRT1_2];
  const at = (shift: number, a: number, b: number) => [
    Math.round(10000 + along[0] * a + across[0] * (b + shift)),
    Math.round(10000 + along[1] * a + across[1] * (b + shift)),
  ];
  const quad = (shift: number, a0: number, a1: number, half: number) => [
    ...at(shift, a0, -half),
    ...at(shift, a1, -half),
    ...at(shift, a1, half),
    ...at(shift, a0, half),
  ];
  // shifting the arm across the lines by less than one spacing tries every phase of the grid
  for (let shift = 0; shift < 400; shift += 25) {
    const outline = union([square(0, 0, 12000), quad(shift, 0, 14000, 1150)]);
    assert.equal(outline.length, 1);
    const g = { index: 10, z: 2200, height: 200, outlines: [outline] };
    const walls = wallsForLayer(g, s);
    const inner = innerAreasByModel(walls, 1);
    // the same below, nothing above: the whole inner area is top skin (not a bridge)
    const layer = fillForLayer(g, walls, (j) => (j <= g.index ? inner : undefined), s);
    assert.ok(layer.islands[0].skin.every((p) => !p.bridge));
    const skin = layer.islands[0].skin.map((p) => p.points);
    // the arm clear of the square and of its own end: 6 mm of it
    const inArm = clipLines(skin, [quad(shift, 6000, 12000, 2000)], true);
    const length = inArm.reduce((sum, l) => sum + pathLength(l, false), 0);
    assert.ok(length > 5000, `shift ${shift} µm: ${length.toFixed(0)} µm of skin line along 6 mm of the arm`);
    // and no line centre leaves the inner area by more than the ends' reach (the skin overlap):
    // the beads end inside the innermost wall
    const outside = clipLines(skin, offset(inner[0]!, 40 + 2, 'miter', 3), false);
    assert.equal(outside.reduce((sum, l) => sum + pathLength(l, false), 0), 0);
  }
});

test('skin line ends reach the skin overlap into the innermost wall, bridge line ends a quarter line further', async () => {
  await initGeometry();
  // a 20 mm square: the inner area is a square too, so how far an end point lies past it is its
  // largest excess over the inner area's box on either axis
  const endsPast = (paths: { points: number[] }[], box: { minX: number; minY: number; maxX: number; maxY: number }) =>
    paths.flatMap(({ points: p }) =>
      [0, p.length - 2].map((i) => Math.max(box.minX - p[i], p[i] - box.maxX, box.minY - p[i + 1], p[i + 1] - box.maxY)),
    );
  for (const overlap of [10, 30]) {
    const s = defaultSettings({ skinOverlap: overlap });
    const g = { index: 10, z: 2200, height: 200, outlines: [[square(0, 0, 20000)]] };
    const walls = wallsForLayer(g, s);
    const inner = innerAreasByModel(walls, 1);
    const box = bboxOf(inner[0]!);
    const reach = (overlap / 100) * W;
    // nothing above: top skin
    const top = fillForLayer(g, walls, (j) => (j <= g.index ? inner : undefined), s).islands[0].skin;
    assert.ok(top.length > 20 && top.every((p) => !p.bridge));
    for (const past of endsPast(top, box)) assert.ok(Math.abs(past - reach) <= 2, `skinOverlap ${overlap} %: an end ${past} µm past the inner area, not ${reach}`);
    // nothing below: a bridge over the whole inner area
    const bridge = fillForLayer(g, walls, (j) => (j >= g.index ? inner : undefined), s).islands[0].skin;
    assert.ok(bridge.length > 20 && bridge.every((p) => p.bridge));
    for (const past of endsPast(bridge, box)) assert.ok(Math.abs(past - reach - W / 4) <= 2, `bridge end ${past} µm past the inner area, not ${reach + W / 4}`);
  }
});

test('skin line ends: a line meeting the wall at a shallow angle reaches it; a long stretch never jumps a hole onto another line', async () => {
  await initGeometry();
  const { reachEdge } = await import('../src/engine/regions/line-ends.js');
  // the limit: a 20 mm square whose right edge leans 5° off the lines (along x)
  const lean = Math.round(20000 * Math.tan((5 * Math.PI) / 180));
  const limit = [[0, 0, 20000, 0, 20000 + lean, 20000, 0, 20000]];
  // a line at y = 10 mm ending 0.14 mm (across) short of the leaning edge: 1.6 mm along it
  const edgeAt = (y: number) => 20000 + (lean * y) / 20000;
  const short = Math.round(edgeAt(10000) - 140 / Math.sin((5 * Math.PI) / 180));
  const along = { dx: 1, dy: 0 };
  const [long] = reachEdge([[1000, 10000, short, 10000]], 4000, limit, along, 800);
  assert.ok(Math.abs(long![2] - edgeAt(10000)) <= 3, `the end stops at ${long![2]}, the edge is at ${edgeAt(10000)}`);
  assert.equal(long![0], 0, 'the other end reaches the left edge too');
  // two lines on one track, a 1 mm hole between them (x 9.5 to 10.5) and more limit beyond: each
  // stops at the hole; the stretch that comes back past it is not printed over the other line
  const holed = [[0, 0, 20000, 0, 20000, 20000, 0, 20000], [9500, 9000, 9500, 11000, 10500, 11000, 10500, 9000]];
  const pair = reachEdge([[2000, 10000, 9300, 10000], [18000, 10000, 10700, 10000]], 4000, holed, along, 800);
  assert.deepEqual(pair.map((l) => [Math.min(l[0]!, l[2]!), Math.max(l[0]!, l[2]!)]), [[0, 9500], [10500, 20000]]);
  // two lines on one track with no hole between them: they stretch towards each other and meet halfway
  const meet = reachEdge([[1000, 5000, 9000, 5000], [9400, 5000, 19000, 5000]], 4000, [[0, 0, 20000, 0, 20000, 20000, 0, 20000]], along, 800);
  assert.deepEqual(meet.map((l) => [l[0], l[2]]), [[0, 9200], [9200, 20000]]);
});

test('skin line ends at any angle: every line keeps one piece, and no two pieces on a track overlap, round a hole', async () => {
  await initGeometry();
  const { reachEdge } = await import('../src/engine/regions/line-ends.js');
  const { solidLines } = await import('../src/engine/infill/solid.js');
  const { axesOf } = await import('../src/engine/infill/raster.js');
  // a 20 mm square with a 1.2 mm hole: a 4 mm stretch from one side of the hole reaches past it
  const solid = [square(0, 0, 20000), holeCW(9400, 9400, 1200)];
  for (let angle = 0; angle < 180; angle += 5) {
    const ax = axesOf(angle);
    const lines = solidLines(offset(solid, -W / 2 + 100), W, angle);
    const out = reachEdge(lines, 10 * W, offset(solid, 40, 'miter', 3), ax, 2 * W);
    assert.equal(out.length, lines.length, `${angle}°: ${lines.length} lines in, ${out.length} out`);
    // on each track (offset along the normal), the pieces' spans along the lines do not overlap
    const spans = out.map((l) => {
      const a = l[0]! * ax.dx + l[1]! * ax.dy;
      const b = l[2]! * ax.dx + l[3]! * ax.dy;
      return { off: Math.round((l[1]! * ax.dx - l[0]! * ax.dy) / 50), lo: Math.min(a, b), hi: Math.max(a, b) };
    });
    spans.sort((p, q) => p.off - q.off || p.lo - q.lo);
    for (let i = 1; i < spans.length; i++) {
      if (spans[i]!.off !== spans[i - 1]!.off) continue;
      assert.ok(spans[i]!.lo >= spans[i - 1]!.hi - 3, `${angle}°: two pieces overlap by ${(spans[i - 1]!.hi - spans[i]!.lo).toFixed(0)} µm on one track`);
    }
  }
});
