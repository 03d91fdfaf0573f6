// Reads a command's input file with a size limit. A regular file is checked by its size before it
// is read; anything else (a device, a pipe such as /dev/stdin) is read in pieces up to the limit, so
// that `stratum slice /dev/zero` fails with a message instead of filling memory until the process
// dies. The limit is the service's default upload limit: a model the service would take, the
// command line takes too. Every failure is a CliError naming the file (`cannot read X: …`).
import * as fs from 'node:fs';
import { close, open, readFile, stat } from './fs-async.js';
import { CliError, fsErrorMessage } from './errors.js';

export const MAX_INPUT_BYTES = 512 * 1024 * 1024;

const readSome = (fd: number, buffer: Uint8Array, offset: number) =>
  new Promise<number>((resolve, reject) => fs.read(fd, buffer, offset, buffer.length - offset, null, (err, n) => (err ? reject(err) : resolve(n))));

/** The file's bytes, or a CliError that says why not. */
export async function readInputFile(path: string, maxBytes = MAX_INPUT_BYTES): Promise<Buffer> {
  try {
    return await readLimited(path, maxBytes);
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new CliError(fsErrorMessage('read', path, err));
  }
}

async function readLimited(path: string, maxBytes: number): Promise<Buffer> {
  const st = await stat(path);
  if (st.isFile()) {
    if (st.size > maxBytes) throw tooLarge(path, `it is ${mib(st.size)}, more than`, maxBytes);
    return readFile(path);
  }
  if (st.isDirectory()) return readFile(path); // fails with EISDIR
  const fd = await open(path, 'r');
  try {
    const pieces: Buffer[] = [];
    let total = 0;
    for (;;) {
      const piece = Buffer.allocUnsafe(Math.min(1 << 20, maxBytes + 1 - total));
      const n = await readSome(fd, piece, 0);
      if (n === 0) break;
      pieces.push(piece.subarray(0, n));
      total += n;
      if (total > maxBytes) throw tooLarge(path, 'it gives more than', maxBytes);
    }
    return Buffer.concat(pieces, total);
  } finally {
    await close(fd);
  }
}

function mib(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(bytes < 2 ** 20 ? 2 : 0)} MiB`;
}

function tooLarge(path: string, what: string, maxBytes: number): CliError {
  return new CliError(`cannot read ${path}: ${what} the ${mib(maxBytes)} an input may have`);
}
