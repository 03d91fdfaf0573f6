// Opens a BlobStore from a serialisable description, so worker threads (and worker processes on
// other machines) open the same store the API wrote the uploads to.
import type { BlobStore } from '../service/ports.js';
import { DiskBlobStore } from './disk/disk-blob-store.js';
import type { S3BlobConfig } from './s3/s3-blob-store.js';

export type BlobStoreConfig = { kind: 'disk'; root: string } | S3BlobConfig;

export function openBlobStore(config: BlobStoreConfig): BlobStore {
  switch (config.kind) {
    case 'disk':
      return new DiskBlobStore(config.root);
    case 's3':
      return lazyS3(config);
  }
}

/**
 * The AWS SDK costs ~140 ms and ~20 MB in every thread that loads it: only threads that use S3
 * load it, on first use (embedded slicing threads never do).
 */
function lazyS3(config: S3BlobConfig): BlobStore {
  let store: Promise<BlobStore> | null = null;
  const open = () => (store ??= import('./s3/s3-blob-store.js').then((m) => new m.S3BlobStore(config)));
  return {
    put: async (key, source, opts) => (await open()).put(key, source, opts),
    get: async (key) => (await open()).get(key),
    read: async (key) => (await open()).read(key),
    exists: async (key) => (await open()).exists(key),
    delete: async (key) => (await open()).delete(key),
    ping: async () => (await open()).ping(),
    keysWrittenBefore: async function* (prefix, beforeMs) {
      yield* (await open()).keysWrittenBefore(prefix, beforeMs);
    },
  };
}
