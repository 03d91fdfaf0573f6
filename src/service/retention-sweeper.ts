// Deletes uploaded files and outputs older than the retention age. Task records stay (their
// output then answers URE006 on download). Files a queued or running task still needs are kept.
import type { Logger } from 'pino';
import type { Metrics } from './metrics.js';
import type { BlobStore, MetadataStore } from './ports.js';

const BATCH = 500;

export interface SweepResult {
  files: number;
  outputs: number;
  tokens: number;
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
  ) {}

  async sweep(now = Date.now()): Promise<SweepResult> {
    if (this.running) return this.running;
    this.running = this.doSweep(now).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async doSweep(now: number): Promise<SweepResult> {
    const cutoff = now - this.retentionMs;
    const result: SweepResult = { files: 0, outputs: 0, tokens: 0 };
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
    await this.extra();
    this.metrics.sweptBlobs.inc(result.files, { kind: 'file' });
    this.metrics.sweptBlobs.inc(result.outputs, { kind: 'output' });
    if (result.files || result.outputs) this.log.info(result, 'retention sweep deleted expired files and outputs');
    return result;
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
