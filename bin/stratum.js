#!/usr/bin/env -S node --max-semi-space-size=2 --interrupt-budget=200000
// A 2 MiB young generation (V8's default is 16) keeps peak memory about 30 MiB lower on a slice at
// no measurable cost in time: a slice's garbage is mostly short-lived small arrays.
// A 3× larger interrupt budget makes V8 wait longer before optimising a function: a small model's
// slice spent ~40 % of its CPU in the optimising compiler on code that then hardly ran (CPU −5 to
// −15 % on the small models, no change on 3DBenchy and the bunny, whose hot code still gets optimised).
// Thin launcher: the CLI is compiled from src/cli by `npm ci` (prepare) or `npm run build`.
import('../dist/src/cli/main.js').catch((err) => {
  if (err && err.code === 'ERR_MODULE_NOT_FOUND') {
    console.error('stratum: not built yet; run `npm run build` first');
    process.exit(1);
  }
  throw err;
});
