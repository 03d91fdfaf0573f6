// TaskEventBus over PostgreSQL LISTEN/NOTIFY, so server-sent events and cancellation reach every
// API and worker process. Each process keeps one dedicated LISTEN connection (reconnecting on
// error); `publish` delivers to this process's listeners at once and NOTIFYs the others. The
// payload is the task record as compact JSON when it fits (NOTIFY allows < 8000 bytes), otherwise
// only its id, and receivers read the record back from the database.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { TaskRecord } from '../../service/model.js';
import type { TaskEventBus } from '../../service/ports.js';
import { LocalTaskEventBus } from '../../service/task-event-bus.js';

type Listener = (task: TaskRecord) => void;

export const TASK_EVENTS_CHANNEL = 'stratum_task_events';
/** under NOTIFY's 8000-byte limit, with room for the envelope */
const MAX_INLINE_BYTES = 7600;

/** what goes over the channel: the sending process, and the task or only its id */
interface Envelope {
  o: string;
  t?: TaskRecord;
  id?: string;
}

export interface PgEventBusOptions {
  /** reads a task back when its record did not fit into the notification */
  readTask(taskId: string): Promise<TaskRecord | null>;
  /** reported, never thrown: a lost connection is retried */
  onError?(err: unknown): void;
  /**
   * Called after the LISTEN connection came back: notifications sent meanwhile are lost. Watched
   * tasks are read again by the bus itself; a runner can re-check its running tasks here.
   */
  onReconnect?(): void;
  channel?: string;
  /** how often the LISTEN connection is asked to answer (ms; default PROBE_MS) */
  probeMs?: number;
}

/** The LISTEN connection's liveness probe: how often, and how long an answer may take. */
const PROBE_MS = 10_000;
const PROBE_TIMEOUT_MS = 5_000;

export class PgTaskEventBus implements TaskEventBus {
  private readonly origin = randomUUID();
  private readonly channel: string;
  /** this process's listeners */
  private readonly local = new LocalTaskEventBus();
  private listenClient: pg.Client | null = null;
  private closed = false;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private reconnectDelay = 100;
  /** notifications go out one after another, so every process sees them in publish order */
  private sending: Promise<void> = Promise.resolve();

  private constructor(
    private readonly databaseUrl: string,
    private readonly pool: pg.Pool,
    private readonly opts: PgEventBusOptions,
  ) {
    this.channel = opts.channel ?? TASK_EVENTS_CHANNEL;
  }

  /** connects the LISTEN connection before returning, so no event published after it is missed */
  static async open(databaseUrl: string, pool: pg.Pool, opts: PgEventBusOptions): Promise<PgTaskEventBus> {
    const bus = new PgTaskEventBus(databaseUrl, pool, opts);
    await bus.connect();
    return bus;
  }

  publish(task: TaskRecord): void {
    this.deliver(task);
    let payload = JSON.stringify({ o: this.origin, t: task } satisfies Envelope);
    if (Buffer.byteLength(payload) > MAX_INLINE_BYTES) payload = JSON.stringify({ o: this.origin, id: task.id } satisfies Envelope);
    this.sending = this.sending
      .then(() => this.pool.query('SELECT pg_notify($1, $2)', [this.channel, payload]))
      .then(
        () => {},
        (err) => this.opts.onError?.(err),
      );
  }

  subscribe(taskId: string, listener: Listener): () => void {
    return this.local.subscribe(taskId, listener);
  }

  subscribeAll(listener: Listener): () => void {
    return this.local.subscribeAll(listener);
  }

  /** resolves when every notification published so far has been sent */
  async flush(): Promise<void> {
    await this.sending;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    await this.sending;
    const c = this.listenClient;
    this.listenClient = null;
    await c?.end().catch(() => {});
  }

  private deliver(task: TaskRecord): void {
    this.local.publish(task);
  }


  /**
   * A LISTEN connection that goes quiet without breaking (a half-open TCP connection: a NAT or a
   * failover dropped it silently) would deliver nothing for hours while the clients' event streams
   * wait: every PROBE_MS it must answer a query within PROBE_TIMEOUT_MS, or it is dropped and made
   * again (watched tasks are then read back, catchUp).
   */
  private startProbe(client: pg.Client): void {
    const timer = setInterval(() => {
      if (this.closed || this.listenClient !== client) return clearInterval(timer);
      let answered = false;
      const limit = Math.min(PROBE_TIMEOUT_MS, this.opts.probeMs ?? PROBE_MS);
      const deadline = setTimeout(() => {
        if (!answered) this.lost(client, new Error(`the event connection did not answer within ${limit / 1000} s`));
      }, limit);
      deadline.unref();
      client.query('SELECT 1').then(
        () => {
          answered = true;
          clearTimeout(deadline);
        },
        (err) => {
          answered = true;
          clearTimeout(deadline);
          this.lost(client, err);
        },
      );
    }, this.opts.probeMs ?? PROBE_MS);
    timer.unref();
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.databaseUrl, application_name: 'stratum-events', keepAlive: true });
    client.on('notification', (msg) => this.onNotification(msg.payload));
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client, null));
    await client.connect();
    await client.query(`LISTEN ${pg.escapeIdentifier(this.channel)}`);
    this.listenClient = client;
    this.reconnectDelay = 100;
    this.startProbe(client);
  }

  private lost(client: pg.Client, err: unknown): void {
    if (this.closed || this.listenClient !== client) return;
    this.listenClient = null;
    if (err) this.opts.onError?.(err);
    client.end().catch(() => {});
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.reconnectTimer) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.connect().then(
        () => {
          this.opts.onReconnect?.();
          return this.catchUp();
        },
        (err) => {
          this.opts.onError?.(err);
          this.reconnectDelay = Math.min(this.reconnectDelay * 2, 5000);
          this.scheduleReconnect();
        },
      );
    }, this.reconnectDelay);
    this.reconnectTimer.unref();
  }

  /** after a reconnect: notifications sent meanwhile are lost, so watched tasks are read again */
  private async catchUp(): Promise<void> {
    for (const id of this.local.watchedTasks()) {
      const task = await this.opts.readTask(id).catch(() => null);
      if (task) this.deliver(task);
    }
  }

  private onNotification(payload: string | undefined): void {
    if (!payload) return;
    let env: Envelope;
    try {
      env = JSON.parse(payload) as Envelope;
    } catch {
      return;
    }
    if (env.o === this.origin) return; // delivered locally when published
    if (env.t) {
      this.deliver(env.t);
    } else if (env.id) {
      this.opts.readTask(env.id).then(
        (task) => task && this.deliver(task),
        (err) => this.opts.onError?.(err),
      );
    }
  }
}
