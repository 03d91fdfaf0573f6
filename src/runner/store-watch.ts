// After a slice broke, the runner does not trust the stores until they answer again. A broken slice
// is often a storage or database outage: claiming more tasks meanwhile would spend their attempts
// on it, and a task waiting to be tried again should start as soon as the outage is over, not when
// its fixed wait ends (the chaos run: a 10 s S3 outage left the whole fleet idle 15 s after it).

/** How often the stores are asked while they are suspect. */
export const STORE_PROBE_MS = 1000;
/** A probe that has not answered in this long counts as a no (an unreachable database host can hang a connect for minutes). */
export const STORE_PROBE_LIMIT_MS = 3000;

export class StoreWatch {
  private suspect = false;

  /** `answers`: both stores answer now (metadata ping and blob ping), never throws */
  constructor(
    private readonly answers: () => Promise<boolean>,
    private readonly probeMs = STORE_PROBE_MS,
    private readonly probeLimitMs = STORE_PROBE_LIMIT_MS,
  ) {}

  /** answers(), but no after probeLimitMs or once `signal` aborts */
  private async probe(signal?: AbortSignal): Promise<boolean> {
    if (signal?.aborted) return false;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const no = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), this.probeLimitMs);
      onAbort = () => resolve(false);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([this.answers(), no]);
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    }
  }

  /** a slice broke: the stores may be down */
  sliceBroke(): void {
    this.suspect = true;
  }

  /** whether to claim a task now: yes unless a slice broke and the stores have not answered since */
  async mayClaim(): Promise<boolean> {
    if (!this.suspect) return true;
    if (!(await this.probe())) return false;
    this.suspect = false;
    return true;
  }

  /**
   * The wait before a broken task's next attempt: `ms`, ended early when the stores, seen down during
   * the wait, answer again (the outage is over), or when `signal` aborts (cancel, stop). A slice that
   * broke with the stores answering all along waits the whole time.
   */
  async retryWait(ms: number, signal: AbortSignal): Promise<void> {
    const end = Date.now() + ms;
    let sawDown = false;
    while (!signal.aborted && Date.now() < end) {
      const up = await this.probe(signal);
      if (!up) sawDown = true;
      else if (sawDown) {
        this.suspect = false;
        return;
      }
      await abortableDelay(Math.min(this.probeMs, end - Date.now()), signal);
    }
  }
}

export function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
