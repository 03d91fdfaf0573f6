#!/usr/bin/env -S node --max-semi-space-size=2 --interrupt-budget=200000 --heap-growing-percent=60
// A 2 MiB young generation (V8's default is 16) keeps peak memory about 30 MiB lower on a slice at
// no measurable cost in time: a slice's garbage is mostly short-lived small arrays.
// A 3× larger interrupt budget makes V8 wait longer before optimising a function: a small model's
// slice spent ~40 % of its CPU in the optimising compiler on code that then hardly ran (CPU −5 to
// −15 % on the small models, no change on 3DBenchy and the bunny, whose hot code still gets optimised).
// A fixed old-generation growth of 1.6× (V8 picks up to 4× when collection is cheap) keeps the peak
// from depending on whether a major collection happens to come before the G-code is written: peak
// RSS of 3DBenchy, broken_extra_surface and the bunny went from two modes (e.g. 89–94 or 105–113 MiB
// on extra_surface) to the lower one, for a few % of CPU at most (--optimize-for-size: ~6 MiB less
// again but +13–18 % CPU).
// Thin launcher: the CLI is compiled from src/cli by `npm ci` (prepare) or `npm run build`.
import('../dist/src/cli/main.js').catch((err) => {
  if (err && err.code === 'ERR_MODULE_NOT_FOUND') {
    console.error('stratum: not built yet; run `npm run build` first');
    process.exit(1);
  }
  throw err;
});
