// One `stratum serve` per data directory. A second one on the same directory cleared the first one's
// temporary files (its upload in progress failed), took its running slices as those of a dead
// process, and answered from caches the other was changing. The lock is an exclusive SQLite lock on
// a small file of its own (`stratum.lock`): the operating system releases it when the process ends,
// however it ends (kill -9 included), so no stale lock ever stops a start. `stratum keys` does not
// take it: it may run beside a server, as the database allows.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeDirectorySync } from '../make-directory.js';
import { sqlite, type SqliteDatabase } from './driver.js';

export interface DataDirLock {
  release(): void;
}

/** Another process holds the data directory. */
export class DataDirInUse extends Error {
  override name = 'DataDirInUse';
}

export function lockDataDir(dataDir: string): DataDirLock {
  const file = join(dataDir, 'stratum.lock');
  const pidFile = `${file}.pid`;
  const Database = sqlite();
  let db: SqliteDatabase;
  try {
    makeDirectorySync(dataDir);
    db = new Database(file, { timeout: 0 });
  } catch (err) {
    // said with the setting to change, as the stores say it: the raw error names only the path
    const why = err instanceof Error ? err.message : String(err);
    throw new Error(`cannot use the data directory ${dataDir} (STRATUM_DATA_DIR, --data-dir): ${why}`, { cause: err });
  }
  try {
    // exclusive locking mode: the first write takes the file's lock and keeps it until the connection
    // closes; a row written every time, so that there is a write whether the table is new or not
    db.pragma('locking_mode = EXCLUSIVE');
    // no journal file: rewriting the one row of a lock file that exists then needs no free space, so
    // a server restarted on a full disk still starts (and serves reads, and the deletes that free
    // space); with a rollback journal it stopped at 'database or disk is full'. The row is worthless
    // if a crash tears the write: the lock is the file's, not its contents.
    db.pragma('journal_mode = MEMORY');
    db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL)');
    db.transaction(() => {
      db.exec('DELETE FROM holder');
      db.prepare('INSERT INTO holder (pid) VALUES (?)').run(process.pid);
    })();
  } catch (err) {
    db.close();
    if ((err as { code?: string }).code !== 'SQLITE_BUSY') {
      const why = err instanceof Error ? err.message : String(err);
      throw new Error(`cannot use the data directory ${dataDir} (STRATUM_DATA_DIR, --data-dir): ${why}`, { cause: err });
    }
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
  // read by a second server to say who holds the lock; the lock itself is the database's, so a pid
  // file that cannot be written (a full disk) does not stop the start
  try {
    writeFileSync(pidFile, `${process.pid}\n`);
  } catch {
    // only a courtesy, as above
  }
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      db.close();
    },
  };
}
