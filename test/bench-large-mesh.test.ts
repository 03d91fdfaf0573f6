// The bench's generated large mesh (bench/large-mesh.ts): at a small size, the closed sphere is a
// closed surface with no degenerate triangle, the open one has a hole, and both slice.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { wavySphereStl } from '../bench/large-mesh.js';
import { parseModel } from '../src/engine/mesh/index.js';
import { boundaryEdges } from '../src/engine/layers/holes.js';
import { slice } from '../src/engine/index.js';
import { defaultSettings } from '../src/profiles/defaults.js';

test('the generated sphere: closed with 2·rings·cols − 2·cols triangles, none dropped; the open one has a hole; both slice alike', async () => {
  const rings = 40;
  const closed = parseModel(new Uint8Array(wavySphereStl(rings, false)), 'sphere.stl');
  assert.deepEqual(closed.warnings, []);
  assert.equal(closed.mesh.indices.length / 3, 2 * rings * (2 * rings) - 2 * (2 * rings));
  assert.deepEqual(boundaryEdges(closed.mesh.indices, closed.mesh.positions.length / 3), [], 'every edge used twice');
  const open = parseModel(new Uint8Array(wavySphereStl(rings, true)), 'open.stl');
  assert.deepEqual(open.warnings, []);
  // the slot: 3 cells wide, over the rows strictly between a tenth and nine tenths of the rings
  const rows = Array.from({ length: rings }, (_, i) => i).filter((i) => i > rings / 10 && i < rings - rings / 10).length;
  assert.equal(boundaryEdges(open.mesh.indices, open.mesh.positions.length / 3).length, 2 * rows + 2 * 3, 'a slot down the side');
  const s = defaultSettings();
  const a = await slice([{ name: 'sphere', mesh: closed.mesh }], s);
  const b = await slice([{ name: 'sphere', mesh: open.mesh }], s);
  assert.equal(a.stats.layerCount, b.stats.layerCount);
  assert.ok(Math.abs(a.stats.filamentMm - b.stats.filamentMm) < 0.01 * a.stats.filamentMm, `filament ${a.stats.filamentMm} against ${b.stats.filamentMm}`);
});
