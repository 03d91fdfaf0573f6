// Deleting a blob whose record is already gone (a DELETE of a file or task, a download-once
// output, an upload that could not be recorded). The record is what the client sees; the blob is
// cleanup. A store that fails now (S3 down) leaves the blob as an orphan, which the retention
// sweeper deletes once no record has named it for an hour, so the caller's delete still succeeds:
// failing it (a 500, after the record was gone) left a half-done delete that a retry answered 404.
import type { BlobStore } from './ports.js';

export async function deleteUnrecordedBlob(blobs: BlobStore, key: string): Promise<void> {
  await blobs.delete(key).catch(() => undefined);
}
