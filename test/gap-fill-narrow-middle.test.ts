// A strip of nearly even width that is widest at both ends (holes_thin_wall's neck, once the inner
// walls of a thin part give way to gap fill: 0.40 mm wide in the middle, 0.51 mm at the ends). The
// sliver along the middle breaks into two dashes at the wide ends; gap fill must fill the strip
// along its length, not print the dashes and leave the middle bare.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { areaOf } from '../src/engine/geom/path-math.js';
import { difference, initGeometry, offsetOpen } from '../src/engine/geom/clipper.js';
import { gapFillLines } from '../src/engine/regions/gap-fill.js';
import type { Path } from '../src/engine/types.js';

/** A strip along x, `length` long, `middle` wide at x = 0 and `end` wide at both ends. */
function strip(length: number, middle: number, end: number): Path {
  const top: number[][] = [];
  const bottom: number[][] = [];
  for (let i = 0; i <= 24; i++) {
    const x = Math.round(-length / 2 + (length * i) / 24);
    const half = Math.round((middle + ((end - middle) * Math.abs(x)) / (length / 2)) / 2);
    bottom.push([x, -half]);
    top.unshift([x, half]);
  }
  return [...bottom, ...top].flat();
}

/** The gap's area no bead covers (beads as round-ended strokes of their width), µm². */
function bare(gap: Path, width = 400): { bare: number; area: number } {
  const lines = gapFillLines([gap], { width, minWidth: 100, model: 0 });
  let left = [gap];
  for (const l of lines) left = difference(left, offsetOpen([l.points], l.width / 2, 'round', l.closed ? 'joined' : 'round'));
  return { bare: areaOf(left), area: areaOf([gap]) };
}

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
