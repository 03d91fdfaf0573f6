// At most `max` of some costly work at once; the rest wait their turn in order. For work on
// short-lived threads that may each need gigabytes (parsing a large legacy body, checking a large
// workspace at task start): a burst of such requests queues instead of taking the machine's memory.
export class ConcurrencyLimit {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly max: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.max) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
    try {
      return await work();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }
}
