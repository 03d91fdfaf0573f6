// Bridges (issue 5): skin over air is printed in one direction across the gap, at the bridge speed,
// flow and fan. Checked on the produced G-code: the bridge layer's lines, their direction, their
// ends (over the supports on either side), feed rates, extrusion per mm and the fan commands.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { slice } from '../src/engine/pipeline.js';
import { parseModel } from '../src/engine/mesh/index.js';
import { initGeometry } from '../src/engine/geom/clipper.js';
import { spanAngle, splitBridges } from '../src/engine/regions/bridges.js';
import { defaultSettings } from '../src/profiles/defaults.js';
import type { SliceSettings } from '../src/engine/settings.js';
import type { Mesh, Paths } from '../src/engine/types.js';
import { box, merge, MODELS_DIR, type TestMesh } from './mesh-fixtures.js';

interface Segment {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** filament per mm of path */
  ePerMm: number;
  /** feed, mm/s */
  speed: number;
}

interface LayerScan {
  bridge: Segment[];
  skin: Segment[];
  /** every extrusion's x (for finding the gap on the layer below) */
  xs: number[];
  /** fan changes, and whether each came inside a bridge block (after `;BRIDGE`, before the next `;TYPE:`) */
  fanEvents: Array<{ percent: number; inBridge: boolean }>;
}

/** Per layer: bridge and skin segments, and fan changes (absolute E, as the default profile writes). */
function scan(gcode: string): Map<number, LayerScan> {
  const layers = new Map<number, LayerScan>();
  let cur: LayerScan | null = null;
  let x = 0, y = 0, e = 0, f = 0;
  let type = '';
  let bridge = false;
  for (const raw of gcode.split('\n')) {
    const line = raw.trim();
    if (line.startsWith(';LAYER:')) {
      cur = { bridge: [], skin: [], xs: [], fanEvents: [] };
      layers.set(Number(line.slice(7)), cur);
      continue;
    }
    if (line.startsWith(';TYPE:')) {
      type = line.slice(6);
      bridge = false;
      continue;
    }
    if (line === ';BRIDGE') {
      assert.equal(type, 'SKIN', 'bridge lines keep ;TYPE:SKIN');
      bridge = true;
      continue;
    }
    if (line.startsWith('M106') || line.startsWith('M107')) {
      const m = /S(\d+)/.exec(line);
      const percent = line.startsWith('M107') ? 0 : Math.round(((m ? Number(m[1]) : 255) * 100) / 255);
      cur?.fanEvents.push({ percent, inBridge: bridge });
      continue;
    }
    if (line.startsWith('G92')) {
      const m = /E(-?[\d.]+)/.exec(line);
      if (m) e = Number(m[1]);
      continue;
    }
    if (!line.startsWith('G0') && !line.startsWith('G1')) continue;
    let nx = x, ny = y, ne = e;
    for (const word of line.split(';')[0].split(/\s+/).slice(1)) {
      const v = Number(word.slice(1));
      if (word[0] === 'X') nx = v;
      else if (word[0] === 'Y') ny = v;
      else if (word[0] === 'E') ne = v;
      else if (word[0] === 'F') f = v / 60;
    }
    const len = Math.hypot(nx - x, ny - y);
    if (cur && ne > e && len > 0) {
      const seg = { x0: x, y0: y, x1: nx, y1: ny, ePerMm: (ne - e) / len, speed: f };
      cur.xs.push(x, nx);
      if (bridge) cur.bridge.push(seg);
      else if (type === 'SKIN') cur.skin.push(seg);
    }
    x = nx;
    y = ny;
    e = ne;
  }
  return layers;
}

/** Direction of a segment, degrees in [0, 180). */
function direction(s: Segment): number {
  return ((Math.atan2(s.y1 - s.y0, s.x1 - s.x0) * 180) / Math.PI + 360) % 180;
}

/** Smallest difference between two line directions, degrees. */
function angleGap(a: number, b: number): number {
  const d = Math.abs(a - b) % 180;
  return Math.min(d, 180 - d);
}

function meshOf(t: TestMesh): Mesh {
  return { positions: Float32Array.from(t.positions), indices: Uint32Array.from(t.indices) };
}

