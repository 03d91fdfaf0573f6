// What several models in one job mean (an outside audit of workspaces found each gap): printed
// models that overlap print the overlap once, as the first model's; models that all float are
// lowered to the bed with a warning, and one left in the air beside one on the bed is refused; a name given twice still gives every model its own `;MESH:`;
// keys a modifier cannot have are reported.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { distinctNames, slice } from '../src/engine/pipeline.js';
import type { Mesh, ModelInput } from '../src/engine/types.js';
import { resolveSettings } from '../src/profiles/index.js';
import { readWorkspace } from '../src/service/workspace/read-workspace.js';
import { cloudMatches } from '../src/service/workspace/model-inputs.js';
import { box } from './mesh-fixtures.js';

const settings = resolveSettings({}).settings;
const meshOf = (x0: number, y0: number, z0: number, x1: number, y1: number, z1: number): Mesh => {
  const b = box(x0, y0, z0, x1, y1, z1);
  return { positions: Float32Array.from(b.positions), indices: Uint32Array.from(b.indices) };
};
const placed = (name: string, mesh: Mesh): ModelInput => ({ name, mesh, keepPosition: true });

/** Extrusion segments per `;MESH:` name: [x0, y0, x1, y1] on the layers between z 3 and 7. */
function extrusionsByMesh(text: string): Map<string, number[][]> {
  const out = new Map<string, number[][]>();
  let mesh = '';
  let x = 0, y = 0, z = 0, e = 0;
  for (const raw of text.split('\n')) {
    if (raw.startsWith(';MESH:')) mesh = raw.slice(6);
    const code = raw.split(';')[0]!.trim();
    if (code.startsWith('G92')) e = 0;
    if (!/^G[01]\s/.test(code)) continue;
    const v = (l: string) => {
      const m = new RegExp(`\\s${l}(-?[0-9.]+)`).exec(' ' + code);
      return m ? Number(m[1]) : undefined;
    };
    const nx = v('X') ?? x, ny = v('Y') ?? y, ne = v('E') ?? e;
    z = v('Z') ?? z;
    if (ne > e && (nx !== x || ny !== y) && z > 3 && z < 7) {
      if (!out.has(mesh)) out.set(mesh, []);
      out.get(mesh)!.push([x, y, nx, ny]);
    }
    x = nx;
    y = ny;
    e = ne;
  }
  return out;
}

test('printed models that overlap: the overlap is the first model\'s, the second stops at its surface', async () => {
  // a: x 100–120, b: x 110–130; the overlap x 110–120 belongs to a
  const r = await slice([placed('a', meshOf(100, 100, 0, 120, 120, 10)), placed('b', meshOf(110, 100, 0, 130, 120, 10))], settings);
  const byMesh = extrusionsByMesh(new TextDecoder().decode(r.output));
  const b = byMesh.get('b') ?? [];
  assert.ok(b.length > 50, `b prints (${b.length} segments)`);
  // half a line width of tolerance: b's outer wall runs along x = 120, a bead's centre inside it
  const intoA = b.filter(([x0, , x1]) => Math.min(x0!, x1!) < 120 - 0.25);
  assert.deepEqual(intoA.slice(0, 3), [], `${intoA.length} of b's extrusions lie inside a`);
  assert.ok((byMesh.get('a') ?? []).some(([x0, , x1]) => Math.max(x0!, x1!) > 119), 'a still fills its whole box');
});

test('models that all stand above the bed are lowered together, and the client is told how far', async () => {
  const r = await slice([placed('up', meshOf(100, 100, 5, 120, 120, 15))], settings);
  assert.ok(r.stats.warnings.some((w) => /lowered by 5\.0 mm/.test(w)), r.stats.warnings.join('; '));
  assert.ok(Math.abs(r.stats.bounds.max[2] - 10) < 0.05, `the top is at ${r.stats.bounds.max[2]} mm`);
  const onBed = await slice([placed('down', meshOf(100, 100, 0, 120, 120, 10))], settings);
  assert.deepEqual(onBed.stats.warnings.filter((w) => /lowered/.test(w)), []);
});

test('a model left in the air beside one on the bed is refused, naming it and why it is up there', async () => {
  const standing = placed('standing.stl', meshOf(120, 120, 0, 140, 140, 10));
  // one model reaches 5 mm below the bed: the job is raised 5 mm, the other no longer stands on it
  await assert.rejects(
    slice([placed('sunk.stl', meshOf(60, 60, -5, 80, 80, 10)), standing], settings),
    (e: Error) =>
      /^model 'standing\.stl' would print in the air: it starts 5\.0 mm above the bed with nothing under it; the models were raised 5\.0 mm together because 'sunk\.stl' reaches that far below the bed\. Place it on the bed or on another model, or slice with support$/.test(e.message),
  );
  // one on the bed, one placed 10 mm up beside it
  await assert.rejects(slice([standing, placed('up.stl', meshOf(60, 60, 10, 80, 80, 20))], settings), (e: Error) =>
    /^model 'up\.stl' would print in the air: it starts 10\.0 mm above the bed with nothing under it\. /.test(e.message),
  );
  // stacked on another model, or with support under it: printed
  const stacked = await slice([standing, placed('lid.stl', meshOf(125, 125, 10, 135, 135, 12))], settings);
  assert.ok(stacked.stats.layerCount >= 59, `${stacked.stats.layerCount} layers`);
  const supported = await slice([standing, placed('up.stl', meshOf(60, 60, 10, 80, 80, 20))], { ...settings, supportType: 'everywhere' });
  assert.ok(supported.stats.layerCount >= 99, `${supported.stats.layerCount} layers`);
});

