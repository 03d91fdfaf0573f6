// How an error that reached the top of a command becomes an exit code and a message on stderr:
// shared by the full CLI (main.ts), the bundled slice entry (slice-main.ts) and the models of a
// batch (slice-batch.ts).
import { EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, ReaderGone, UsageError, describeError, isCancelled, oneLine } from './errors.js';

function debugStack(err: unknown): void {
  if (process.env.STRATUM_DEBUG === '1') console.error(err);
}

export function reportError(command: string, err: unknown): number {
  if (isCancelled(err)) return EXIT_INTERRUPTED;
  if (err instanceof ReaderGone) return typeof process.exitCode === 'number' ? process.exitCode : EXIT_OK;
  // node:util parseArgs rejects unknown flags and missing values with these codes.
  const code = (err as { code?: string } | null)?.code ?? '';
  if (err instanceof UsageError || code.startsWith('ERR_PARSE_ARGS')) {
    debugStack(err);
    // node:util's parse errors are TypeErrors: their message, without the class name
    const text = err instanceof UsageError ? describeError(err) : oneLine((err as Error).message);
    process.stderr.write(`stratum ${command}: ${text}\nrun \`stratum ${command} --help\` for usage\n`);
    return EXIT_USAGE;
  }
  reportFailure(command, err);
  return EXIT_FAILURE;
}

/** `stratum COMMAND: error: …` on stderr, with `subject` (one model of several) before the message. */
export function reportFailure(command: string, err: unknown, subject?: string): void {
  debugStack(err);
  process.stderr.write(`stratum ${command}: error: ${subject !== undefined ? `${subject}: ` : ''}${describeError(err)}\n`);
}
