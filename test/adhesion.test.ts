import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initGeometry } from '../src/engine/geom/clipper.js';
import { bboxOf, pathLength, signedArea } from '../src/engine/geom/path-math.js';
import { convexHull, skirt } from '../src/engine/adhesion/skirt.js';
import { brim } from '../src/engine/adhesion/brim.js';

const square = (x: number, y: number, s: number) => [x, y, x + s, y, x + s, y + s, x, y + s];

test('skirt: one loop 6 mm out (centre line 6.2 mm from the part), more loops until the minimum length', async () => {
  await initGeometry();
  const one = skirt([square(0, 0, 20000)], { distance: 6000, loops: 1, minLength: 0, width: 400 });
  assert.equal(one.length, 1);
  assert.equal(one[0].type, 'SKIRT');
  const b = bboxOf([one[0].points]);
  assert.ok(Math.abs(b.minX + 6200) <= 10 && Math.abs(b.maxX - 26200) <= 10, `bounds ${JSON.stringify(b)}`);
  const long = skirt([square(0, 0, 20000)], { distance: 6000, loops: 1, minLength: 500000, width: 400 });
  assert.ok(long.length > 3, `${long.length} loops reach 500 mm`);
  // outermost first, so the last loop printed is the one next to the part
  assert.ok(bboxOf([long[0].points]).minX < bboxOf([long[long.length - 1].points]).minX);
});

test('skirt around parts that enclose a space prints no loop in the enclosed hole', async () => {
  await initGeometry();
  const ring = [square(0, 0, 40000), [10000, 10000, 10000, 30000, 30000, 30000, 30000, 10000]];
  const loops = skirt(ring, { distance: 3000, loops: 1, minLength: 0, width: 400 });
  assert.equal(loops.length, 1);
  assert.ok(signedArea(loops[0].points) > 0);
});

test('skirt follows the convex hull of the first layer, not the notches between parts', async () => {
  await initGeometry();
  // two 10 mm squares 10 mm apart: the hull is 30 × 10 mm; a loop 6.2 mm out of it is the hull's
  // perimeter plus a circle of 6.2 mm
  const loops = skirt([square(0, 0, 10000), square(20000, 0, 10000)], { distance: 6000, loops: 1, minLength: 0, width: 400 });
  assert.equal(loops.length, 1);
  const expected = 2 * (30000 + 10000) + 2 * Math.PI * 6200;
  const length = pathLength(loops[0].points, true);
  assert.ok(Math.abs(length - expected) < 0.005 * expected, `${length} vs ${expected}`);
  assert.deepEqual(convexHull([square(0, 0, 10), [5, 5, 2, 3]]), [0, 0, 10, 0, 10, 10, 0, 10]);
});

test('brim: loops touching the part out to the brim width, outermost first', async () => {
  await initGeometry();
  const loops = brim([square(0, 0, 10000)], 2, 400);
  assert.equal(loops.length, 5);
  assert.ok(loops.every((l) => l.type === 'BRIM' && l.closed));
  const inner = bboxOf([loops[loops.length - 1].points]);
  assert.ok(Math.abs(inner.minX + 200) <= 10, 'the innermost loop touches the part');
  const outer = bboxOf([loops[0].points]);
  assert.ok(Math.abs(outer.minX + 1800) <= 10, 'the outermost loop is 2 mm out');
});