test('the worker checks heights as they will print: a job floating above the build height is lowered, not refused', async () => {
  const { checkModelsOnBed } = await import('../src/service/workspace/on-bed.js');
  const tri = (z0: number, z1: number) => [[100, 100, z0], [120, 100, z0], [100, 120, z1]];
  const ws = (...spans: Array<[number, number]>) =>
    readWorkspace(new TextEncoder().encode(JSON.stringify({ Models: spans.map(([a, b], i) => ({ metaData: { Name: `m${i}` }, ModelPositions: tri(a, b) })) })), 'w.json');
  // a cube at z 240–260 on a printer 250 mm high prints at 0–20
  assert.doesNotThrow(() => checkModelsOnBed(ws([240, 260]).placed, settings));
  // two models 0–20 and 235–255 stay 255 mm tall together: refused, saying so
  assert.throws(
    () => checkModelsOnBed(ws([240, 260], [475, 495]).placed, settings),
    (e: Error) => /^model 'm1' \(Models\[1\]\) lies outside the build volume of Creality Ender 3: it spans \(100\.0, 100\.0, 235\.0\)…\(120\.0, 120\.0, 255\.0\) mm once the models are lowered 240\.0 mm onto the bed/.test(e.message),
  );
  // below the bed: raised the same way
  assert.doesNotThrow(() => checkModelsOnBed(ws([-10, 10]).placed, settings));
});

test('a name given to two models gives each its own ;MESH:', async () => {
  assert.deepEqual(distinctNames(['a', 'b', 'a', 'a', 'a (2)']), ['a', 'b', 'a (3)', 'a (4)', 'a (2)']);
  const r = await slice([placed('dup', meshOf(60, 100, 0, 80, 120, 5)), placed('dup', meshOf(140, 100, 0, 160, 120, 5))], settings);
  const meshes = new Set(new TextDecoder().decode(r.output).split('\n').filter((l) => l.startsWith(';MESH:') && l !== ';MESH:NONMESH'));
  assert.deepEqual([...meshes].sort(), [';MESH:dup', ';MESH:dup (2)']);
});

test('a modifier key other than FillDensityFactor is reported, not silently dropped', () => {
  const tri = [[0, 0, 0], [10, 0, 0], [0, 10, 0], [0, 0, 10]];
  const ws = {
    Models: [
      { ModelPositions: tri, ModelIndices: [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3], metaData: { Name: 'part', SlicingPriority: 0 } },
      {
        ModelPositions: tri,
        ModelIndices: [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3],
        metaData: { Name: 'soft', SlicingPriority: 1, Modifier: { FillDensityFactor: 0.4, InfillPattern: 'gyroid' } },
      },
    ],
  };
  const read = readWorkspace(new TextEncoder().encode(JSON.stringify(ws)), 'ws.json');
  assert.equal(read.modifiers[0]!.fillDensity, 0.4);
  assert.ok(read.warnings.some((w) => /'InfillPattern'.*only FillDensityFactor/.test(w)), read.warnings.join('; '));
});

test('a model sent as loose triangles (indices 0…N-1) is welded like a model file; repeats are dropped and reported', async () => {
  const b = box(100, 100, 0, 120, 120, 10);
  const soup: number[][] = b.indices.map((i) => [b.positions[3 * i]!, b.positions[3 * i + 1]!, b.positions[3 * i + 2]!]);
  const twice = [...soup, ...soup.slice(0, 6)]; // two faces repeated, as some exporters write them
  const ws = { Models: [{ ModelPositions: twice, ModelIndices: twice.map((_, i) => i), metaData: { Name: 'loose', SlicingPriority: 0 } }] };
  const read = readWorkspace(new TextEncoder().encode(JSON.stringify(ws)), 'ws.json');
  const mesh = read.models[0]!.mesh;
  assert.equal(mesh.positions.length / 3, 8, 'the 36 + 6 points are the 8 corners');
  assert.equal(mesh.indices.length / 3, 12);
  assert.ok(read.warnings.some((w) => /model 'loose'.*dropped 2 duplicate triangle\(s\) of 14/.test(w)), read.warnings.join('; '));
  // and it prints as the same box read from indices that share corners
  const welded = await slice([read.models[0]!], settings);
  const shared = await slice([placed('loose', meshOf(100, 100, 0, 120, 120, 10))], settings);
  assert.equal(welded.stats.filamentMm.toFixed(1), shared.stats.filamentMm.toFixed(1));
  assert.equal(welded.stats.layerCount, 50);
});

test('a FileReference matches its PC_SV file in another Unicode form (NFD from macOS against NFC) as in another case', () => {
  const nfc = 'caf\u00e9.bin';
  const nfd = 'cafe\u0301.bin';
  assert.notEqual(nfc, nfd);
  assert.deepEqual(cloudMatches([{ fileName: nfd }], nfc), [{ fileName: nfd }]);
  assert.deepEqual(cloudMatches([{ fileName: nfc }], 'CAFE\u0301.BIN'), [{ fileName: nfc }]);
  // an exact name still wins over a look-alike
  assert.deepEqual(cloudMatches([{ fileName: nfd }, { fileName: nfc }], nfc), [{ fileName: nfc }]);
  assert.deepEqual(cloudMatches([{ fileName: 'other.bin' }], nfc), []);
});
