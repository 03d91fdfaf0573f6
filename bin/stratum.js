#!/usr/bin/env -S node --max-semi-space-size=2 --interrupt-budget=500000 --heap-growing-percent=60
// A 2 MiB young generation (V8's default is 16) keeps peak memory about 30 MiB lower on a slice at
// no measurable cost in time: a slice's garbage is mostly short-lived small arrays.
// A larger interrupt budget (7.4× V8 11.3's 67584) makes V8 wait longer before optimising a
// function: a small model's slice spent ~40 % of its CPU in the optimising compiler on code that
// then hardly ran. 200000 took CPU 5–15 % down on the small models; 500000 (with the slice bundle's
// code cache) another 9–18 %, and 12 % on the bunny, 3DBenchy's wall time unchanged; 1000000 was
// slower again (7 alternated runs each).
// A fixed old-generation growth of 1.6× (V8 picks up to 4× when collection is cheap) keeps the peak
// from depending on whether a major collection happens to come before the G-code is written: peak
// RSS of 3DBenchy, broken_extra_surface and the bunny went from two modes (e.g. 89–94 or 105–113 MiB
// on extra_surface) to the lower one, for a few % of CPU at most (--optimize-for-size: ~6 MiB less
// again but +13–18 % CPU).
// Thin launcher: the CLI is compiled from src/cli by `npm ci` (prepare) or `npm run build`.
// `stratum slice` runs from the slice bundle (one file and a V8 code cache, made by the build:
// scripts/build-slice-bundle.mjs), which starts a small model's slice faster than ~130 separate
// modules; without a usable bundle (or with STRATUM_SLICE_BUNDLE=0) it runs from the modules.
const fail = (err) => {
  if (err && err.code === 'ERR_MODULE_NOT_FOUND') {
    console.error('stratum: not built yet; run `npm run build` first');
    process.exit(1);
  }
  throw err;
};
const runBundled = async (argv) => {
  const { loadSliceBundle } = await import('../dist/src/cli/bundle-loader.js');
  const bundle = loadSliceBundle();
  if (!bundle) return false;
  process.exitCode = await bundle.runSliceCli(argv);
  return true;
};
if (process.argv[2] === 'slice' && process.env.STRATUM_SLICE_BUNDLE !== '0') {
  runBundled(process.argv.slice(3))
    .then((done) => done || import('../dist/src/cli/main.js'))
    .catch(fail);
} else {
  import('../dist/src/cli/main.js').catch(fail);
}
