// Opens a BlobStore from a serialisable description, so worker threads (and worker processes on
// other machines) open the same store the API wrote the uploads to.
import type { BlobStore } from '../service/ports.js';
import { DiskBlobStore } from './disk/disk-blob-store.js';
import { S3BlobStore, type S3BlobConfig } from './s3/s3-blob-store.js';

export type BlobStoreConfig = { kind: 'disk'; root: string } | S3BlobConfig;

export function openBlobStore(config: BlobStoreConfig): BlobStore {
  switch (config.kind) {
    case 'disk':
      return new DiskBlobStore(config.root);
    case 's3':
      return new S3BlobStore(config);
  }
}
