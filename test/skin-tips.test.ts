// Skin at an acute corner of the area inside the walls (the sharp corners of a letter Z embossed in
// a calibration cube's top): the skin lines crossing the corner near its tip are short, and dropping
// every piece shorter than half a line inside the inset area left a bare triangle of 0.13-0.19 mm²
// there on every layer. The length is now judged after the ends are stretched to the wall.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clipLines, difference, initGeometry, intersection, offset, offsetOpen } from '../src/engine/geom/clipper.js';
import { areaOf, pathLength } from '../src/engine/geom/path-math.js';
import { fillForLayer, innerAreasByModel, wallsForLayer } from '../src/engine/regions/build.js';
import { defaultSettings } from '../src/profiles/defaults.js';

const W = 400;

/** A wedge with its tip at the origin, sides `len` long: one along +x, the other `deg` degrees up from it. */
function wedge(len: number, deg: number): number[] {
  const a = (deg * Math.PI) / 180;
  return [0, 0, len, 0, Math.round(len * Math.cos(a)), Math.round(len * Math.sin(a))];
}

test('skin: the tip of an acute corner inside the walls is covered, whatever the line grid', async () => {
  await initGeometry();
  // lines at 135°, across the corner (the Z's odd layers)
  const s = defaultSettings({ skinAngle: 135 });
  let worst = 0;
  // the lines are centred in the area's extent across them: lengthening the sides by up to a
  // spacing and a half moves the line grid through every phase at the tip
  for (let shift = 0; shift < 600; shift += 50) {
    const g = { index: 10, z: 2200, height: 200, outlines: [[wedge(12000 + shift, 50)]] };
    const walls = wallsForLayer(g, s);
    const inner = innerAreasByModel(walls, 1);
    // the same below, nothing above: top skin
    const layer = fillForLayer(g, walls, (j) => (j <= g.index ? inner : undefined), s);
    const island = layer.islands[0];
    assert.ok(island.skin.length > 5 && island.skin.every((p) => !p.bridge));
    // no line is shorter than half a line, and none leaves the inner area by more than the ends'
    // reach into the wall (the skin overlap, 40 µm): the corner gets lines of the grid, not blobs
    for (const p of island.skin) assert.ok(pathLength(p.points, false) >= W / 2);
    const outside = clipLines(island.skin.map((p) => p.points), offset(inner[0]!, 40 + 2, 'miter', 3), false);
    assert.equal(outside.length, 0);
    // the inner area within 2 mm of its tip, less every bead laid (round ends, as a nozzle lays them)
    const tipX = Math.min(...inner[0]!.flatMap((p) => p.filter((_, i) => i % 2 === 0)));
    const near = intersection(inner[0]!, [[tipX - 10, -10, tipX + 2000, -10, tipX + 2000, 2000, tipX - 10, 2000]]);
    const beads = [...island.skin, ...island.gapFill].flatMap((p) => offsetOpen([p.points], p.width / 2, 'round', 'round'));
    const bare = areaOf(difference(near, beads));
    worst = Math.max(worst, bare);
    // the tip beyond the line nearest it stays bare: 0.02-0.06 mm² as the grid falls (0.16-0.19
    // where that line was dropped)
    assert.ok(bare < 70_000, `sides ${12000 + shift} µm: ${(bare / 1e6).toFixed(3)} mm² of the corner left bare`);
  }
  assert.ok(worst > 0, 'the measure sees the tip');
});
