// `stratum slice` on its own: the entry point of the slice bundle (dist/bundle/slice.cjs, built by
// scripts/build-slice-bundle.mjs), which bin/stratum.js loads with a V8 code cache so that a small
// model's slice does not pay for resolving, loading and compiling ~150 modules. It must behave
// exactly like `stratum slice` through main.ts: same command, same error reporting, same exit codes.
import { guardStdout } from './stdout-errors.js';
import { reportError } from './report-error.js';
import { run } from './slice-command.js';

export async function runSliceCli(argv: string[]): Promise<number> {
  guardStdout();
  try {
    return await run(argv);
  } catch (err) {
    return reportError('slice', err);
  }
}
