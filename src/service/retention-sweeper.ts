// Deletes uploaded files and outputs older than the retention age. Task records stay (their
// output then answers URE006 on download). Files a queued or running task still needs are kept.
// It also deletes orphans: stored files and outputs that no record names, left by a process that
// died between writing the blob and recording it (an API process killed mid-upload, a database
// lost while a worker saved its output). A blob is recorded within milliseconds of being written,
// so one unnamed for ORPHAN_AGE_MS is an orphan.
import type { Logger } from 'pino';
import type { Metrics } from './metrics.js';
import type { BlobStore, MetadataStore } from './ports.js';

const BATCH = 500;
/** How long a blob may exist without a record before the sweep takes it for an orphan. */
export const ORPHAN_AGE_MS = 60 * 60_000;
const BLOB_PREFIXES = ['files/', 'outputs/'];

/**
 * The key of some stored file or output in `blobs`, or null when it holds none: a store opened
 * with a brand-new database must hold none, or the orphan sweep would delete every one of them.
 */
export async function firstStoredBlob(blobs: BlobStore): Promise<string | null> {
  for (const prefix of BLOB_PREFIXES) {
    for await (const keys of blobs.keysWrittenBefore(prefix, Number.POSITIVE_INFINITY)) {
      if (keys[0] !== undefined) return keys[0];
    }
  }
  return null;
}

export interface SweepResult {
  files: number;
  outputs: number;
  tokens: number;
  /** blobs no record named */
  orphans: number;
}

export class RetentionSweeper {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<SweepResult> | null = null;

  constructor(
    private readonly store: MetadataStore,
    private readonly blobs: BlobStore,
    private readonly retentionMs: number,
    private readonly metrics: Metrics,
    private readonly log: Logger,
    /** extra cleanup per sweep (stale temporary blobs) */
    private readonly extra: () => Promise<void> = async () => undefined,
    /**
     * runs a sweep unless another process is sweeping the same stores (then null): the distributed
     * API processes sweep one at a time, not each the same files (their counts added up twice)
     */
    private readonly alone: (sweep: () => Promise<SweepResult>) => Promise<SweepResult | null> = (sweep) => sweep(),
  ) {}

  async sweep(now = Date.now()): Promise<SweepResult> {
    if (this.running) return this.running;
    this.running = this.alone(() => this.doSweep(now))
      .then((r) => r ?? { files: 0, outputs: 0, tokens: 0, orphans: 0 })
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  private async doSweep(now: number): Promise<SweepResult> {
    const cutoff = now - this.retentionMs;
    const result: SweepResult = { files: 0, outputs: 0, tokens: 0, orphans: 0 };
    for (;;) {
      const files = await this.store.listExpiredFiles(cutoff, BATCH);
      for (const f of files) {
        await this.blobs.delete(f.blobKey);
        await this.store.deleteFileRecord(f.id);
      }
      result.files += files.length;
      if (files.length < BATCH) break;
    }
    for (;;) {
      const outputs = await this.store.listExpiredOutputs(cutoff, BATCH);
      for (const o of outputs) {
        await this.blobs.delete(o.blobKey);
        await this.store.deleteOutput(o.id);
      }
      result.outputs += outputs.length;
      if (outputs.length < BATCH) break;
    }
    result.tokens = await this.store.deleteExpiredTokens(now);
    result.orphans = await this.sweepOrphans(now - ORPHAN_AGE_MS);
    await this.extra();
    this.metrics.sweptBlobs.inc(result.files, { kind: 'file' });
    this.metrics.sweptBlobs.inc(result.outputs, { kind: 'output' });
    this.metrics.sweptBlobs.inc(result.orphans, { kind: 'orphan' });
    if (result.files || result.outputs || result.orphans) this.log.info(result, 'retention sweep deleted expired files and outputs');
    return result;
  }

  private async sweepOrphans(writtenBefore: number): Promise<number> {
    let removed = 0;
    for (const prefix of BLOB_PREFIXES) {
      for await (const keys of this.blobs.keysWrittenBefore(prefix, writtenBefore)) {
        const known = await this.store.knownBlobKeys(keys);
        for (const key of keys) {
          if (known.has(key)) continue;
          await this.blobs.delete(key);
          removed++;
        }
      }
    }
    if (removed) this.log.warn({ removed }, 'retention sweep deleted stored files that no record named (left by a process that died)');
    return removed;
  }

  start(intervalMs: number): void {
    this.stop();
    const tick = () => {
      this.sweep().catch((err) => this.log.error({ err }, 'retention sweep failed'));
    };
    tick();
    this.timer = setInterval(tick, intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** waits for a sweep in progress (shutdown) */
  async idle(): Promise<void> {
    await this.running?.catch(() => undefined);
  }
}
