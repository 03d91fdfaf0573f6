// Gap fill at the narrowest width filled (minGapWidth): a gap is filled when it is at least that
// wide, whatever the rounding of the search for its width. The search's bracket decided alone: a
// 91 µm strip was filled and a 96 µm one was not, so a fin tapering to nothing (tall_thin_wedge)
// printed a layer, skipped the next and printed the one above it onto air.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initGeometry } from '../src/engine/geom/clipper.js';
import { gapFillLines } from '../src/engine/regions/gap-fill.js';
import { slice } from '../src/engine/pipeline.js';
import { defaultSettings } from '../src/profiles/defaults.js';
import type { ModelInput } from '../src/engine/types.js';

const MIN_WIDTH = 100;

/** A straight strip `length` long and `width` wide at angle `a` (radians), counter-clockwise, µm. */
function strip(width: number, length: number, a: number, x = 100_000, y = 100_000): number[] {
  const c = Math.cos(a), s = Math.sin(a);
  const corner = (u: number, v: number) => [Math.round(x + u * c - v * s), Math.round(y + u * s + v * c)];
  return [...corner(0, 0), ...corner(length, 0), ...corner(length, width), ...corner(0, width)];
}

test('strips are filled from the narrowest filled width up, never one narrower while a wider one is not', async () => {
  await initGeometry();
  for (const a of [0, 0.3, Math.PI / 4, 1.2]) {
    const filled: number[] = [];
    const skipped: number[] = [];
    for (let w = 80; w <= 130; w++) {
      const lines = gapFillLines([strip(w, 10_000, a)], { width: 400, minWidth: MIN_WIDTH, model: 0 });
      (lines.length > 0 ? filled : skipped).push(w);
    }
    const narrowestFilled = Math.min(...filled);
    const widestSkipped = Math.max(...skipped);
    assert.ok(widestSkipped < narrowestFilled, `angle ${a}: filled ${filled.join(',')}; skipped ${skipped.join(',')}`);
    // the threshold is the setting's, to within the few µm offsets round by
    assert.ok(narrowestFilled >= MIN_WIDTH - 6 && narrowestFilled <= MIN_WIDTH + 2, `angle ${a}: the narrowest filled is ${narrowestFilled} µm`);
  }
});

test('a fin tapering to nothing prints every layer up to where it stops, none skipped', async () => {
  // 10 mm long, T mm thick at the bed, an edge at H mm: with one wall's width 0.4 mm, its top is gap
  // fill only, 0.4 mm wide down to nothing, a few µm thinner each layer (these two skipped layers)
  for (const [t, h] of [
    [1.1, 40],
    [1, 66.6667],
  ]) {
    const positions = Float32Array.from([0, 0, 0, 10, 0, 0, 10, t, 0, 0, t, 0, 0, 0, h, 10, 0, h]);
    const indices = Uint32Array.from([0, 2, 1, 0, 3, 2, 0, 1, 5, 0, 5, 4, 3, 4, 5, 3, 5, 2, 1, 2, 5, 0, 4, 3]);
    const fin: ModelInput = { name: 'fin', mesh: { positions, indices } };
    const r = await slice([fin], defaultSettings());
    const printing = new TextDecoder()
      .decode(r.output)
      .split(';LAYER:')
      .slice(1)
      .map((layer) => /\nG1 [^\n]*X[^\n]*E\d/.test(layer));
    const last = printing.lastIndexOf(true);
    const skipped = printing.slice(0, last).flatMap((p, i) => (p ? [] : [i]));
    assert.deepEqual(skipped, [], `${t} × ${h} mm: layers printing nothing below the last printed (${last}): ${skipped.join(', ')}`);
    // it prints up to about where the fin is 0.1 mm thick (0.2 mm layers, sliced at their middle)
    const expected = (h * (1 - 0.1 / t) - 0.1) / 0.2;
    assert.ok(Math.abs(last - expected) <= 4, `${t} × ${h} mm: last printed layer ${last}, expected about ${expected.toFixed(1)}`);
  }
});
