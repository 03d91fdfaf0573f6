// The embedded runtime's stores: one SQLite file for metadata and the job queue, blobs on the
// local disk, all under the data directory.
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

export function openEmbeddedStores(dataDir: string): EmbeddedStores {
  let db: ReturnType<typeof openDatabase>;
  try {
    db = openDatabase(databasePath(dataDir));
  } catch (err) {
    if (err instanceof SqliteModuleMissing) throw err;
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