/** Rotates a mesh about the z axis by `deg`. */
function rotated(t: TestMesh, deg: number): TestMesh {
  const a = (deg * Math.PI) / 180;
  const c = Math.cos(a), s = Math.sin(a);
  const positions = t.positions.slice();
  for (let i = 0; i < positions.length; i += 3) {
    const x = t.positions[i], y = t.positions[i + 1];
    positions[i] = c * x - s * y;
    positions[i + 1] = s * x + c * y;
  }
  return { positions, indices: t.indices };
}

/** Two 10 mm pillars 6 mm tall, 20 mm apart along x, and a 40 × 10 × 2 mm plate across them. */
function pillarsAndPlate(): TestMesh {
  return merge(box(0, 0, 0, 10, 10, 6), box(30, 0, 0, 40, 10, 6), box(0, 0, 6, 40, 10, 8));
}

async function sliceText(mesh: Mesh, s: SliceSettings): Promise<string> {
  const r = await slice([{ name: 'part', mesh }], s);
  return new TextDecoder().decode(r.output);
}

test('bridge direction: the gap between two pillars is spanned pillar to pillar, not along it', async () => {
  await initGeometry();
  // the plate's first layer, in µm: solid over two pillars (x 0…10 and 30…40 mm) and the air between
  const mm = (v: number) => v * 1000;
  const sq = (x0: number, y0: number, x1: number, y1: number) => [mm(x0), mm(y0), mm(x1), mm(y0), mm(x1), mm(y1), mm(x0), mm(y1)];
  const solid: Paths = [sq(0, 0, 40, 10)];
  const below: Paths = [sq(0, 0, 10, 10), sq(30, 0, 40, 10)];
  const { bridges, rest } = splitBridges(solid, [sq(10, 0, 30, 10)], below, 400);
  assert.equal(bridges.length, 1);
  assert.equal(bridges[0].angle, 0, 'lines along x, from one pillar to the other');
  assert.ok(rest.length > 0, 'the solid far over the pillars stays ordinary skin');
  // the same gap turned a quarter: lines along y
  const swap = (p: Paths) => p.map((q) => q.map((_, i) => q[i ^ 1]));
  assert.equal(spanAngle(swap([sq(10, 0, 30, 10)]), swap(below), 400), 90);
  // a layer fully over the one below has no bridge
  assert.equal(splitBridges(below, below, below, 400).bridges.length, 0);
  // nor does a sloped wall's step of a fraction of a line
  assert.equal(splitBridges([sq(0, 0, 10.3, 10)], [sq(10, 0, 10.3, 10)], [sq(0, 0, 10, 10)], 400).bridges.length, 0);
});

