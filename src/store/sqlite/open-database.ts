// Opens (and creates or migrates) the embedded SQLite database: WAL journal, so readers never wait
// for the writer, and synchronous=FULL, so that a commit is on disk before the answer that reports
// it: with NORMAL a power cut could lose the record of an upload already answered 200, and the
// sweeper would then have deleted its file as an orphan. It costs one WAL fsync per commit, a few
// per task.
import { dirname } from 'node:path';
import { MIGRATIONS } from './schema.js';
import { makeDirectorySync } from '../make-directory.js';
import { sqlite, type SqliteDatabase } from './driver.js';

export type { SqliteDatabase };

export interface OpenDatabaseOptions {
  /** called before the schema is made in a database that has none (missing, empty): may refuse by throwing */
  beforeCreate?: () => void;
  /** check the file for damage (quick_check) before it is used */
  check?: boolean;
}

export function openDatabase(file: string, opts: OpenDatabaseOptions = {}): SqliteDatabase {
  makeDirectorySync(dirname(file));
  const Database = sqlite();
  const db = new Database(file);
  try {
    if (opts.beforeCreate && !hasSchema(db)) opts.beforeCreate();
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    // several processes (server, `stratum keys`) may use the file at once
    db.pragma('busy_timeout = 5000');
    migrate(db);
    if (opts.check) checkIntact(db, file);
  } catch (err) {
    // closed, so that the caller may try again (disk-reserve.ts) without a second connection
    if (db.open) db.close();
    throw err;
  }
  return db;
}

/** A database damaged inside (a page overwritten) opens without a word and fails request by request: said at the start instead. */
function checkIntact(db: SqliteDatabase, file: string): void {
  // quick_check: the b-trees' structure, without matching every index against its table (O(size))
  const rows = db.pragma('quick_check(5)') as Array<{ quick_check: string }>;
  const problems = rows.map((r) => r.quick_check).filter((r) => r !== 'ok');
  if (problems.length === 0) return;
  db.close();
  const said = problems.join('; ').replace(/\s*\n\s*/g, '; ').slice(0, 300);
  throw new Error(`${file} is damaged (SQLite quick_check: ${said}): restore it from its backup (docs/deployment.md)`);
}

function migrate(db: SqliteDatabase): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)');
  const row = db.prepare('SELECT version FROM schema_version').get() as { version: number } | undefined;
  let version = row?.version ?? 0;
  if (!row) db.prepare('INSERT INTO schema_version (version) VALUES (0)').run();
  const setVersion = db.prepare('UPDATE schema_version SET version = ?');
  for (; version < MIGRATIONS.length; version++) {
    const sql = MIGRATIONS[version]!;
    db.transaction(() => {
      db.exec(sql);
      setVersion.run(version + 1);
    }).immediate();
  }
}

function hasSchema(db: SqliteDatabase): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'").get() !== undefined;
}
