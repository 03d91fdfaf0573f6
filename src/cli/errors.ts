// Errors the CLI reports, and how each maps to an exit code and a one-line message.

/** Exit codes: documented in docs/cli.md, relied on by scripts. */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;
/** 128 + SIGINT, as shells report an interrupted command. */
export const EXIT_INTERRUPTED = 130;

/** Wrong command line (unknown flag, missing argument): exit 2 with a pointer to the help. */
export class UsageError extends Error {
  constructor(
    message: string,
    /** the command whose help to point at, if any */
    readonly command?: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/** A failure whose message is already fit for the user (bad file, unwritable output): exit 1. */
export class CliError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliError';
  }
}

/** Names of errors thrown by the engine and profiles whose messages are written for the user. */
const USER_FACING = new Set(['SliceError', 'ProfileError', 'SettingsError', 'CliError', 'UsageError', 'SqliteModuleMissing', 'WorkspaceError']);

/** Node's fs error codes, said plainly. */
const FS_REASONS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  ENOSPC: 'no space left on device',
  EROFS: 'read-only file system',
  EMFILE: 'too many open files',
};

/** Describes a failed file operation in one line, e.g. `cannot read x.stl: no such file or directory`. */
export function fsErrorMessage(action: string, file: string, err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const reason = (code && FS_REASONS[code]) ?? firstLine(err instanceof Error ? err.message : String(err));
  return `cannot ${action} ${file}: ${reason}`;
}

export function firstLine(text: string): string {
  const line = text.split('\n', 1)[0].trim();
  return line || 'unknown error';
}

/** A message on one line: its lines joined (a list of close matches must not be cut off). */
export function oneLine(text: string): string {
  const parts = text.split('\n').map((l) => l.trim()).filter(Boolean);
  return parts.length ? parts.join(' ') : 'unknown error';
}

/** The single line printed for an error that reached the top (no stack unless STRATUM_DEBUG=1). */
export function describeError(err: unknown): string {
  if (err instanceof Error) {
    const msg = oneLine(err.message);
    if (USER_FACING.has(err.name)) return msg;
    // An unexpected failure: say what kind, so a bug report has something to go on.
    return err.name && err.name !== 'Error' ? `${err.name}: ${msg}` : msg;
  }
  return oneLine(String(err));
}

export function isCancelled(err: unknown): boolean {
  return err instanceof Error && (err.name === 'SliceCancelled' || err.name === 'AbortError');
}

/**
 * The reader of the output went away (`stratum slice m.stl -o /dev/stdout | head`): it has seen
 * enough, so the command ends quietly with its exit code so far, as for standard output itself
 * (stdout-errors.ts); the top of the command (report-error.ts) knows it.
 */
export class ReaderGone extends Error {}

/** The error for a failed write of `file`: ReaderGone for a closed pipe, else a CliError naming why. */
export function writeError(file: string, err: unknown): Error {
  if ((err as NodeJS.ErrnoException | undefined)?.code === 'EPIPE') return new ReaderGone(`${file}: the reader closed the pipe`);
  return new CliError(fsErrorMessage('write', file, err));
}
