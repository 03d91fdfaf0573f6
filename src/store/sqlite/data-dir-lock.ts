// One `stratum serve` per data directory. A second one on the same directory cleared the first one's
// temporary files (its upload in progress failed), took its running slices as those of a dead
// process, and answered from caches the other was changing. The lock is an exclusive SQLite lock on
// an empty file of its own (`stratum.lock`): the operating system releases it when the process ends,
// however it ends (kill -9 included), so no stale lock ever stops a start, and a file damaged by
// something else is emptied and taken. `stratum keys` does not
// take it: it may run beside a server, as the database allows.
import { readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeDirectorySync } from '../make-directory.js';
import { sqlite, type SqliteDatabase } from './driver.js';

export interface DataDirLock {
  /** why the lock file was made anew before it was taken (its content was damaged), if it was */
  readonly remade?: string;
  release(): void;
}

/** Another process holds the data directory. */
export class DataDirInUse extends Error {
  override name = 'DataDirInUse';
}

/** SQLite's answer to a file whose content is not a database, or a damaged one. */
function isDamaged(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT'));
}

export function lockDataDir(dataDir: string): DataDirLock {
  const file = join(dataDir, 'stratum.lock');
  const pidFile = `${file}.pid`;
  const Database = sqlite();
  const cannotUse = (err: unknown) => {
    // said with the setting to change, as the stores say it: the raw error names only the path
    const why = err instanceof Error ? err.message : String(err);
    return new Error(`cannot use the data directory ${dataDir} (STRATUM_DATA_DIR, --data-dir): ${why}`, { cause: err });
  };
  let db: SqliteDatabase | undefined;
  let remade: string | undefined;
  for (let attempt = 0; ; attempt++) {
    try {
      makeDirectorySync(dataDir);
      db = new Database(file, { timeout: 0 });
    } catch (err) {
      throw cannotUse(err);
    }
    try {
      // The lock is an exclusive transaction that is never committed: it holds the file's lock and
      // writes nothing, so the file stays empty and no crash or power cut can tear it (a row written
      // at every start, as before, could be left half-written and stopped every later start with
      // 'file is not a database'). No journal file either, nor room needed on a full disk.
      db.pragma('journal_mode = MEMORY');
      db.exec('BEGIN EXCLUSIVE');
      break;
    } catch (err) {
      db.close();
      if (isDamaged(err) && attempt === 0) {
        // Its content is worthless (the lock is the file's, not what it holds): emptied in place, the
        // same file, so that two servers starting at once on it still meet on one lock. No server can
        // be holding it: taking it reads the file, which failed here.
        remade = `the lock file ${file} was damaged (${err instanceof Error ? err.message : String(err)}) and was emptied`;
        try {
          truncateSync(file, 0);
        } catch (truncateErr) {
          throw cannotUse(truncateErr);
        }
        continue;
      }
      if ((err as { code?: string }).code !== 'SQLITE_BUSY') throw cannotUse(err);
      let holder = '';
      try {
        holder = ` (pid ${Number.parseInt(readFileSync(pidFile, 'utf8'), 10) || '?'})`;
      } catch {
        // the holder's pid file is only a courtesy
      }
      throw new DataDirInUse(
        `the data directory ${dataDir} is in use by another stratum serve${holder}: one server per data directory. Stop that one, or give this one its own STRATUM_DATA_DIR (--data-dir); for more than one process, see the distributed mode in docs/deployment.md`,
      );
    }
  }
  // read by a second server to say who holds the lock; the lock itself is the database's, so a pid
  // file that cannot be written (a full disk) does not stop the start
  try {
    writeFileSync(pidFile, `${process.pid}\n`);
  } catch {
    // only a courtesy, as above
  }
  const held = db;
  let released = false;
  return {
    ...(remade ? { remade } : {}),
    release() {
      if (released) return;
      released = true;
      held.close();
    },
  };
}