for (const turn of [0, 30]) {
  test(`pillars and plate turned ${turn}°: one bridge layer, lines across the gap at the bridge speed, flow and fan`, async () => {
    await initGeometry();
    const s: SliceSettings = { ...defaultSettings(), bridgeSpeed: 15, bridgeFlow: 80, bridgeFan: 60 };
    const text = await sliceText(meshOf(rotated(pillarsAndPlate(), turn)), s);
    const layers = scan(text);
    const withBridges = [...layers].filter(([, l]) => l.bridge.length > 0).map(([n]) => n);
    // the plate starts at z = 6 mm: layer 30 (6.0–6.2 mm) is its first
    assert.deepEqual(withBridges, [30]);
    const L = layers.get(30)!;
    let spanning = 0, total = 0;
    // the pillars' inner faces, in the rotated frame: x' = 10 and x' = 30 (the model is centred: the
    // plate's centre (20, 5) lands on the bed centre)
    const c = Math.cos((turn * Math.PI) / 180), sn = Math.sin((turn * Math.PI) / 180);
    const along = (x: number, y: number) => c * (x - 110) + sn * (y - 110) + 20;
    for (const seg of L.bridge) {
      const len = Math.hypot(seg.x1 - seg.x0, seg.y1 - seg.y0);
      total += len;
      assert.ok(angleGap(direction(seg), turn) <= 3, `bridge line at ${direction(seg).toFixed(1)}° (gap spans ${turn}°)`);
      assert.equal(seg.speed, 15, 'bridge speed');
      const [a, b] = [along(seg.x0, seg.y0), along(seg.x1, seg.y1)].sort((p, q) => p - q);
      if (a <= 10 && b >= 30) spanning += len;
    }
    assert.ok(total > 20 * 9, `bridge lines cover the 20 × 10 mm gap (${total.toFixed(0)} mm)`);
    assert.ok(spanning / total > 0.9, `${((100 * spanning) / total).toFixed(1)} % of the bridge length rests on both pillars`);
    // flow: 80 % of what the same layer's ordinary skin lays per mm (same width and height)
    const perMm = (segs: Segment[]) => segs.reduce((a, q) => a + q.ePerMm * Math.hypot(q.x1 - q.x0, q.y1 - q.y0), 0) / segs.reduce((a, q) => a + Math.hypot(q.x1 - q.x0, q.y1 - q.y0), 0);
    const skinAbove = layers.get(31)!.skin;
    assert.ok(skinAbove.length > 0 && layers.get(31)!.bridge.length === 0, 'the next layer is ordinary skin');
    const ratio = perMm(L.bridge) / perMm(skinAbove);
    assert.ok(Math.abs(ratio - 0.8) < 0.01, `bridge flow ratio ${ratio.toFixed(3)}`);
    // fan: 60 % while bridging, back to the layer's 100 % after
    const fans = L.fanEvents.map((ev) => ev.percent);
    assert.deepEqual(fans, [60, 100], 'the fan goes to the bridge fan and back');
    assert.ok(L.fanEvents.every((ev) => ev.inBridge), 'both fan changes sit in the bridge block: right before and right after its lines');
  });
}

test('a window in a wall: the narrow strip over it is bridged along the window, a sloped step is not', async () => {
  await initGeometry();
  // a wall 2.4 mm thick with a 10 mm window from z 3 to 6: above it, inside two walls a side, a
  // strip 0.8 mm wide spans the window (3DBenchy's window tops printed it as short skin lines across)
  const wall = merge(box(0, 0, 0, 5, 2.4, 10), box(15, 0, 0, 20, 2.4, 10), box(5, 0, 0, 15, 2.4, 3), box(5, 0, 6, 15, 2.4, 10));
  const layers = scan(await sliceText(meshOf(wall), defaultSettings()));
  // layer 30 (6.0–6.2 mm) is the first over the window
  const L = layers.get(30)!;
  assert.ok(L.bridge.length > 0, 'the strip over the window is a bridge');
  // the model is centred: the window spans x 105…115 on the bed
  const spanX = L.bridge.reduce((a, q) => a + Math.abs(q.x1 - q.x0), 0);
  const spanY = L.bridge.reduce((a, q) => a + Math.abs(q.y1 - q.y0), 0);
  assert.ok(spanX > 10 && spanY < 0.1 * spanX, `bridge lines along the window: ${spanX.toFixed(1)} mm in x, ${spanY.toFixed(1)} mm in y`);
  assert.ok(L.bridge.some((q) => Math.min(q.x0, q.x1) <= 105 && Math.max(q.x0, q.x1) >= 115), 'a line from one side of the window to the other');
  // a strip of the same width along the edge of the layer below (a step of a sloped wall) is no bridge
  const mm = (v: number) => v * 1000;
  const sq = (x0: number, y0: number, x1: number, y1: number) => [mm(x0), mm(y0), mm(x1), mm(y0), mm(x1), mm(y1), mm(x0), mm(y1)];
  assert.equal(splitBridges([sq(0, 0, 10.8, 20)], [sq(10, 0, 10.8, 20)], [sq(0, 0, 10, 20)], 400).bridges.length, 0);
});

test('no bridges on the first layer, nor with bridges turned off', async () => {
  await initGeometry();
  // a plate held up by one pillar at one end: the plate's overhang is a bridge only when enabled
  const t = merge(box(0, 0, 0, 10, 10, 1), box(0, 0, 1, 30, 10, 2));
  const on = scan(await sliceText(meshOf(t), defaultSettings()));
  assert.ok(on.get(5)!.bridge.length > 0, 'the plate over air at layer 5 is bridged');
  assert.equal(on.get(0)!.bridge.length, 0);
  const off = scan(await sliceText(meshOf(t), { ...defaultSettings(), bridgeEnabled: false }));
  assert.equal([...off.values()].reduce((a, l) => a + l.bridge.length, 0), 0);
  assert.ok(off.get(5)!.skin.length > 0, 'without bridges it is ordinary skin');
});

