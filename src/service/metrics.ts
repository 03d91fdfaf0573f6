// A few Prometheus metrics written by hand (text exposition format 0.0.4): counters with labels,
// histograms with fixed buckets, and gauges sampled at scrape time.

type Labels = Record<string, string>;

export function labelKey(labels: Labels | undefined): string {
  if (!labels) return '';
  const parts = Object.keys(labels)
    .sort()
    .map((k) => `${k}="${escapeLabel(labels[k]!)}"`);
  return parts.join(',');
}

function escapeLabel(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function braces(key: string, extra?: string): string {
  const all = [key, extra].filter((s) => s).join(',');
  return all ? `{${all}}` : '';
}

export class Counter {
  private readonly values = new Map<string, number>();
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}
  inc(by = 1, labels?: Labels): void {
    this.incKey(labelKey(labels), by);
  }
  /** with labels already rendered by labelKey (hot paths keep them) */
  incKey(key: string, by = 1): void {
    this.values.set(key, (this.values.get(key) ?? 0) + by);
  }
  get(labels?: Labels): number {
    return this.values.get(labelKey(labels)) ?? 0;
  }
  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`];
    if (this.values.size === 0) lines.push(`${this.name} 0`);
    for (const [k, v] of this.values) lines.push(`${this.name}${braces(k)} ${v}`);
    return lines.join('\n');
  }
}

export class Histogram {
  private readonly series = new Map<string, { counts: number[]; sum: number; count: number }>();
  constructor(
    readonly name: string,
    readonly help: string,
    readonly buckets: number[],
  ) {}
  observe(value: number, labels?: Labels): void {
    this.observeKey(labelKey(labels), value);
  }
  /** with labels already rendered by labelKey */
  observeKey(k: string, value: number): void {
    let s = this.series.get(k);
    if (!s) {
      s = { counts: this.buckets.map(() => 0), sum: 0, count: 0 };
      this.series.set(k, s);
    }
    for (let i = 0; i < this.buckets.length; i++) if (value <= this.buckets[i]!) s.counts[i]!++;
    s.sum += value;
    s.count++;
  }
  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const [k, s] of this.series) {
      this.buckets.forEach((b, i) => lines.push(`${this.name}_bucket${braces(k, `le="${b}"`)} ${s.counts[i]}`));
      lines.push(`${this.name}_bucket${braces(k, 'le="+Inf"')} ${s.count}`);
      lines.push(`${this.name}_sum${braces(k)} ${s.sum}`);
      lines.push(`${this.name}_count${braces(k)} ${s.count}`);
    }
    return lines.join('\n');
  }
}

/** A gauge whose values are read when scraped (task counts from the store, queue depth). */
export interface GaugeSample {
  name: string;
  help: string;
  values: Array<{ labels?: Labels; value: number }>;
}

function renderGauge(g: GaugeSample): string {
  const lines = [`# HELP ${g.name} ${g.help}`, `# TYPE ${g.name} gauge`];
  for (const v of g.values) lines.push(`${g.name}${braces(labelKey(v.labels))} ${v.value}`);
  return lines.join('\n');
}

export class Metrics {
  readonly httpRequests = new Counter('stratum_http_requests_total', 'HTTP requests by method, route and status.');
  readonly httpDuration = new Histogram('stratum_http_request_duration_seconds', 'HTTP request duration.', [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10,
  ]);
  readonly uploadBytes = new Counter('stratum_upload_bytes_total', 'Bytes of uploaded files stored.');
  readonly uploads = new Counter('stratum_uploads_total', 'Files uploaded, by type.');
  readonly tasksStarted = new Counter('stratum_tasks_started_total', 'Slicing tasks accepted.');
  readonly tasksEnded = new Counter('stratum_tasks_ended_total', 'Slicing tasks that reached an end state, by status.');
  readonly sliceDuration = new Histogram('stratum_slice_duration_seconds', 'Wall time of successful slices.', [
    0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1800,
  ]);
  readonly sweptBlobs = new Counter('stratum_retention_deleted_total', 'Files and outputs deleted by retention, by kind.');

  /** Prometheus text for everything, plus the gauges sampled now. */
  render(gauges: GaugeSample[]): string {
    const parts = [
      ...gauges.map(renderGauge),
      this.tasksStarted.render(),
      this.tasksEnded.render(),
      this.sliceDuration.render(),
      this.uploadBytes.render(),
      this.uploads.render(),
      this.sweptBlobs.render(),
      this.httpRequests.render(),
      this.httpDuration.render(),
    ];
    return `${parts.join('\n')}\n`;
  }
}
