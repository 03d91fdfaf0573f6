// Opens (and creates or migrates) the embedded SQLite database: WAL journal, so readers never wait
// for the writer, and synchronous=NORMAL, which in WAL mode loses at most the last commits on a
// power cut, never consistency.
import { dirname } from 'node:path';
import { MIGRATIONS } from './schema.js';
import { makeDirectorySync } from '../make-directory.js';
import { sqlite, type SqliteDatabase } from './driver.js';

export type { SqliteDatabase };

export function openDatabase(file: string): SqliteDatabase {
  makeDirectorySync(dirname(file));
  const Database = sqlite();
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  // several processes (server, `stratum keys`) may use the file at once
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
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
