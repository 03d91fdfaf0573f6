// A layer thread of the bundled `stratum slice` (slice-main.ts points LayerPool here). It loads the
// slice bundle with the V8 code cache made for layer threads (under the flags they start with:
// thread-heap.ts) and serves layer batches from it: the bundle holds the engine's code already
// compiled, so the thread starts its first batch ~0.1 s sooner than from the ~130 plain modules and
// runs less uncompiled code. Without a usable bundle (stale, damaged) it runs the plain modules'
// layer thread instead, as the launcher falls back.
import { parentPort } from 'node:worker_threads';
import { loadSliceBundle } from './bundle-loader.cjs';

const bundle = loadSliceBundle(undefined, { who: 'layer thread', cache: 'thread' });
if (bundle?.serveLayerBatches && parentPort) bundle.serveLayerBatches(parentPort);
else void import('../runner/layer-worker.js');
