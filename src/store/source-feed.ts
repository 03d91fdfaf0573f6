// Feeds a put's source (an upload's request body) into the store's byte counter, and remembers
// whether the source itself failed. The source is never destroyed here: when the store fails, the
// HTTP layer still holds an intact request whose rest it can read before answering 503, and it can
// tell the client's fault (the body broke off: 400) from the store's (503).
import { finished, type Readable } from 'node:stream';
import type { ByteLimit } from './byte-limit.js';
import { BlobSourceError, BlobStoreUnavailableError, BlobTooLargeError } from '../service/ports.js';

export interface SourceFeed {
  /** the source's own error or early end, if it had one before the put gave up */
  sourceFailure(): Error | null;
}

export function feedCounter(source: Readable, counter: ByteLimit): SourceFeed {
  let failure: Error | null = null;
  // pipe, not pipeline: pipe stops feeding a destroyed counter but leaves the source alone
  source.pipe(counter);
  const stop = finished(source, { writable: false }, (err) => {
    stop();
    if (!err) return;
    failure = err;
    counter.destroy(err);
  });
  counter.once('close', () => {
    // the put is over (done or failed): a later end of the source is no longer its business
    if (!failure) stop();
  });
  return { sourceFailure: () => failure };
}

/**
 * What a failed put throws: the source's failure first (the client went away: its fault), then the
 * byte limit, else the store's own failure (disk full, object store down: the service's fault).
 */
export function whoFailed(feed: SourceFeed, counter: ByteLimit, storeError: unknown): Error {
  const source = feed.sourceFailure();
  if (source) return new BlobSourceError(source);
  if (counter.failure instanceof BlobTooLargeError) return counter.failure;
  return new BlobStoreUnavailableError(storeError);
}
