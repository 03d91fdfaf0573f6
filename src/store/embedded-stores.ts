// The embedded runtime's stores: one SQLite file for metadata and the job queue, blobs on the
// local disk, all under the data directory.
import { readdirSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import type { BlobStoreConfig } from './blob-store-factory.js';
import { DiskBlobStore } from './disk/disk-blob-store.js';
import { SqliteModuleMissing } from './sqlite/driver.js';
import { openDatabase } from './sqlite/open-database.js';
import { SqliteJobQueue } from './sqlite/sqlite-job-queue.js';
import { SqliteMetadataStore } from './sqlite/sqlite-metadata-store.js';

export interface EmbeddedStores {
  metadata: SqliteMetadataStore;
  queue: SqliteJobQueue;
  blobs: DiskBlobStore;
  blobConfig: BlobStoreConfig;
  close(): Promise<void>;
}

export function databasePath(dataDir: string): string {
  return join(dataDir, 'stratum.db');
}

/** The data directory holds stored files but no database for them. */
export class DatabaseMissing extends Error {
  override name = 'DatabaseMissing';
}

/**
 * A new database beside stored files is a lost one (deleted, emptied, a wrong path copied): made
 * anew, it names none of those files, and the sweeper would delete every one of them as an orphan
 * an hour on, past any restore of the backup. So it is not made.
 */
function refuseOrphanedBlobs(dataDir: string): void {
  const root = join(dataDir, 'blobs');
  const found = firstStoredFile(root);
  if (!found) return;
  throw new DatabaseMissing(
    `the data directory ${dataDir} holds stored files (${found}) but its database stratum.db is missing or empty: ` +
      'a new one would name none of them, and they would be deleted as orphans. Restore stratum.db from its backup ' +
      '(docs/deployment.md), or move blobs/ out of the data directory to start empty',
  );
}

/** Some file under blobs/ that a database would have named (tmp/ holds only files being written), or null. */
function firstStoredFile(root: string): string | null {
  const walk = (dir: string, rel: string): string | null => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return null;
    }
    for (const e of entries) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.isFile()) return `blobs/${path}`;
      if (e.isDirectory() && path !== 'tmp') {
        const inside = walk(join(dir, e.name), path);
        if (inside) return inside;
      }
    }
    return null;
  };
  return walk(root, '');
}

export function openEmbeddedStores(dataDir: string): EmbeddedStores {
  let db: ReturnType<typeof openDatabase>;
  try {
    db = openDatabase(databasePath(dataDir), { beforeCreate: () => refuseOrphanedBlobs(dataDir), check: true });
  } catch (err) {
    if (err instanceof SqliteModuleMissing || err instanceof DatabaseMissing) throw err;
    // said with the setting to change: the raw error names only the path that failed
    const why = err instanceof Error ? err.message : String(err);
    throw new Error(`cannot use the data directory ${dataDir} (STRATUM_DATA_DIR, --data-dir): ${why}`, { cause: err });
  }
  const metadata = new SqliteMetadataStore(db);
  const blobConfig: BlobStoreConfig = { kind: 'disk', root: join(dataDir, 'blobs') };
  return {
    metadata,
    queue: new SqliteJobQueue(db),
    blobs: new DiskBlobStore(blobConfig.root),
    blobConfig,
    close: () => metadata.close(),
  };
}
