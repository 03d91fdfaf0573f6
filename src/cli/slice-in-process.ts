// Parses and slices on the calling thread: no second JavaScript runtime to start (a worker thread
// costs about 12 MiB and 70 ms), which is what a small model's whole-process figures are made of.
// The signal reaches the engine only where it yields to the event loop.
import { slice, initGeometry, withReadWarnings } from '../engine/index.js';
import type { SliceSettings } from '../engine/index.js';
import { parseModelParts, trianglesOf, type ModelPart } from '../engine/mesh/index.js';
import type { SliceOpts, ThreadResult } from './slice-thread.js';
import { chooseWasmTier } from './wasm-tier.js';

/**
 * A model file's bytes handed over to the slice, which lets go of them once they are parsed: the
 * caller's own reference would otherwise keep the whole file (11 MiB for 3DBenchy's STL) in memory
 * until the G-code is written, which is when a slice's memory peaks.
 */
export interface HandedBytes {
  bytes: Uint8Array | null;
}

export async function sliceInProcess(
  input: Uint8Array | HandedBytes,
  name: string,
  settings: SliceSettings,
  opts: SliceOpts = {},
): Promise<ThreadResult> {
  const parsed = parseHandedBytes(input, name);
  // With layer threads this thread allocates next to nothing until they are done, so nothing makes
  // V8 collect the file's bytes and the parser's scratch (a 98 MB STL: 110 MiB more at the peak, in
  // about half the runs). One collection here lets them go; bin/stratum.js exposes gc.
  if (opts.executor) (globalThis as { gc?: () => void }).gc?.();
  // before the geometry library's WASM is compiled: a small slice runs it unoptimised (wasm-tier.ts);
  // with layer threads (large files) the flag would reach them too, and they want the optimised code
  if (!opts.executor && !opts.keepWasmTier) chooseWasmTier(largestPart(parsed.parts).mesh, settings.layerHeight);
  await initGeometry();
  const result = await slice(parsed.parts, settings, opts).catch((err: unknown) => {
    throw withReadWarnings(err, parsed.warnings);
  });
  return { ...result, triangles: trianglesOf(parsed.parts), parseWarnings: parsed.warnings };
}

const largestPart = (parts: readonly ModelPart[]): ModelPart => parts.reduce((a, b) => (b.mesh.indices.length > a.mesh.indices.length ? b : a));

/** Not async, so that no suspended frame keeps the bytes once they are parsed. */
function parseHandedBytes(input: Uint8Array | HandedBytes, name: string): ReturnType<typeof parseModelParts> {
  if (input instanceof Uint8Array) return parseModelParts(input, name);
  const bytes = input.bytes;
  if (!bytes) throw new Error('the model bytes were already handed over');
  input.bytes = null;
  return parseModelParts(bytes, name);
}
