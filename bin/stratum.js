#!/usr/bin/env -S node --max-semi-space-size=2 --heap-growing-percent=60 --expose-gc
// A 2 MiB young generation (V8's default is 16) keeps peak memory about 30 MiB lower on a slice at
// no measurable cost in time: a slice's garbage is mostly short-lived small arrays.
// (Threads a slice starts get 8 MiB: src/cli/thread-heap.ts.)
// A fixed old-generation growth of 1.6× (V8 picks up to 4× when collection is cheap) keeps the peak
// from depending on whether a major collection happens to come before the G-code is written: peak
// RSS of 3DBenchy, broken_extra_surface and the bunny went from two modes (e.g. 89–94 or 105–113 MiB
// on extra_surface) to the lower one, for a few % of CPU at most (--optimize-for-size: ~6 MiB less
// again but +13–18 % CPU).
// --expose-gc lets a large model's slice collect once after parsing, before it waits on its layer
// threads (slice-in-process.ts says why).
// Only flags every supported Node knows stand on that line; the ones V8 renames between versions
// (when to optimise a function) are set by bin/v8-flags.js, first thing below.
// Thin launcher: the CLI is compiled from src/cli by `npm ci` (prepare) or `npm run build`.
// `stratum slice` runs from the slice bundle (one file and a V8 code cache, made by the build:
// scripts/build-slice-bundle.mjs), which starts a small model's slice faster than ~130 separate
// modules; without a usable bundle (or with STRATUM_SLICE_BUNDLE=0) it runs from the modules.
// This file is CommonJS (bin/package.json says so), as are the bundle and its loader: a slice then
// never starts Node's ES module loader, which took ~10 ms of a small model's whole-process time.
require('./v8-flags.js').applyVersionFlags();
const notBuilt = (err) => err && (err.code === 'ERR_MODULE_NOT_FOUND' || err.code === 'MODULE_NOT_FOUND');
const fail = (err) => {
  if (notBuilt(err)) {
    console.error('stratum: not built yet; run `npm run build` first');
    process.exit(1);
  }
  throw err;
};
const runMain = () => import('../dist/src/cli/main.js').catch(fail);
const runBundled = (argv) => {
  let loader;
  try {
    loader = require('../dist/src/cli/bundle-loader.cjs');
  } catch (err) {
    if (notBuilt(err)) return null;
    throw err;
  }
  const bundle = loader.loadSliceBundle();
  return bundle ? bundle.runSliceCli(argv) : null;
};
const bundled = process.argv[2] === 'slice' && process.env.STRATUM_SLICE_BUNDLE !== '0' ? runBundled(process.argv.slice(3)) : null;
if (process.argv[2] === 'slice' && process.env.STRATUM_SLICE_BUNDLE === '0' && process.env.STRATUM_DEBUG === '1') {
  process.stderr.write('stratum: slice runs from the plain modules (STRATUM_SLICE_BUNDLE=0)\n');
}
if (bundled) {
  bundled.then((code) => {
    process.exitCode = code;
  }, fail);
} else {
  runMain();
}
