// Finished outputs (G-code, FCode) for download.
import type { Readable } from 'node:stream';
import { fileNotFound } from './errors.js';
import { isGuid, normaliseGuid } from './ids.js';
import type { OutputRecord } from './model.js';
import { BlobNotFoundError, type BlobStore, type MetadataStore } from './ports.js';
import { deleteUnrecordedBlob } from './blob-cleanup.js';

export interface Download {
  output: OutputRecord;
  stream: Readable;
  size: number;
}

export class OutputService {
  constructor(
    private readonly store: MetadataStore,
    private readonly blobs: BlobStore,
  ) {}

  /**
   * The output's bytes; URE006 when there is no such output for the caller or it has expired.
   * `unlessClaimed` (v1's download): URE006 as well while a legacy one-time download holds it,
   * running or waiting to see its client read the file (api/legacy/delivered-whole.ts), since that
   * download works once through v1 too; checked before the bytes are opened.
   */
  async open(accountId: string, outputId: string, opts: { unlessClaimed?: boolean } = {}): Promise<Download> {
    const output = isGuid(outputId) ? await this.store.getOutput(accountId, normaliseGuid(outputId)) : null;
    if (!output) throw fileNotFound(`no output ${outputId.slice(0, 80)}`);
    if (opts.unlessClaimed && (await this.store.downloadClaimed(output.id, Date.now()))) {
      throw fileNotFound(`output ${output.id} is being downloaded once through the legacy interface (v0.1/v0.2), which removes it`);
    }
    try {
      const { stream, size } = await this.blobs.get(output.blobKey);
      return { output, stream, size };
    } catch (err) {
      if (err instanceof BlobNotFoundError) throw fileNotFound(`the output ${output.id} is no longer stored`);
      throw err;
    }
  }

  /** Whether the caller's output is still recorded (a one-time download deletes the record first). */
  async exists(accountId: string, outputId: string): Promise<boolean> {
    return isGuid(outputId) && (await this.store.getOutput(accountId, normaliseGuid(outputId))) !== null;
  }

  /**
   * Takes an output's one-time download for `ttlMs` (a download that outlives it, or whose process
   * died, leaves the output to the next try): false while someone else's claim holds it.
   */
  claimDownload(outputId: string, ttlMs: number): Promise<boolean> {
    const now = Date.now();
    return this.store.claimDownload(outputId, now, now + ttlMs);
  }

  releaseDownload(outputId: string): Promise<void> {
    return this.store.releaseDownload(outputId);
  }


  /** Deletes an output, record first (the legacy versions' download works once). */
  async remove(output: OutputRecord): Promise<void> {
    await this.store.deleteOutput(output.id);
    await deleteUnrecordedBlob(this.blobs, output.blobKey);
  }
}
