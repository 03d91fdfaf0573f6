// Writes a file so that readers see either the old file or the complete new one, never a part:
// a temporary file in the same directory (same file system, so rename is atomic), fsync, rename.
// Only regular files are replaced that way: a device or a pipe given as the output (`-o /dev/null`,
// `-o /dev/stdout`, a FIFO) is written in place, and a symbolic link keeps pointing where it did.
import { close, fsync, lstat, open, realpath, rename, stat, unlink, writeAll, writeFile } from './fs-async.js';
import { basename, dirname, join, resolve } from 'node:path';

/**
 * Where the bytes must go, and whether they may go there by rename. Only a regular file (or a new
 * one) is replaced by rename; through a symbolic link, the regular file it points to. Devices,
 * pipes, sockets, anything under /dev or /proc, and links that do not resolve to a regular file are
 * written in place: renaming over them would replace a system entry with a plain file.
 */
async function resolveTarget(file: string): Promise<{ path: string; atomic: boolean }> {
  let entry;
  try {
    entry = await lstat(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { path: file, atomic: !isSystemPath(resolve(file)) };
    throw err;
  }
  if (entry.isFile()) return { path: file, atomic: !isSystemPath(resolve(file)) };
  if (!entry.isSymbolicLink()) return { path: file, atomic: false };
  try {
    const real = await realpath(file);
    if ((await stat(real)).isFile() && !isSystemPath(real)) return { path: real, atomic: true };
  } catch {
    /* a dangling or special link: written in place below */
  }
  return { path: file, atomic: false };
}

function isSystemPath(absolute: string): boolean {
  return /^\/(dev|proc|sys)(\/|$)/.test(absolute);
}

function cancelled(): Error {
  const err = new Error('write cancelled');
  err.name = 'SliceCancelled';
  return err;
}

export async function writeFileAtomic(file: string, data: Uint8Array, signal?: AbortSignal): Promise<void> {
  const target = await resolveTarget(file);
  if (!target.atomic) {
    await writeFile(target.path, data);
    return;
  }
  const dir = dirname(target.path);
  // pid + a random tag, created exclusively ('wx'): unique enough without node:crypto, whose loading
  // (~6 ms) is a visible part of a small model's whole slice
  const tag = Math.floor(Math.random() * 0x100000000).toString(16).padStart(8, '0');
  const tmp = join(dir, `.${basename(target.path)}.${process.pid}.${tag}.tmp`);
  const fd = await open(tmp, 'wx', 0o644);
  try {
    try {
      await writeAll(fd, data);
      await fsync(fd);
    } finally {
      await close(fd);
    }
    // Last moment to give up without touching the old file.
    if (signal?.aborted) throw cancelled();
    await rename(tmp, target.path);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  // Persist the rename itself; some file systems do not allow opening a directory: best effort.
  try {
    const d = await open(dir, 'r');
    try {
      await fsync(d);
    } finally {
      await close(d);
    }
  } catch {
    /* the data is written; only the directory entry's durability is unconfirmed */
  }
}