test('at 0 % infill the first top skin over the hollow inside is a bridge, the next ones and 20 % are not', async () => {
  await initGeometry();
  // a 20 mm cube, 10 mm tall: 50 layers, top skins on layers 47-49 (three top layers)
  const cube = meshOf(box(0, 0, 0, 20, 20, 10));
  const s = defaultSettings();
  assert.equal(s.topLayers, 3);
  const hollow = scan(await sliceText(cube, { ...s, infillDensity: 0 }));
  const top = 50 - s.topLayers;
  assert.ok(hollow.get(top)!.bridge.length > 10, `layer ${top}, over the hollow, is not bridged`);
  assert.equal(hollow.get(top)!.skin.length, 0, `layer ${top} still has ordinary skin over air`);
  // one direction, at the bridge speed
  const first = hollow.get(top)!.bridge;
  assert.ok(first.every((seg) => angleGap(direction(seg), direction(first[0]!)) < 1 && Math.abs(seg.speed - s.bridgeSpeed) < 0.01));
  for (const layer of [top + 1, top + 2]) assert.equal(hollow.get(layer)!.bridge.length, 0, `layer ${layer} lies on skin, not air`);
  // the bottom skins lie on the bed and on each other
  for (const layer of [0, 1, 2]) assert.equal(hollow.get(layer)!.bridge.length, 0);
  const filled = scan(await sliceText(cube, s));
  assert.equal([...filled.values()].reduce((a, l) => a + l.bridge.length, 0), 0, 'at 20 % the top skin lies on infill');
});

test('bridging_plate.stl: the bridge layer runs every line across the gap, onto both pillars', { skip: MODELS_DIR === null }, async () => {
  await initGeometry();
  const file = readFileSync(path.join(MODELS_DIR!, 'bridging_plate.stl'));
  const { mesh } = parseModel(new Uint8Array(file.buffer, file.byteOffset, file.byteLength), 'bridging_plate.stl');
  const text = await sliceText(mesh, defaultSettings());
  const layers = scan(text);
  const withBridges = [...layers].filter(([, l]) => l.bridge.length > 0).map(([n]) => n);
  assert.equal(withBridges.length, 1, `one bridge layer (found ${withBridges.join(', ')})`);
  const n = withBridges[0];
  // the gap: the widest stretch of x with no extrusion on the layer below (between the pillars)
  const xs = [...layers.get(n - 1)!.xs].sort((a, b) => a - b);
  let gx0 = 0, gx1 = 0;
  for (let i = 1; i < xs.length; i++) if (xs[i] - xs[i - 1] > gx1 - gx0) [gx0, gx1] = [xs[i - 1], xs[i]];
  assert.ok(gx1 - gx0 > 20, `a gap of ${(gx1 - gx0).toFixed(1)} mm between the pillars`);
  let spanning = 0, total = 0;
  for (const seg of layers.get(n)!.bridge) {
    const len = Math.hypot(seg.x1 - seg.x0, seg.y1 - seg.y0);
    total += len;
    // the gap runs along x: every line is within a few degrees of it
    assert.ok(angleGap(direction(seg), 0) <= 3, `bridge line at ${direction(seg).toFixed(1)}°`);
    if (Math.min(seg.x0, seg.x1) <= gx0 && Math.max(seg.x0, seg.x1) >= gx1) spanning += len;
  }
  assert.ok(spanning / total > 0.9, `${((100 * spanning) / total).toFixed(1)} % of the bridge length spans the gap`);
  const s = defaultSettings();
  assert.ok(layers.get(n)!.bridge.every((q) => q.speed <= s.bridgeSpeed), 'bridge speed');
  assert.match(text, /;TYPE:SKIN\n;BRIDGE\n/);
});
