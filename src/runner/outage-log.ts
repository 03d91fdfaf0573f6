// What a runner's housekeeping (heartbeats, lease recovery, claiming, progress saves) says while the
// database does not answer. They all fail then, several times a second: a warning every
// OUTAGE_LOG_MS with a count (readiness logs the outage itself once), rather than a stack trace each
// time (an outage of 50 s gave ~70 error lines per worker). The time of the last failure tells the
// runner that leases may look run out only because their owners could not renew them.
import type { Logger } from 'pino';
import { MetadataStoreUnavailableError } from '../service/ports.js';

/** While the database does not answer, housekeeping says so at most this often. */
const OUTAGE_LOG_MS = 30_000;

export class OutageLog {
  /** when housekeeping last found the database unreachable (ms since the epoch; 0: never) */
  lastFailureAt = 0;
  private loggedAt = 0;
  private failures = 0;

  constructor(private readonly log: Logger) {}

  /** Logs a housekeeping failure: `what` at error level unless the database is unreachable. */
  failed(err: unknown, what: string, context: Record<string, unknown> = {}): void {
    if (!(err instanceof MetadataStoreUnavailableError)) {
      this.log.error({ err, ...context }, what);
      return;
    }
    const now = Date.now();
    this.lastFailureAt = now;
    this.failures++;
    if (now - this.loggedAt < OUTAGE_LOG_MS) return;
    this.log.warn({ failures: this.failures, reason: err.message }, 'runner housekeeping waits for the database');
    this.loggedAt = now;
    this.failures = 0;
  }
}

/**
 * `write`, tried again every `everyMs` while the database does not answer, for up to `limitMs`: a
 * slice that ended during an outage is saved once it is back, not thrown away and sliced again (the
 * heartbeat and the status compare-and-set still decide whether the task is the runner's: a lease
 * another worker took meanwhile loses the save). A shutdown's abort ends the wait.
 */
export async function retryWhileUnavailable<T>(write: () => Promise<T>, limitMs: number, everyMs: number, signal?: AbortSignal): Promise<T> {
  const until = Date.now() + limitMs;
  for (;;) {
    try {
      return await write();
    } catch (err) {
      if (!(err instanceof MetadataStoreUnavailableError) || Date.now() >= until || signal?.aborted) throw err;
      await new Promise((r) => setTimeout(r, everyMs));
    }
  }
}
