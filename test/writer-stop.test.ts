// The G-code writer checks for a stop and reports progress as it walks the layers: a large print's
// file takes seconds to write, and a cancel that came then waited for the whole file (the service's
// grace then ended the thread) while the progress bar sat still.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeGcodeBytes, writeGcodeSteps } from '../src/engine/output/gcode-writer.js';
import { slice } from '../src/engine/pipeline.js';
import { SliceCancelled, type ModelInput } from '../src/engine/types.js';
import { planLayer } from './plan-fixtures.js';
import { defaultSettings } from '../src/profiles/defaults.js';
import { box } from './mesh-fixtures.js';

const META = { modelNames: ['part.stl'], generator: 'Stratum test' };

const layers = (n: number) => Array.from({ length: n }, (_, i) => planLayer(i));

/** A signal that turns aborted after it has been read `reads` times (as a shared stop flag would). */
function signalAfter(reads: number): { signal: AbortSignal; readsSeen: () => number } {
  let seen = 0;
  const signal = {
    get aborted() {
      seen++;
      return seen > reads;
    },
  } as AbortSignal;
  return { signal, readsSeen: () => seen };
}

for (const keepTextMaxOps of [0, 1_000_000]) {
  const walks = keepTextMaxOps === 0 ? 'two walks' : 'one walk (text kept)';
  test(`a stop during the write ends it within a few layers (${walks})`, () => {
    // every 8th layer reads the flag: 400 layers are 50 reads a walk; the stop comes on the 10th
    const { signal, readsSeen } = signalAfter(9);
    assert.throws(() => writeGcodeBytes(layers(400), defaultSettings(), META, { signal, keepTextMaxOps }), SliceCancelled);
    assert.equal(readsSeen(), 10, 'it stopped at the first check after the stop');
  });

  test(`progress climbs from 0 to 1 through the write (${walks})`, () => {
    const seen: number[] = [];
    const n = 400;
    const written = writeGcodeBytes(layers(n), defaultSettings(), META, { keepTextMaxOps, onProgress: (f) => seen.push(f) });
    assert.ok(written.output.length > 0);
    // one report every 8 layers in each walk, and the stages between them
    assert.ok(seen.length >= (2 * n) / 8, `${seen.length} reports`);
    assert.equal(seen[0], 0);
    assert.equal(seen[seen.length - 1], 1);
    for (let i = 1; i < seen.length; i++) assert.ok(seen[i]! >= seen[i - 1]!, `progress ${seen[i - 1]} → ${seen[i]}`);
    assert.ok(seen.some((f) => f > 0.1 && f < 0.5), 'the first walk reports on its way');
    assert.ok(seen.some((f) => f > 0.6 && f < 1), 'the second walk reports on its way');
  });
}

test('a writer not asked to stop reads the signal and writes the whole file', () => {
  const { signal, readsSeen } = signalAfter(Infinity);
  const n = 100;
  const written = writeGcodeBytes(layers(n), defaultSettings(), META, { signal, keepTextMaxOps: 0 });
  const text = new TextDecoder().decode(written.output);
  assert.equal(text.match(/^;LAYER:\d+$/gm)?.length, n);
  assert.ok(readsSeen() >= (2 * n) / 8, `${readsSeen()} checks`);
});

test('through slice(): the output stage moves the bar from the layers\' share to the end', async () => {
  const b = box(100, 100, 0, 120, 120, 30);
  const model: ModelInput = { name: 'a', mesh: { positions: Float32Array.from(b.positions), indices: Uint32Array.from(b.indices) }, keepPosition: true };
  const seen: Array<[number, string]> = [];
  await slice([model], defaultSettings(), { onProgress: (f, stage) => seen.push([f, stage]) });
  const output = seen.filter(([, s]) => s === 'output').map(([f]) => f);
  assert.ok(output.length >= 5, `${output.length} output reports`);
  assert.ok(output[0]! >= 0.85 && output[output.length - 1]! < 1, `output reports ${output[0]} … ${output[output.length - 1]}`);
  assert.deepEqual(seen[seen.length - 1], [1, 'done']);
});

test('through slice(): a stop that comes in the output stage cancels the slice', async () => {
  const b = box(100, 100, 0, 120, 120, 30);
  const model: ModelInput = { name: 'a', mesh: { positions: Float32Array.from(b.positions), indices: Uint32Array.from(b.indices) }, keepPosition: true };
  const stop = new AbortController();
  let afterStop = 0;
  await assert.rejects(
    slice([model], defaultSettings(), {
      signal: stop.signal,
      onProgress: (f, stage) => {
        if (stop.signal.aborted) afterStop++;
        if (stage === 'output' && f > 0.9) stop.abort();
      },
    }),
    SliceCancelled,
  );
  assert.ok(afterStop <= 1, `${afterStop} reports after the stop`);
});

for (const keepTextMaxOps of [0, 1_000_000]) {
  test(`the write yields every 8 layers of each walk, for a caller on the main thread (${keepTextMaxOps === 0 ? 'two walks' : 'one walk'})`, () => {
    const steps = writeGcodeSteps(layers(400), defaultSettings(), META, { keepTextMaxOps });
    let yields = 0;
    let r = steps.next();
    while (!r.done) {
      yields++;
      r = steps.next();
    }
    // 50 places a walk (the text of a small print is made in the first walk, the second still walks),
    // one after each of the time simulation's four passes (one block of moves each here) and one
    // after the join of the file's bytes (one piece)
    assert.equal(yields, 100 + 4 + 1);
    assert.ok(Buffer.from(r.value.output).equals(Buffer.from(writeGcodeBytes(layers(400), defaultSettings(), META, { keepTextMaxOps }).output)));
  });
}
