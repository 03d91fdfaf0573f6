// What the commands print on stdout (tables, JSON) may meet a closed pipe (`stratum printers --json |
// head -c 10`) or a full disk (`> /dev/full`): Node then raised an unhandled 'error' event, a stack
// trace. A closed pipe is the reader having seen enough: the command ends quietly, as other Unix
// tools do. Any other failure is one line and exit 1. (A file written to /dev/stdout goes through
// the file system instead: errors.ts's writeError.)
import { EXIT_FAILURE } from './errors.js';

let guarded = false;

export function guardStdout(): void {
  if (guarded) return;
  guarded = true;
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    process.stderr.write(`stratum: cannot write to standard output: ${err.code ?? err.message}\n`);
    process.exit(EXIT_FAILURE);
  });
}
