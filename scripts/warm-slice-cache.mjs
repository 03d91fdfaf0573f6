// Run by build-slice-bundle.mjs under the launcher's V8 flags (the shebang's; it sets bin/v8-flags.js's
// itself): loads the fresh slice bundle, slices a small generated model through it (so the functions a
// slice runs are compiled: V8 compiles a function only when it first runs), and saves the V8 code cache
// of the bundle with its meta record: one for the main thread and one for layer threads.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// the launcher's flags that depend on the V8 version, set as bin/stratum.js sets them, before any bundle code is compiled
const versionFlags = createRequire(import.meta.url)('../bin/v8-flags.js').applyVersionFlags();
const { BUNDLE_DIR, bundleFiles, cacheCheckable, describeCache, loadSliceBundle, stampCache } = await import('../dist/src/cli/bundle-loader.cjs');
const flags = [...JSON.parse(process.argv[2] ?? '[]'), ...versionFlags];
if (!cacheCheckable()) {
  // the launcher could not check a cache against its bundle here, so it would never use one
  console.warn('warm-slice-cache: this Node has no zlib.crc32 (20.15+): no code cache; the bundle runs without one');
  process.exit(0);
}

/** Binary STL of axis-aligned boxes (each a closed shell; overlapping shells are united by the slicer). */
function boxesStl(boxes) {
  const tris = [];
  for (const [x0, y0, z0, x1, y1, z1] of boxes) {
    const p = (k) => [k & 1 ? x1 : x0, k & 2 ? y1 : y0, k & 4 ? z1 : z0];
    for (const [a, b, c, d] of [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [3, 2, 6, 7], [2, 0, 4, 6], [1, 3, 7, 5]]) {
      tris.push([p(a), p(b), p(c)], [p(a), p(c), p(d)]);
    }
  }
  const buf = Buffer.alloc(84 + 50 * tris.length);
  buf.writeUInt32LE(tris.length, 80);
  tris.forEach((t, i) => t.flat().forEach((v, j) => buf.writeFloatLE(v, 84 + 50 * i + 12 + 4 * j)));
  return buf;
}

// A frame with a hole (walls, skins, sparse infill, travels with retraction), a lid over the hole
// (a bridge) and a thin tower (short layers: cooling slow-down).
const model = boxesStl([
  [0, 0, 0, 20, 6, 4], [0, 14, 0, 20, 20, 4], [0, 0, 0, 6, 20, 4], [14, 0, 0, 20, 20, 4],
  [0, 0, 3.9, 20, 20, 5],
  [8, 8, 4.9, 12, 12, 9],
]);
const work = mkdtempSync(join(tmpdir(), 'stratum-warm-'));
try {
  const bundle = loadSliceBundle(BUNDLE_DIR, { useCache: false });
  if (!bundle) throw new Error('the slice bundle did not load');
  writeFileSync(join(work, 'warm.stl'), model);
  // A small slice switches WASM to Liftoff only (src/cli/wasm-tier.ts) by changing a V8 flag, which
  // V8 would write into the cache's flag hash: the cache would then be refused under the launcher's
  // own flags. The warm-up keeps the flags as they are.
  process.env.STRATUM_WASM_TIER = 'optimising';
  const code = await bundle.runSliceCli([join(work, 'warm.stl'), '-o', join(work, 'warm.gcode'), '--quiet']);
  if (code !== 0) throw new Error(`the warm-up slice failed (exit ${code})`);
  const cache = bundle.script.createCachedData();
  // The layer threads' cache: the same compiled code, made under the flags their isolates start with
  // (the CLI widens their young generation before it starts them: src/cli/thread-heap.ts). V8 writes
  // the flags' hash as they stand when the cache is made; this thread's own heap does not change.
  const { THREAD_SEMI_SPACE_FLAG, widenThreadYoungGeneration } = await import('../dist/src/cli/thread-heap.js');
  widenThreadYoungGeneration();
  const threadCache = bundle.script.createCachedData();
  const threadFlags = [...flags.filter((f) => !f.startsWith('--max-semi-space-size=')), THREAD_SEMI_SPACE_FLAG];
  const files = bundleFiles(BUNDLE_DIR);
  const source = (await import('node:fs')).readFileSync(files.bundle, 'utf8');
  const meta = describeCache(source, cache, flags, { cache: threadCache, flags: threadFlags });
  if (!meta) throw new Error('no zlib.crc32 to check the cache with');
  writeFileSync(files.cache, cache);
  writeFileSync(files.threadCache, threadCache);
  writeFileSync(files.meta, JSON.stringify(stampCache(meta), null, 2) + '\n');
} finally {
  rmSync(work, { recursive: true, force: true });
}
