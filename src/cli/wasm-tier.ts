// Which WASM compiler tier the geometry library (Clipper2 in WASM) runs on in a `stratum slice`
// process. V8 starts every WASM function on its baseline compiler (Liftoff) and recompiles the hot
// ones with its optimising compiler (TurboFan) on a background thread. On a small slice that
// recompilation costs more than it saves: CPU on the second core, ~5–14 MiB of peak memory, and a
// stall of ~15 ms when the main thread first yields after the slice. On a large one the optimised
// code pays for itself many times over. Measured whole-process, 5–7 alternated runs, Liftoff only
// against the default: calibration cube −11 % wall (−22 % CPU, −6.5 MiB), holes plate −10 %
// (−14 MiB), tall wedge −8 %, cube grid −5 %; but broken_extra_surface +23 %, 3DBenchy +11 %.
// What tells them apart before slicing is how many cross-section vertices the layers will hold,
// about Σ over triangles of (height ÷ layer height) (src/engine/setup/work-estimate.ts): 2–15
// thousand for the first group, 24 thousand and more for the rest. So the choice is made per
// process, from the mesh, before the WASM module is compiled (initGeometry).
import { setFlagsFromString } from 'node:v8';
import type { Mesh } from '../engine/index.js';
import { crossSectionVertices } from '../engine/setup/work-estimate.js';

/** Below this many estimated cross-section vertices (summed over the layers) WASM stays on Liftoff. */
export const LIFTOFF_ONLY_BELOW = 20_000;

export type WasmTier = 'liftoff' | 'optimising';

/** The tier for this slice: STRATUM_WASM_TIER=liftoff|optimising forces one, otherwise the estimate decides. */
export function wasmTierFor(mesh: Mesh, layerHeightMm: number, env: NodeJS.ProcessEnv = process.env): WasmTier {
  const forced = env.STRATUM_WASM_TIER;
  if (forced === 'liftoff' || forced === 'optimising') return forced;
  return crossSectionVertices(mesh.positions, mesh.indices, layerHeightMm) < LIFTOFF_ONLY_BELOW ? 'liftoff' : 'optimising';
}

/**
 * Chooses the tier and sets V8's flag for it. Only a process's first WASM compilation follows it,
 * so it must run before initGeometry. The G-code is the same on either tier (only speed differs).
 */
export function chooseWasmTier(mesh: Mesh, layerHeightMm: number, env: NodeJS.ProcessEnv = process.env): WasmTier {
  const tier = wasmTierFor(mesh, layerHeightMm, env);
  if (tier === 'liftoff') setFlagsFromString('--liftoff-only');
  if (env.STRATUM_DEBUG === '1') process.stderr.write(`stratum: WASM tier ${tier}\n`);
  return tier;
}
