// Room the embedded server keeps for itself on its data directory's disk: a file of 1 MiB
// (`stratum.reserve`), given up at a start on a disk with less room than that, or when the database
// will not open. SQLite in WAL mode needs free space to open at all (its shared-memory index grows a 32 KiB file), so a server
// restarted on a full disk stopped at 'disk I/O error' and served nothing: not the reads, and not the
// deletes that would free space. With the reserve released it starts; uploads and new tasks are still
// refused (503 SF000) until there is room (the blob store's ping), and /readyz says not ready.
import { closeSync, existsSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { join } from 'node:path';

const RESERVE_BYTES = 1024 * 1024;
/** The reserve is made only where this much is free besides it: it must not be what fills the disk. */
const MAKE_WHEN_FREE_BYTES = 64 * 1024 * 1024;

export function reservePath(dataDir: string): string {
  return join(dataDir, 'stratum.reserve');
}

/** Makes the reserve if it is missing and the disk has room to spare; false when it could not. */
export function keepReserve(dataDir: string): boolean {
  const file = reservePath(dataDir);
  if (existsSync(file)) return true;
  try {
    if (freeBytes(dataDir) < MAKE_WHEN_FREE_BYTES) return false;
    // written out, not a sparse file: a sparse one holds no blocks to give back
    const fd = openSync(file, 'wx', 0o644);
    try {
      const chunk = Buffer.alloc(64 * 1024);
      for (let done = 0; done < RESERVE_BYTES; done += chunk.length) writeSync(fd, chunk);
    } finally {
      closeSync(fd);
    }
    return true;
  } catch {
    rmSync(file, { force: true });
    return false;
  }
}

/**
 * Whether the disk holding the data directory has less room than the reserve: a start there gives
 * the reserve up before it opens anything, since the database may open and then fail on its first
 * write (the runner's recovery of a crashed server's tasks), not only on opening.
 */
export function diskNearlyFull(dataDir: string): boolean {
  try {
    return freeBytes(dataDir) < RESERVE_BYTES;
  } catch {
    return false;
  }
}

/** Bytes free to this process on the disk holding `dir`. */
function freeBytes(dir: string): number {
  const fs = statfsSync(dir);
  return fs.bavail * fs.bsize;
}

/** Gives the reserve's space back; true when there was one. */
export function releaseReserve(dataDir: string): boolean {
  const file = reservePath(dataDir);
  if (!existsSync(file)) return false;
  rmSync(file, { force: true });
  return true;
}

/** Whether an error (or one it was caused by) says the disk is full. */
export function isDiskFull(err: unknown): boolean {
  for (let e = err as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (code === 'ENOSPC' || code === 'SQLITE_FULL' || code === 'SQLITE_IOERR_SHMSIZE' || code === 'SQLITE_IOERR_WRITE') return true;
    if (typeof e.message === 'string' && /database or disk is full|no space left on device/i.test(e.message)) return true;
  }
  return false;
}
