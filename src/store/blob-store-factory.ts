// Opens a BlobStore from a serialisable description, so worker threads (and, later, worker
// processes on other machines) open the same store the API wrote the uploads to.
import type { BlobStore } from '../service/ports.js';
import { DiskBlobStore } from './disk/disk-blob-store.js';

export type BlobStoreConfig = { kind: 'disk'; root: string };

export function openBlobStore(config: BlobStoreConfig): BlobStore {
  switch (config.kind) {
    case 'disk':
      return new DiskBlobStore(config.root);
  }
}
