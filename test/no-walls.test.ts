// wallCount 0: no wall loops, and skin and sparse infill take the whole cross-section, their lines
// reaching the model's surface (centres half a line inside it), as in CuraEngine and PrusaSlicer.
// Through the CLI on the calibration cube, and the region stage on its own.
import { MODELS } from './shared-dir.js';
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clipLines, initGeometry, offset } from '../src/engine/geom/clipper.js';
import { bboxOf, pathLength } from '../src/engine/geom/path-math.js';
import { computeWalls } from '../src/engine/regions/walls.js';
import { fillForLayer, innerAreasByModel, wallsForLayer } from '../src/engine/regions/build.js';
import { defaultSettings } from '../src/profiles/defaults.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'bin', 'stratum.js');
const cube = join(MODELS, 'xyz_calibration_cube.stl');
const work = mkdtempSync(join(tmpdir(), 'stratum-no-walls-'));
after(() => rmSync(work, { recursive: true, force: true }));

const square = (x: number, y: number, s: number) => [x, y, x + s, y, x + s, y + s, x, y + s];

/** Slices the cube with the given --set values; the G-code split into layers of (type, extrusion) lines. */
function sliceCube(name: string, ...sets: string[]) {
  const out = join(work, name);
  const r = spawnSync(process.execPath, [bin, 'slice', cube, '-o', out, '--json', ...sets.flatMap((s) => ['--set', s])], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  const gcode = readFileSync(out, 'utf8');
  const layers: Array<Array<{ type: string; x: number; y: number }>> = [];
  let type = '';
  for (const line of gcode.split('\n')) {
    if (line.startsWith(';LAYER:')) layers.push([]);
    else if (line.startsWith(';TYPE:')) type = line.slice(6);
    else if (layers.length > 0 && /^G1 .*X.*E/.test(line)) {
      layers[layers.length - 1]!.push({ type, x: Number(/X(-?[\d.]+)/.exec(line)![1]), y: Number(/Y(-?[\d.]+)/.exec(line)![1]) });
    }
  }
  return { gcode, layers, stats: JSON.parse(r.stdout) as { filamentMm: number; warnings: string[] }, stderr: r.stderr };
}

const typesOf = (layer: Array<{ type: string }>) => new Set(layer.map((m) => m.type));

test('wallCount 0 on the calibration cube: skin on the bottom and top layers, infill between, no walls', () => {
  const { gcode, layers, stats, stderr } = sliceCube('w0.gcode', 'wallCount=0');
  assert.match(stderr, /wallCount is 0: parts have no walls/);
  assert.doesNotMatch(gcode, /;TYPE:WALL/, 'no wall loops, nothing labelled a wall');
  assert.equal(layers.length, 100);
  // the cube's bottom and top 3 layers are skin (the Z on its underside is a hole in the skin)
  for (const i of [0, 1, 2, 97, 98, 99]) assert.ok(typesOf(layers[i]!).has('SKIN'), `layer ${i} has skin`);
  for (const i of [10, 50, 90]) assert.deepEqual([...typesOf(layers[i]!)], ['FILL'], `layer ${i} is sparse infill`);
  // 0.19 m before (one loop a layer): about 0.9 m now, the 1.31 m of the default less its walls
  assert.ok(stats.filamentMm > 800 && stats.filamentMm < 1100, `filament ${stats.filamentMm} mm`);
  // the lines reach the 20 mm cube's sides (centred at 110, 110): centres half a line in, no further
  for (const i of [0, 50, 99]) {
    const model = layers[i]!.filter((m) => m.type !== 'SKIRT');
    const xs = model.map((m) => m.x), ys = model.map((m) => m.y);
    for (const [lo, hi] of [[Math.min(...xs), Math.max(...xs)], [Math.min(...ys), Math.max(...ys)]]) {
      assert.ok(lo >= 100.2 - 0.002 && lo <= 100.2 + 0.05, `layer ${i}: lines start at ${lo}`);
      assert.ok(hi <= 119.8 + 0.002 && hi >= 119.8 - 0.05, `layer ${i}: lines end at ${hi}`);
    }
  }
});

test('wallCount 0 with infillDensity 0: only the bottom and top skins, nothing in between', () => {
  const { gcode, layers } = sliceCube('w0d0.gcode', 'wallCount=0', 'infillDensity=0');
  assert.doesNotMatch(gcode, /;TYPE:(WALL|FILL)/);
  assert.equal(layers.length, 100, 'the empty layers between keep their numbers');
  for (const i of [0, 1, 2, 97, 98, 99]) assert.ok(typesOf(layers[i]!).has('SKIN'), `layer ${i} has skin`);
  for (const i of [10, 50, 90]) assert.equal(layers[i]!.length, 0, `layer ${i} prints nothing`);
});

test('computeWalls with wallCount 0: no loops, no gaps, the whole outline for skin and infill', async () => {
  await initGeometry();
  const outline = [square(0, 0, 20000)];
  const r = computeWalls(outline, { width: 400, wallCount: 0, model: 0, minGapWidth: 100, gapFill: true });
  assert.equal(r.walls.length, 0);
  assert.deepEqual(r.innerArea, outline);
  assert.equal(r.gaps.length, 0, 'gap fill is for gaps between walls: none');
  // travels comb inside the part, a quarter line in from its sides
  assert.deepEqual(bboxOf(r.combArea), { minX: 100, minY: 100, maxX: 19900, maxY: 19900 });
});

test('with no walls, skin and sparse infill lines stay half a line inside the outline and reach it', async () => {
  await initGeometry();
  const s = defaultSettings({ wallCount: 0, infillDensity: 20, infillPattern: 'lines' });
  const outline = [square(0, 0, 20000)];
  for (const [index, kind] of [[10, 'infill'], [0, 'skin']] as const) {
    const g = { index, z: 200 * (index + 1), height: 200, outlines: [outline] };
    const walls = wallsForLayer(g, s);
    const inner = innerAreasByModel(walls, 1);
    // layer 10 is covered above and below (sparse); layer 0 has nothing below (skin)
    const layer = fillForLayer(g, walls, (j) => (j >= 0 ? inner : undefined), s);
    const isl = layer.islands[0]!;
    assert.equal(isl.walls.length, 0);
    const paths = (kind === 'skin' ? isl.skin : isl.infill).map((p) => p.points);
    assert.ok(paths.length > 0, `${kind} lines`);
    // no centre line leaves the outline shrunk by half a line, and they come within 10 µm of it
    assert.equal(clipLines(paths, offset(outline, -200 + 2, 'miter', 3), false).reduce((sum, l) => sum + pathLength(l, false), 0), 0);
    assert.deepEqual(bboxOf(paths), { minX: 200, minY: 200, maxX: 19800, maxY: 19800 }, `${kind} reaches the sides`);
  }
});
