// The distributed runtime's shared state on PostgreSQL: metadata, the job queue (pg-boss plus our
// lease table) and task events (LISTEN/NOTIFY), all from one DATABASE_URL. Schema migrations run
// here on open. Blobs live in S3-compatible storage and are opened separately.
import type pg from 'pg';
import { applyMigrations } from './postgres/migrate.js';
import { PgJobQueue } from './postgres/pg-job-queue.js';
import { PgMetadataStore } from './postgres/pg-metadata-store.js';
import { openPool } from './postgres/pg-pool.js';
import { PgTaskEventBus } from './postgres/pg-task-event-bus.js';

export interface DistributedStores {
  metadata: PgMetadataStore;
  queue: PgJobQueue;
  events: PgTaskEventBus;
  /** the shared pool (health checks, tests) */
  pool: pg.Pool;
  /** stops pg-boss, the LISTEN connection and the pool */
  close(): Promise<void>;
}

export interface DistributedStoreOptions {
  /** pool size per process (default 10) */
  poolMax?: number;
  /** shown in pg_stat_activity, e.g. `stratum-api` or `stratum-worker` */
  applicationName?: string;
  /** pg-boss's schema (default `pgboss`) */
  bossSchema?: string;
  onError?(err: unknown): void;
  /** the event bus's LISTEN connection came back after a loss (events may have been missed) */
  onEventsReconnect?(): void;
  /** see MigrateOptions.beforeCreate: a throw refuses to make the schema in an empty database */
  beforeCreateSchema?(): Promise<void>;
  /** how often the event bus's LISTEN connection must answer (ms; PgEventBusOptions.probeMs) */
  eventProbeMs?: number;
}

export async function openDistributedStores(databaseUrl: string, opts: DistributedStoreOptions = {}): Promise<DistributedStores> {
  const pool = openPool(databaseUrl, { max: opts.poolMax, applicationName: opts.applicationName, onError: opts.onError });
  try {
    await applyMigrations(pool, { beforeCreate: opts.beforeCreateSchema });
    const metadata = new PgMetadataStore(pool);
    const queue = await PgJobQueue.open(pool, { bossSchema: opts.bossSchema });
    const events = await PgTaskEventBus.open(databaseUrl, pool, {
      readTask: (id) => metadata.getTask(id),
      onError: opts.onError,
      onReconnect: opts.onEventsReconnect,
      ...(opts.eventProbeMs !== undefined ? { probeMs: opts.eventProbeMs } : {}),
    }).catch(async (err: unknown) => {
      await queue.stop().catch(() => {});
      throw err;
    });
    let closing: Promise<void> | null = null;
    return {
      metadata,
      queue,
      events,
      pool,
      close: () =>
        (closing ??= (async () => {
          await events.close();
          await queue.stop();
          await pool.end();
        })()),
    };
  } catch (err) {
    await pool.end().catch(() => {});
    throw err;
  }
}
