// The lean output path: byte assembly, packed plans read one layer at a time, chunked planning.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ByteChunks } from '../src/engine/output/byte-chunks.js';
import { MoveBuffer } from '../src/engine/output/move-buffer.js';
import { writeGcode, writeGcodeBytes } from '../src/engine/output/gcode-writer.js';
import { planSourceOf } from '../src/engine/output/plan-source.js';
import { encodePlans, packedPlanSource, decodePlans } from '../src/engine/plan/codec.js';
import { runLayerBatch, type LayerBatch } from '../src/engine/batch.js';
import { layerSpecs } from '../src/engine/setup/layer-heights.js';
import { initGeometry } from '../src/engine/geom/clipper.js';
import { defaultSettings } from '../src/profiles/defaults.js';
import type { LayerPlan } from '../src/engine/plan/types.js';
import { box, merge } from './mesh-fixtures.js';
import { planLayer } from './plan-fixtures.js';

const META = { modelNames: ['part.stl'], generator: 'Stratum test' };

const layer = planLayer;

test('ByteChunks.join matches string join and UTF-8 encoding, across chunk boundaries', () => {
  const enc = new TextEncoder();
  const p = new ByteChunks();
  p.push('a', '', 'ß');
  p.pushAll(['mid', '✓ ok', '😀 x', 'lone \ud800 high']);
  p.push('end', '');
  assert.deepEqual(p.join(), enc.encode(['a', '', 'ß', 'mid', '✓ ok', '😀 x', 'lone \ud800 high', 'end', ''].join('\n')));
  assert.equal(new ByteChunks().join().length, 0);
  // 1.5 MB of lines, a 600 kB line of three-byte characters and one of two-byte ones: several chunks
  const lines: string[] = [];
  for (let i = 0; i < 60000; i++) lines.push(`G1 X${i}.125 Y${i % 977}.5 E${(i * 0.033).toFixed(5)}`);
  lines.push('✓'.repeat(200000), 'µ'.repeat(100000), '', 'G1 X1');
  const big = new ByteChunks();
  big.push('head');
  big.pushAll(lines);
  const expected = enc.encode(['head', ...lines].join('\n'));
  assert.equal(big.length, expected.length);
  assert.deepEqual(big.join(), expected);
});

test('the move buffer grows with its values kept, then hands its memory to the text', () => {
  const moves = new MoveBuffer(16);
  for (let i = 0; i < 100; i++) moves.push(i, -i, i / 10, i % 3, 25 + i);
  assert.equal(moves.length, 100);
  assert.deepEqual([moves.dx[99], moves.dy[99], moves.dz[99], moves.de[99], moves.feed[99]], [99, -99, 9.9, 0, 124]);
  assert.deepEqual([moves.dx[0], moves.feed[17]], [0, 42]);
  const memory = moves.takeMemory();
  assert.equal(memory.byteLength, 5 * 8 * 128, 'the whole block: five columns of the grown capacity');
  assert.equal(moves.length, 0);
  // text written first into that memory (dirty: old moves), then into new chunks once it is full
  memory.fill(0xff);
  const chunks = new ByteChunks(memory);
  const lines = Array.from({ length: 400 }, (_, i) => `G1 X${i}.5 Y${i} E${i}.12345 ;ü`);
  chunks.pushAll(lines);
  const expected = new TextEncoder().encode(lines.join('\n'));
  assert.ok(expected.length > memory.byteLength, 'the text outgrows the given memory');
  const out = chunks.join();
  assert.deepEqual(out, expected);
  assert.equal(out.buffer.byteLength, out.byteLength, 'an exactly sized file of its own');
});

test('packed plans read one layer at a time give the same file; empty top layers are dropped', () => {
  const plans = Array.from({ length: 12 }, (_, i) => layer(i, i < 10));
  const parts = [encodePlans(plans.slice(0, 5)), encodePlans(plans.slice(5, 9)), encodePlans(plans.slice(9))];
  const source = packedPlanSource(parts);
  assert.equal(source.length, 10);
  assert.equal(source.opCount, 40);
  const fromSource = writeGcodeBytes(source, defaultSettings(), META);
  const direct = writeGcode(plans.slice(0, 10), defaultSettings(), META);
  assert.equal(new TextDecoder().decode(fromSource.output), direct.text);
  assert.deepEqual(fromSource.stats, direct.stats);
  assert.match(direct.text, /;LAYER:9\n/);
  assert.doesNotMatch(direct.text, /;LAYER:10\n/);
  // parts the writer is done with are let go
  assert.throws(() => source.get(0), /already let go/);
  assert.deepEqual(decodePlans(parts[2]!), plans.slice(9));
});

