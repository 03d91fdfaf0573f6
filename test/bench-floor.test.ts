// The bench's fixed-cost line: the 1 mm cube it slices is a closed 1 mm³ solid, and the floor is
// measured through real processes; and its batch line (the small models in one process).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measureFloor, tinyCubeStl } from '../bench/floor.js';
import { measureBatch } from '../bench/batch.js';
import type { ModelResult } from '../bench/engine-bench.js';
import { parseModel } from '../src/engine/mesh/index.js';

test('bench floor: the 1 mm cube is 12 outward-facing triangles enclosing 1 mm³', () => {
  const { mesh, warnings } = parseModel(new TextEncoder().encode(tinyCubeStl()), 'tiny_cube.stl');
  assert.deepEqual(warnings, []);
  assert.equal(mesh.indices.length / 3, 12);
  // signed volume by the divergence theorem: positive only if every face points outwards
  let volume = 0;
  const p = mesh.positions;
  for (let t = 0; t < mesh.indices.length; t += 3) {
    const [a, b, c] = [mesh.indices[t]! * 3, mesh.indices[t + 1]! * 3, mesh.indices[t + 2]! * 3];
    volume +=
      (p[a]! * (p[b + 1]! * p[c + 2]! - p[b + 2]! * p[c + 1]!) -
        p[a + 1]! * (p[b]! * p[c + 2]! - p[b + 2]! * p[c]!) +
        p[a + 2]! * (p[b]! * p[c + 1]! - p[b + 1]! * p[c]!)) /
      6;
  }
  assert.ok(Math.abs(volume - 1) < 1e-9, `volume ${volume}`);
});

test('bench floor: runs each command on the cube and gives medians of real runs', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'stratum-floor-'));
  try {
    const seen: string[] = [];
    const floor = await measureFloor(2, ['stratum', 'cura'], dir, (s, model, out) => {
      seen.push(`${s} ${model} ${out}`);
      // a stand-in slicer that fails for 'cura': its figure must be missing, not zero
      return [process.execPath, ['-e', s === 'cura' ? 'process.exit(3)' : '0']];
    });
    assert.equal(seen.length, 4);
    assert.ok(existsSync(join(dir, 'tiny_cube.stl')));
    assert.ok(floor.nodeS !== null && floor.nodeS > 0);
    assert.ok(floor.tinyCubeS.stratum != null && floor.tinyCubeS.stratum > 0);
    assert.equal(floor.tinyCubeS.cura, null);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bench floor: node -e 0 is also timed without NODE_EXTRA_CA_CERTS, only when the environment sets it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'stratum-floor-'));
  const saved = process.env.NODE_EXTRA_CA_CERTS;
  const stand = (): [string, string[]] => [process.execPath, ['-e', '0']];
  try {
    process.env.NODE_EXTRA_CA_CERTS = join(dir, 'no-such-bundle.pem');
    const withVar = await measureFloor(1, ['stratum'], dir, stand);
    assert.ok(withVar.nodeNoExtraCertsS != null && withVar.nodeNoExtraCertsS > 0);
    delete process.env.NODE_EXTRA_CA_CERTS;
    const withoutVar = await measureFloor(1, ['stratum'], dir, stand);
    assert.equal(withoutVar.nodeNoExtraCertsS, undefined);
  } finally {
    if (saved === undefined) delete process.env.NODE_EXTRA_CA_CERTS;
    else process.env.NODE_EXTRA_CA_CERTS = saved;
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bench batch: all small models through one real `stratum slice`, beside the sum of the per-model medians', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'stratum-batch-'));
  try {
    const a = join(dir, 'a.stl');
    const b = join(dir, 'b.stl');
    writeFileSync(a, tinyCubeStl());
    writeFileSync(b, tinyCubeStl());
    const bin = join(fileURLToPath(new URL('../..', import.meta.url)), 'bin', 'stratum');
    const row = (model: string, stratum: number, cura: number | null): ModelResult =>
      ({ model, slicers: { stratum: { wallS: stratum }, ...(cura === null ? {} : { cura: { wallS: cura } }) } }) as unknown as ModelResult;
    const figures = await measureBatch(bin, [a, b], [row('a.stl', 0.5, 0.2), row('b.stl', 0.25, 0.1)], 2, dir);
    assert.deepEqual(figures.models, ['a.stl', 'b.stl']);
    assert.ok(figures.stratumS !== null && figures.stratumS > 0, 'the batch ran');
    assert.deepEqual(readdirSync(join(dir, 'batch')).sort(), ['a.gcode', 'b.gcode']);
    assert.deepEqual(figures.perProcessS, { stratum: 0.75, cura: 0.3, prusa: null });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
