// /readyz: ready while both stores answer (the metadata store, and the blob store that holds
// uploads, inputs and outputs). A probe that fails is an answer, not an error: the log says once
// when readiness is lost, with the store and its error, and once when it comes back, instead of an
// error line for every probe of a load balancer during an outage.
import type { Logger } from 'pino';
import type { BlobStore, MetadataStore } from './ports.js';

/** Both stores answer now (the runner asks this after a broken slice); never throws. */
export function storesAnswer(metadata: MetadataStore, blobs: BlobStore): Promise<boolean> {
  return Promise.all([metadata.ping(), blobs.ping()]).then(
    () => true,
    () => false,
  );
}

export class Readiness {
  /** the stores that did not answer the last probe ('' = none) */
  private down = '';

  constructor(
    private readonly metadata: MetadataStore,
    private readonly blobs: BlobStore,
    private readonly log: Logger,
  ) {}

  async ready(): Promise<boolean> {
    const [m, b] = await Promise.allSettled([this.metadata.ping(), this.blobs.ping()]);
    const failed = [
      ...(m.status === 'rejected' ? [{ store: 'metadata store', reason: m.reason }] : []),
      ...(b.status === 'rejected' ? [{ store: 'file store', reason: b.reason }] : []),
    ];
    const down = failed.map((f) => f.store).join(', ');
    if (down !== this.down) {
      if (down) {
        const reasons = Object.fromEntries(failed.map((f) => [f.store, f.reason instanceof Error ? f.reason.message : String(f.reason)]));
        this.log.warn({ down, reasons }, `not ready: the ${down} does not answer`);
      } else this.log.info({ was: this.down }, 'ready again: the stores answer');
      this.down = down;
    }
    return failed.length === 0;
  }
}
