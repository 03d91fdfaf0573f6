// Parses and slices on the calling thread: no second JavaScript runtime to start (a worker thread
// costs about 12 MiB and 70 ms), which is what a small model's whole-process figures are made of.
// The signal reaches the engine only where it yields to the event loop.
import { slice, initGeometry } from '../engine/index.js';
import type { SliceSettings } from '../engine/index.js';
import { parseModel } from '../engine/mesh/index.js';
import type { SliceOpts, ThreadResult } from './slice-thread.js';

export async function sliceInProcess(bytes: Uint8Array, name: string, settings: SliceSettings, opts: SliceOpts = {}): Promise<ThreadResult> {
  const parsed = parseModel(bytes, name);
  await initGeometry();
  const result = await slice([{ name, mesh: parsed.mesh }], settings, opts);
  return { ...result, triangles: parsed.mesh.indices.length / 3, parseWarnings: parsed.warnings };
}
