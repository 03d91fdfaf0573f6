// Uploaded files: stored as blobs, recorded only once the whole body is safely on disk.
import type { Readable } from 'node:stream';
import { ApiError, badRequest, fileNotFound, payloadTooLarge } from './errors.js';
import { checkExtension, checkFileName, normaliseFileType } from './file-rules.js';
import { isGuid, newId, normaliseGuid } from './ids.js';
import type { Metrics } from './metrics.js';
import type { FileRecord } from './model.js';
import { BlobSourceError, BlobStoreUnavailableError, BlobTooLargeError, type BlobStore, type MetadataStore } from './ports.js';
import { deleteUnrecordedBlob } from './blob-cleanup.js';

export interface UploadTarget {
  type: string;
  fileName: string;
}

/** A body stored in the blob store and not yet recorded as a file. */
export interface StagedBlob {
  id: string;
  blobKey: string;
  size: number;
}

export class FileService {
  constructor(
    private readonly store: MetadataStore,
    private readonly blobs: BlobStore,
    private readonly maxUploadBytes: number,
    private readonly metrics: Metrics,
  ) {}

  get uploadLimit(): number {
    return this.maxUploadBytes;
  }

  /** Validates type and name (throws ApiError); call before reading the body. */
  checkUpload(rawType: string, fileName: string): UploadTarget {
    const type = normaliseFileType(rawType);
    checkFileName(fileName);
    checkExtension(type, fileName);
    return { type, fileName };
  }

  /** Streams the body into the blob store; on any failure nothing is kept and nothing recorded. */
  async upload(accountId: string, target: UploadTarget, body: Readable): Promise<FileRecord> {
    return this.record(accountId, target, await this.stage(body));
  }

  /**
   * Streams the body into the blob store without recording it: for a form whose file comes before
   * the field naming it. `record` or `discard` the result; on any failure nothing is kept.
   */
  async stage(body: Readable): Promise<StagedBlob> {
    const id = newId();
    const blobKey = `files/${id}`;
    try {
      const { size } = await this.blobs.put(blobKey, body, { maxBytes: this.maxUploadBytes });
      return { id, blobKey, size };
    } catch (err) {
      if (err instanceof BlobTooLargeError) throw payloadTooLarge(err.limit);
      if (err instanceof BlobSourceError) {
        // the source's owner may have said what broke (a cut-off multipart part): that, else the plain fact
        throw err.cause instanceof ApiError ? err.cause : badRequest('the upload was interrupted before the end of the body');
      }
      if (err instanceof BlobStoreUnavailableError) {
        // the whole body may well have arrived: the service's fault, worth a retry (503)
        // (the cause goes into the server's log line, not to the client)
        throw Object.assign(new ApiError('SF000', 'the file store is unavailable; try the upload again later', undefined, 503), { cause: err });
      }
      throw err;
    }
  }

  /** Records a staged blob as the account's file (deleting it if that fails). */
  async record(accountId: string, target: UploadTarget, staged: StagedBlob): Promise<FileRecord> {
    const { id, blobKey, size } = staged;
    if (size === 0 && target.type === 'STL') {
      // a model with no bytes can never slice; the usual cause is a client that sent no body
      // (curl's `--data-binary @path` with a wrong path sends nothing and, with -s, says nothing)
      await deleteUnrecordedBlob(this.blobs, blobKey);
      throw badRequest(`'${target.fileName.slice(0, 80)}' is empty: the upload had no bytes (a model file was expected; check the path the client read)`);
    }
    const record: FileRecord = {
      id,
      accountId,
      fileName: target.fileName,
      type: target.type,
      size,
      blobKey,
      createdAt: Date.now(),
    };
    try {
      await this.store.insertFile(record);
    } catch (err) {
      await deleteUnrecordedBlob(this.blobs, blobKey);
      throw err;
    }
    this.metrics.uploadBytes.inc(size);
    this.metrics.uploads.inc(1, { type: typeLabel(target.type) });
    return record;
  }

  /** Deletes a staged blob that will not be recorded. */
  async discard(staged: StagedBlob): Promise<void> {
    await deleteUnrecordedBlob(this.blobs, staged.blobKey);
  }

  async get(accountId: string, fileId: string): Promise<FileRecord> {
    const file = isGuid(fileId) ? await this.store.getFile(accountId, normaliseGuid(fileId)) : null;
    if (!file) throw fileNotFound(`no file ${fileId.slice(0, 80)}`);
    return file;
  }

  async delete(accountId: string, fileId: string): Promise<void> {
    const file = isGuid(fileId) ? await this.store.deleteFile(accountId, normaliseGuid(fileId)) : null;
    if (!file) throw fileNotFound(`no file ${fileId.slice(0, 80)}`);
    await deleteUnrecordedBlob(this.blobs, file.blobKey);
  }
}

/** Metric labels stay a small fixed set whatever types callers invent. */
function typeLabel(type: string): string {
  return ['WS', 'PC_SV', 'PC_DE', 'XML', 'STL', 'EXTRA'].includes(type) ? type : 'other';
}