test('a small print walked once (its text kept from pass 1) gives the very file two walks give', () => {
  const plans = Array.from({ length: 12 }, (_, i) => layer(i, true));
  for (const overrides of [{}, { gcodeFlavor: 'klipper' as const, relativeExtrusion: true }, { gcodeFlavor: 'reprap' as const }]) {
    const s = { ...defaultSettings(), ...overrides };
    const once = writeGcodeBytes(planSourceOf(plans), s, META);
    const twice = writeGcodeBytes(planSourceOf(plans), s, META, { keepTextMaxOps: 0 });
    assert.equal(new TextDecoder().decode(once.output), new TextDecoder().decode(twice.output));
    assert.deepEqual(once.stats, twice.stats);
  }
  // packed parts are let go as the single walk passes them, too
  const source = packedPlanSource([encodePlans(plans.slice(0, 6)), encodePlans(plans.slice(6))]);
  writeGcodeBytes(source, defaultSettings(), META);
  assert.throws(() => source.get(0), /already let go/);
});

test('packed plans keep every field, also x and y that are not int32 values', () => {
  const odd: LayerPlan = {
    index: 3,
    z: 800,
    height: 200,
    ops: [
      { op: 'travel', x: 100000.5, y: -0, speed: 150 },
      { op: 'travel', x: 1, y: 2, z: 1000, speed: 150 },
      { op: 'extrude', x: 2 ** 40, y: -5, e: 0.123456789, speed: 12.5 },
      { op: 'feature', type: 'SKIN', model: 1 },
      { op: 'feature', type: 'FILL', model: 0, modelName: 'a.stl' },
      { op: 'retract', length: 5, speed: 40 },
      { op: 'unretract', length: 4.5, speed: 30 },
      { op: 'fan', percent: 55 },
      { op: 'comment', text: 'hello' },
      { op: 'extrude', x: 7, y: 8.25, e: 1, speed: 25 },
    ],
  };
  const plans = [layer(0), odd, layer(5)];
  const packed = encodePlans(plans);
  assert.equal(packed.odd.length, 9); // three ops did not fit
  const back = decodePlans(packed);
  assert.deepEqual(back, plans);
  assert.ok(Object.is((back[1]!.ops[0] as { y: number }).y, -0));
});

test('planning in chunks gives the same plans as planning the batch at once', async () => {
  await initGeometry();
  // a slab with a tower: skins and infill change along the height, across chunk boundaries
  const mesh = merge(box(90000, 90000, 0, 130000, 130000, 2000), box(105000, 105000, 2000, 115000, 115000, 6000));
  const settings = defaultSettings();
  const specs = layerSpecs(6000, settings.firstLayerHeight, settings.layerHeight);
  const batch: LayerBatch = {
    models: [{ positions: Float64Array.from(mesh.positions), indices: Uint32Array.from(mesh.indices) }],
    modelNames: ['part.stl'],
    specs,
    from: 0,
    to: specs.length,
    settings,
  };
  const whole = runLayerBatch(batch).plans;
  const chunks: LayerPlan[][] = [];
  let layersSeen = 0;
  const r = runLayerBatch(batch, (layers) => (layersSeen += layers), undefined, { chunkLayers: 7, onChunk: (p) => chunks.push(p) });
  assert.equal(r.plans.length, 0);
  // each layer counts once, in the three steps of its work
  assert.ok(Math.abs(layersSeen - specs.length) < 1e-9, `${layersSeen} layers of ${specs.length}`);
  assert.deepEqual(chunks.map((c) => c.length), [7, 7, 7, 7, 2]);
  assert.deepEqual(chunks.flat(), whole);
  assert.ok(whole.some((p) => p.ops.some((o) => o.op === 'feature' && o.type === 'SKIN')));
});

test('joining the bytes yields after every 8 MiB copied and gives the same file', () => {
  const make = () => {
    const b = new ByteChunks(new Uint8Array(20 << 20));
    for (let i = 0; i < 620_000; i++) b.push(`G1 X${i % 997}.5 Y${i % 311}.25 E${(i * 0.01).toFixed(5)}`);
    return b;
  };
  const a = make();
  const steps = a.joinSteps();
  let yields = 0;
  let r = steps.next();
  while (!r.done) {
    yields++;
    r = steps.next();
  }
  const whole = make().join();
  assert.ok(whole.length > 16 << 20, `${whole.length} bytes`);
  // the text sits in the one 20 MiB chunk given: three pieces of at most 8 MiB
  assert.equal(yields, Math.ceil(whole.length / (8 << 20)));
  assert.ok(Buffer.from(r.value).equals(Buffer.from(whole)));
});
