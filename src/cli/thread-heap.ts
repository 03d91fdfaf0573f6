// The young generation of the threads `stratum slice` starts (a large model's layer threads, or the
// whole slice's with STRATUM_SLICE_THREAD=worker). The launcher gives the process a 2 MiB semi-space
// (bin/stratum.js: a main-thread slice's peak memory ~30 MiB lower), and V8 takes that flag over a
// Worker's own resourceLimits. But V8 reads it when it sets up an isolate: changed at run time, it
// holds for threads started after, while the main thread keeps its 2 MiB. A layer thread keeps each
// layer's geometry alive across many 2 MiB scavenges (the bunny's thread: 628 of them, 0.77 s of its
// ~4.5 s); at 8 MiB its layer stage took 3.64 → 3.31 s (four alternated runs each, one process:
// 3642, 3642, 3642, 3623 against 3384, 3296, 3340, 3285 ms), the thread holding ~15 MiB more.
// The slice bundle's code cache for layer threads is made under this flag too (V8 counts it in the
// flags a cache must match: scripts/warm-slice-cache.mjs).
import { setFlagsFromString } from 'node:v8';

/** Semi-space of the threads a slice starts, MiB. */
export const THREAD_SEMI_SPACE_MB = 8;
export const THREAD_SEMI_SPACE_FLAG = `--max-semi-space-size=${THREAD_SEMI_SPACE_MB}`;

/** Threads started from now on get THREAD_SEMI_SPACE_MB; this thread keeps its own. */
export function widenThreadYoungGeneration(): void {
  setFlagsFromString(THREAD_SEMI_SPACE_FLAG);
}
