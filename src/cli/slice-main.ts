// `stratum slice` on its own: the entry point of the slice bundle (dist/bundle/slice.cjs, built by
// scripts/build-slice-bundle.mjs), which bin/stratum.js loads with a V8 code cache so that a small
// model's slice does not pay for resolving, loading and compiling ~150 modules. It must behave
// exactly like `stratum slice` through main.ts: same command, same error reporting, same exit codes.
// The bundle's layer threads (a large model's) load it too (layer-thread-entry.cts) and run
// serveLayerBatches from it.
import { guardStdout } from './stdout-errors.js';
import { reportError } from './report-error.js';
import { run } from './slice-command.js';
import { setLayerThreadFile } from '../runner/layer-thread-file.js';

export { serveLayerBatches } from '../runner/layer-batch-port.js';

export async function runSliceCli(argv: string[]): Promise<number> {
  guardStdout();
  setLayerThreadFile(new URL('./layer-thread-entry.cjs', import.meta.url));
  try {
    return await run(argv);
  } catch (err) {
    return reportError('slice', err);
  }
}
