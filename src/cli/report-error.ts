// How an error that reached the top of a command becomes an exit code and a message on stderr:
// shared by the full CLI (main.ts) and the bundled slice entry (slice-main.ts).
import { EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_USAGE, UsageError, describeError, isCancelled, oneLine } from './errors.js';

export function reportError(command: string, err: unknown): number {
  if (isCancelled(err)) return EXIT_INTERRUPTED;
  if (process.env.STRATUM_DEBUG === '1') console.error(err);
  // node:util parseArgs rejects unknown flags and missing values with these codes.
  const code = (err as { code?: string } | null)?.code ?? '';
  if (err instanceof UsageError || code.startsWith('ERR_PARSE_ARGS')) {
    // node:util's parse errors are TypeErrors: their message, without the class name
    const text = err instanceof UsageError ? describeError(err) : oneLine((err as Error).message);
    process.stderr.write(`stratum ${command}: ${text}\nrun \`stratum ${command} --help\` for usage\n`);
    return EXIT_USAGE;
  }
  process.stderr.write(`stratum ${command}: error: ${describeError(err)}\n`);
  return EXIT_FAILURE;
}
