// The `stratum` command's V8 flags whose names change from one V8 version to the next, so that they
// cannot stand on bin/stratum.js's shebang line: Node refuses to start on a flag its V8 does not know
// (Node 22 said `node: bad option: --interrupt-budget=500000` to every stratum command). bin/stratum.js
// sets them as its first step, before any of the CLI's code is compiled, and the build's warm-up
// (scripts/warm-slice-cache.mjs) sets them the same way: V8 takes a code cache only under the flags
// it was made with, and it counts flags set at run time as much as those on the command line.
'use strict';
const { setFlagsFromString } = require('node:v8');

/**
 * Make V8 wait longer before it optimises a function: a small model's slice spent ~40 % of its CPU in
 * the optimising compiler on code that then hardly ran. V8 11 (Node 20) measures the wait in bytecode
 * executed: 500000 is 7.4× its default of 67584 (200000 took CPU 5–15 % down on the small models,
 * 500000 with the slice bundle's code cache another 9–18 % and 12 % on the bunny, 3DBenchy's wall time
 * unchanged; 1000000 was slower again; 7 alternated runs each). V8 12 (Node 22.23) counts calls
 * instead: 11100 is 3.7× its default of 3000. Against the default it took the small shared models
 * 8–18 % faster (calibration cube 0.16 → 0.14 s, tall wedge 0.27 → 0.22 s), 3DBenchy and the bunny
 * unchanged or faster; 22200 was as fast on the small models but up to 10 % slower on 3DBenchy, 44400
 * slower everywhere (cache rebuilt under each, 2 rounds of 3–5 alternated runs). From V8 13 (Node 24
 * and 26) nothing: there 11100 was no faster than the default and mostly a little slower (Node 24.21:
 * cube 1.00×, holes plate 1.03×, 3DBenchy 1.03×, bunny 1.01×; Node 26.12: cube 1.01×, holes plate
 * 1.02×, overhang plate 1.04×, 3DBenchy 1.02×; medians of 5–9 alternated runs, cache built under each).
 */
function versionFlags(v8Version = process.versions.v8) {
  const major = Number(String(v8Version).split('.')[0]);
  if (major >= 13) return [];
  return major === 12 ? ['--invocation-count-for-turbofan=11100'] : ['--interrupt-budget=500000'];
}

/** Sets this V8's flags (versionFlags) and gives them back. */
function applyVersionFlags() {
  const flags = versionFlags();
  for (const flag of flags) setFlagsFromString(flag);
  return flags;
}

module.exports = { versionFlags, applyVersionFlags };
