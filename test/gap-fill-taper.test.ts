// A gap that tapers to both ends (the sliver between two walls meeting at a shallow angle, a wedge
// seen from above): its medial axis is straight, so simplifying the axis by position alone kept only
// its two ends and their widths, and the whole gap was printed as thin as its tips.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initGeometry } from '../src/engine/geom/clipper.js';
import { simplifyAxis } from '../src/engine/regions/medial-axis.js';
import { gapFillOf, strip } from './gap-fixtures.js';

for (const [length, middle, end] of [[4000, 550, 150], [3000, 500, 250], [6000, 580, 120]]) {
  test(`a gap ${length / 1000} mm long tapering from ${middle / 1000} mm in the middle to ${end / 1000} mm at its ends is filled as wide as it is`, async () => {
    await initGeometry();
    const r = gapFillOf(strip(length, middle, end));
    const widest = Math.max(...r.lines.map((l) => l.width));
    // one line as wide as the ends left 29–60 % of it bare
    assert.ok(r.bare < 0.08 * r.area, `bare ${(r.bare / 1e6).toFixed(3)} of ${(r.area / 1e6).toFixed(3)} mm²`);
    assert.ok(widest > 0.85 * middle, `widest bead ${widest} µm in a gap ${middle} µm wide`);
  });
}

test('simplifying a straight axis keeps a width peak and drops points whose width changes evenly', () => {
  const xs = [0, 1000, 2000, 3000, 4000];
  const points = xs.flatMap((x) => [x, 0]);
  const peaked = simplifyAxis({ points, widths: [150, 350, 550, 350, 150], closed: false }, 10, 25);
  assert.deepEqual(peaked.points, [0, 0, 2000, 0, 4000, 0]);
  assert.deepEqual(peaked.widths, [150, 550, 150]);
  const even = simplifyAxis({ points, widths: [150, 250, 350, 450, 550], closed: false }, 10, 25);
  assert.deepEqual(even.widths, [150, 550]);
  // within the tolerance: a 20 µm wobble is not a peak
  const wobble = simplifyAxis({ points, widths: [400, 420, 400, 380, 400], closed: false }, 10, 25);
  assert.deepEqual(wobble.widths, [400, 400]);
});
