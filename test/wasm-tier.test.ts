// The CLI's choice of WASM compiler tier (src/cli/wasm-tier.ts): from the mesh's estimated
// cross-section vertices (the estimate itself: test/layer-threads.test.ts), or forced by
// STRATUM_WASM_TIER.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LIFTOFF_ONLY_BELOW, wasmTierFor } from '../src/cli/wasm-tier.js';
import { crossSectionVertices } from '../src/engine/setup/work-estimate.js';
import { box } from './mesh-fixtures.js';

const meshOf = (t: { positions: number[]; indices: number[] }) => ({ positions: Float32Array.from(t.positions), indices: Uint32Array.from(t.indices) });

test('the tier: Liftoff below the threshold, optimised above, and the environment overrides', () => {
  const small = meshOf(box(0, 0, 0, 20, 20, 10));
  // 8 side triangles 2000 layers tall each: 16000; at 0.1 mm twice that
  const tall = meshOf(box(0, 0, 0, 20, 20, 400));
  assert.equal(wasmTierFor(small, 0.2, {}), 'liftoff');
  assert.ok(crossSectionVertices(tall.positions, tall.indices, 0.2) < LIFTOFF_ONLY_BELOW);
  assert.equal(wasmTierFor(tall, 0.2, {}), 'liftoff');
  assert.equal(wasmTierFor(tall, 0.1, {}), 'optimising');
  assert.equal(wasmTierFor(small, 0.2, { STRATUM_WASM_TIER: 'optimising' }), 'optimising');
  assert.equal(wasmTierFor(tall, 0.1, { STRATUM_WASM_TIER: 'liftoff' }), 'liftoff');
  // anything else is the automatic choice
  assert.equal(wasmTierFor(small, 0.2, { STRATUM_WASM_TIER: 'fast' }), 'liftoff');
});
