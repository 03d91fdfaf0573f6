// A model refused for its size says what its size is: a 20 µm cube is "too small (20 × 20 × 20 µm)",
// not "flat (0.0 × 0.0 × 0.0 mm)", and a thin sheet keeps its thickness ("0.05", not "0.1").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { placeModels } from '../src/engine/setup/place.js';
import { sizeText } from '../src/engine/setup/size-text.js';
import { SliceError, type ModelInput } from '../src/engine/types.js';
import { defaultSettings } from '../src/profiles/defaults.js';
import { box, type TestMesh } from './mesh-fixtures.js';

const model = (m: TestMesh): ModelInput => ({ name: 'm', mesh: { positions: Float32Array.from(m.positions), indices: Uint32Array.from(m.indices) } });

function refusal(m: TestMesh): string {
  try {
    placeModels([model(m)], defaultSettings());
  } catch (e) {
    assert.ok(e instanceof SliceError && e.code === 'EMPTY', String(e));
    return e.message;
  }
  assert.fail('placed');
}

test('a model under a line wide and under half a first layer tall is too small, sized in µm', () => {
  assert.equal(refusal(box(0, 0, 0, 0.02, 0.02, 0.02)), "model 'm' is too small (20 × 20 × 20 µm): nothing to print at 0.2 mm first layer");
  // a sheet is flat, with its thickness to two digits
  assert.equal(refusal(box(0, 0, 0, 20, 20, 0.05)), "model 'm' is flat (20.0 × 20.0 × 0.05 mm): nothing to print at 0.2 mm first layer");
  // several (a workspace in metres): all of them
  const tiny = [model(box(0, 0, 0, 0.02, 0.02, 0.02)), model(box(0.03, 0, 0, 0.05, 0.02, 0.02))];
  assert.throws(() => placeModels(tiny, defaultSettings()), /^SliceError: the 2 models together are too small \(50 × 20 × 20 µm\)/);
});

test('sizes: one decimal from 1 mm, two digits below, micrometres when every side is under 1 mm', () => {
  assert.equal(sizeText(500, 500, 10), '500.0 × 500.0 × 10.0 mm');
  assert.equal(sizeText(20, 20, 0), '20.0 × 20.0 × 0.0 mm');
  assert.equal(sizeText(20, 0.123, 0.0004), '20.0 × 0.12 × 0.0004 mm');
  assert.equal(sizeText(0.5, 0.02, 0.001), '500 × 20 × 1 µm');
  assert.equal(sizeText(2e-8, 2e-8, 0), '0.00002 × 0.00002 × 0 µm');
});
