// A min-heap of edge events for miter-offset.ts: (distance, edge, stamp), earliest distance first,
// in typed arrays reused from call to call (an offset runs thousands of times per slice).

export class EventQueue {
  private t = new Float64Array(64);
  private edge = new Int32Array(64);
  private stamp = new Int32Array(64);
  size = 0;
  /** The entry pop() took last. */
  popped = { t: 0, edge: 0, stamp: 0 };

  /** Empties the queue and makes room for `capacity` entries. */
  reset(capacity: number): void {
    this.size = 0;
    if (this.t.length >= capacity) return;
    const c = Math.max(capacity, 2 * this.t.length);
    this.t = new Float64Array(c);
    this.edge = new Int32Array(c);
    this.stamp = new Int32Array(c);
  }

  push(t: number, edge: number, stamp: number): void {
    let i = this.size++;
    while (i > 0) {
      const up = (i - 1) >> 1;
      if (this.t[up] <= t) break;
      this.move(up, i);
      i = up;
    }
    this.put(i, t, edge, stamp);
  }

  /** Takes the earliest entry into `popped`. */
  pop(): void {
    const { t, edge, stamp, popped } = this;
    popped.t = t[0];
    popped.edge = edge[0];
    popped.stamp = stamp[0];
    const n = --this.size;
    const lt = t[n], le = edge[n], ls = stamp[n];
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && t[c + 1] < t[c]) c++;
      if (t[c] >= lt) break;
      this.move(c, i);
      i = c;
    }
    this.put(i, lt, le, ls);
  }

  private move(from: number, to: number): void {
    this.t[to] = this.t[from];
    this.edge[to] = this.edge[from];
    this.stamp[to] = this.stamp[from];
  }

  private put(i: number, t: number, edge: number, stamp: number): void {
    this.t[i] = t;
    this.edge[i] = edge;
    this.stamp[i] = stamp;
  }
}
