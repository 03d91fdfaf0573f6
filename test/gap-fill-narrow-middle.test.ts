// A strip of nearly even width that is widest at both ends (holes_thin_wall's neck, once the inner
// walls of a thin part give way to gap fill: 0.40 mm wide in the middle, 0.51 mm at the ends). The
// sliver along the middle breaks into two dashes at the wide ends; gap fill must fill the strip
// along its length, not print the dashes and leave the middle bare.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initGeometry } from '../src/engine/geom/clipper.js';
import { gapFillLines } from '../src/engine/regions/gap-fill.js';
import { gapFillOf as bare, strip } from './gap-fixtures.js';

test('a strip 2.4 mm long, 0.40 mm wide in the middle and 0.51 mm at its ends is filled along its length', async () => {
  await initGeometry();
  const r = bare(strip(2400, 400, 510));
  // two end dashes left 0.32 mm² of the 1.09 mm² bare (a rectangle's four square corners alone are 0.09 mm²)
  assert.ok(r.bare < 0.12 * r.area, `bare ${(r.bare / 1e6).toFixed(3)} of ${(r.area / 1e6).toFixed(3)} mm²`);
});

test('a strip of even width is still one line end to end', async () => {
  await initGeometry();
  const lines = gapFillLines([strip(2400, 450, 450)], { width: 400, minWidth: 100, model: 0 });
  assert.equal(lines.length, 1);
  const r = bare(strip(2400, 450, 450));
  assert.ok(r.bare < 0.1 * r.area, `bare ${(r.bare / 1e6).toFixed(3)} of ${(r.area / 1e6).toFixed(3)} mm²`);
});
