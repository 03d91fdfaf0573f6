// `stratum preview` draws each bead as wide as the filament it feeds fills at the layer's height, so
// a bead narrowed or widened on purpose (gap fill, the one wide loop of a thin tube's inner walls)
// shows at its real width, not as a 0.4 mm line with white slivers beside it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import { readGcodeLayer } from '../src/cli/gcode-reader.js';
import { beadWidths } from '../src/cli/layer-render.js';

const bin = join(fileURLToPath(new URL('../..', import.meta.url)), 'bin', 'stratum.js');

/** Filament (mm) a bead `width` wide, `length` long, at `height` takes, for a filament `d` across. */
const feed = (width: number, length: number, height = 0.2, d = 1.75): number => (width * height * length) / (Math.PI * (d / 2) ** 2);

/** Two layers; on layer 1, a 20 mm outer-wall line 0.4 mm wide, then one of 0.8 mm beside it. */
function twoLayers(trailer = ''): string {
  return [
    ';FLAVOR:Marlin', 'M83', ';LAYER:0', 'G0 Z0.2', 'G0 X100 Y100', ';TYPE:WALL-OUTER', `G1 X120 Y100 E${feed(0.4, 20).toFixed(5)}`,
    ';LAYER:1', 'G0 Z0.4', 'G0 X100 Y110', `G1 X120 Y110 E${feed(0.4, 20).toFixed(5)}`,
    'G0 X100 Y120', `G1 X120 Y120 E${feed(0.8, 20).toFixed(5)}`, 'G1 E-1', trailer,
  ].join('\n');
}

test('the reader keeps each extrusion\'s filament and the layer\'s height; widths follow from them', () => {
  const scan = readGcodeLayer(twoLayers(), 1);
  const layer = scan.layer!;
  assert.equal(layer.height.toFixed(3), '0.200');
  assert.equal(layer.extrusionE.length, 2);
  const width = beadWidths(layer, 0.4, 1.75);
  assert.ok(Math.abs(width(0) - 0.4) < 0.001 && Math.abs(width(1) - 0.8) < 0.001, `${width(0)} ${width(1)}`);
  // no diameter: every bead at the nominal width
  assert.equal(beadWidths(layer, 0.4)(1), 0.4);
  // the first layer's height is its z
  assert.equal(readGcodeLayer(twoLayers(), 0).layer!.height.toFixed(3), '0.200');
});

test('the filament diameter is read from the file where it says it', () => {
  assert.equal(readGcodeLayer(twoLayers(), 1).filamentDiameter, null);
  assert.equal(readGcodeLayer(twoLayers('; filament_diameter = 2.85'), 1).filamentDiameter, 2.85);
  // Stratum's trailer: 3.14 cm³ over 1306.79 mm is a 1.75 mm filament, rounding aside
  assert.equal(readGcodeLayer(twoLayers('; filament used [mm] = 1306.79\n; filament used [cm3] = 3.14'), 1).filamentDiameter, 1.75);
  assert.equal(readGcodeLayer(twoLayers('; filament used [mm] = 100.00\n; filament used [cm3] = 0.64'), 1).filamentDiameter, 2.85);
});

test('stratum preview draws a wide bead wide, and every bead alike with --fixed-width', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stratum-preview-'));
  try {
    const gcode = join(dir, 'two.gcode');
    writeFileSync(gcode, twoLayers());
    const red = (png: string, view: string, ...more: string[]): number => {
      const r = spawnSync(process.execPath, [bin, 'preview', gcode, '--layer', '1', '-o', png, '--view', view, ...more], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      const img = PNG.sync.read(readFileSync(png));
      let n = 0;
      for (let i = 0; i < img.width * img.width * 4; i += 4) if (img.data[i] === 214 && img.data[i + 1] === 39 && img.data[i + 2] === 40) n++;
      return n;
    };
    // a 2 mm square on each line (a view is drawn square): the 0.8 mm bead covers twice the pixels
    const thin = red(join(dir, 'a.png'), '109,109,111,111');
    const wide = red(join(dir, 'b.png'), '109,119,111,121');
    assert.ok(wide > 1.8 * thin && wide < 2.2 * thin, `${wide} pixels against ${thin}`);
    const fixed = red(join(dir, 'c.png'), '109,119,111,121', '--fixed-width');
    assert.ok(Math.abs(fixed - thin) < 0.1 * thin, `${fixed} pixels against ${thin}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
