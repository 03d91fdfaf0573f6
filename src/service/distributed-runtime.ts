// Puts the distributed runtime together: PostgreSQL for metadata, the job queue and task events
// (LISTEN/NOTIFY), S3-compatible storage for files and outputs, and — unless the role is `api` —
// the same worker-thread runner as the embedded runtime, claiming from the shared queue. Any number
// of these processes, with any roles, can run against the same database and bucket.
import type pg from 'pg';
import type { Logger } from 'pino';
import { EmbeddedRunner } from '../runner/embedded-runner.js';
import { openDistributedStores, type DistributedStores } from '../store/distributed-stores.js';
import { SWEEP_LOCK, whileHolding } from '../store/postgres/advisory-lock.js';
import { S3BlobStore, type S3BlobConfig } from '../store/s3/s3-blob-store.js';
import type { AccountService } from './account-service.js';
import type { ServiceConfig } from './config.js';
import type { ServiceCore } from './embedded-runtime.js';
import type { FileService } from './file-service.js';
import { Metrics, type GaugeSample } from './metrics.js';
import type { OutputService } from './output-service.js';
import { RetentionSweeper, firstStoredBlob } from './retention-sweeper.js';
import { coreGauges, makeServices, runnerOptionsFor } from './runtime-parts.js';
import { Readiness } from './readiness.js';
import type { TaskService } from './task-service.js';

export interface DistributedRuntimeOptions {
  /** substitute worker module (tests) */
  workerFile?: string;
}

export function s3ConfigOf(config: ServiceConfig): S3BlobConfig {
  return {
    kind: 's3',
    endpoint: config.s3Endpoint,
    bucket: config.s3Bucket,
    region: config.s3Region,
    accessKeyId: config.s3AccessKeyId,
    secretAccessKey: config.s3SecretAccessKey,
    ...(config.s3Prefix ? { prefix: config.s3Prefix } : {}),
  };
}

export class DistributedRuntime implements ServiceCore {
  readonly accounts: AccountService;
  readonly files: FileService;
  readonly tasks: TaskService;
  readonly outputs: OutputService;
  readonly metrics = new Metrics();
  readonly sweeper: RetentionSweeper | null;
  readonly runner: EmbeddedRunner | null;
  private readonly readiness: Readiness;
  private closed = false;

  private constructor(
    readonly config: ServiceConfig,
    readonly log: Logger,
    readonly stores: DistributedStores,
    readonly blobs: S3BlobStore,
    opts: DistributedRuntimeOptions,
  ) {
    const { metadata, queue, events } = stores;
    this.readiness = new Readiness(metadata, blobs, log);
    ({ accounts: this.accounts, files: this.files, tasks: this.tasks, outputs: this.outputs } = makeServices(
      { metadata, queue, blobs, events },
      config,
      this.metrics,
    ));
    const serves = config.role !== 'worker';
    // every API process sweeps, one at a time (an advisory lock): the others skip their turn
    this.sweeper = serves
      ? new RetentionSweeper(metadata, blobs, config.retentionDays * 86_400_000, this.metrics, log, undefined, (sweep) =>
          whileHolding(stores.pool, SWEEP_LOCK, sweep),
        )
      : null;
    this.runner =
      config.role === 'api'
        ? null
        : new EmbeddedRunner(
            { store: metadata, queue, blobs, blobConfig: s3ConfigOf(config), events, metrics: this.metrics, log },
            runnerOptionsFor(config, {
              // a save is an UPDATE and a NOTIFY heard by every process: 10 % steps, or once a second
              progressStep: 0.1,
              ...(opts.workerFile ? { workerFile: opts.workerFile } : {}),
            }),
          );
    const runner = this.runner;
    // a task queued through this process wakes its own runner at once; other processes hear of it
    // through the event bus (the runner listens for queued tasks)
    if (runner) this.tasks.onQueued = () => runner.notify();
  }

  get events() {
    return this.stores.events;
  }

  /**
   * connects to PostgreSQL (migrations run there) and the bucket (created when missing). The bucket
   * is made only once the database agrees on it: a process with a mistyped S3_BUCKET is refused
   * before it creates a bucket of that name (a brand-new database makes it before its schema).
   */
  static async open(config: ServiceConfig, log: Logger, opts: DistributedRuntimeOptions = {}): Promise<DistributedRuntime> {
    const blobs = new S3BlobStore(s3ConfigOf(config));
    const ensureBucket = async (create = true) => {
      try {
        await blobs.ensureBucket({ create });
      } catch (err) {
        throw new Error(`object storage ${config.s3Endpoint || 'AWS S3'} bucket '${config.s3Bucket}': ${(err as Error).message}`);
      }
    };
    let stores: DistributedStores;
    try {
      stores = await openDistributedStores(config.databaseUrl, {
        applicationName: `stratum-${config.role}`,
        onError: (err) => log.warn({ err }, 'database event connection failed; reconnecting'),
        beforeCreateSchema: async () => {
          await ensureBucket();
          await refuseOrphanedBucket(blobs, config);
        },
      });
    } catch (err) {
      blobs.close();
      throw err;
    }
    try {
      await agreeOnFileStore(stores.pool, config);
      // a database that names stored files: the bucket must be the one holding them (a mistyped
      // S3_ENDPOINT made an empty bucket elsewhere, and the process failed every task it took)
      const newest = await newestStoredKeys(stores.pool);
      await ensureBucket(newest.length === 0);
      if (newest.length > 0) await refuseForeignBucket(blobs, config, newest);
    } catch (err) {
      await stores.close().catch(() => undefined);
      blobs.close();
      throw err;
    }
    return new DistributedRuntime(config, log, stores, blobs, opts);
  }

  async start(): Promise<void> {
    await this.runner?.start();
    if (this.sweeper && this.config.sweepIntervalS > 0) this.sweeper.start(this.config.sweepIntervalS * 1000);
  }

  gauges(): Promise<GaugeSample[]> {
    return coreGauges(this.stores, this.runner?.activeCount ?? 0, this.runner ? this.config.workers : 0, true);
  }

  async ready(): Promise<boolean> {
    return !this.closed && (await this.readiness.ready());
  }

  /** graceful: running slices get the grace period, then go back to the shared queue */
  async close(graceMs = this.config.shutdownGraceS * 1000): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.sweeper?.stop();
    await this.runner?.stop(graceMs);
    await this.sweeper?.idle();
    await this.stores.close();
    this.blobs.close();
  }
}

/** The database has no Stratum schema yet, but the bucket holds stored files. */
export class DatabaseMissing extends Error {
  override name = 'DatabaseMissing';
}

/**
 * A new schema beside a bucket of stored files means the database that named them is lost (a new
 * server, a wrong DATABASE_URL, a dropped database): made anew, it names none of them, and the
 * sweeper would delete every one as an orphan an hour on, past any restore. So it is not made; the
 * migrations' transaction rolls back and every process that starts refuses the same way.
 */
async function refuseOrphanedBucket(blobs: S3BlobStore, config: ServiceConfig): Promise<void> {
  const found = await firstStoredBlob(blobs);
  if (found === null) return;
  const where = `bucket '${config.s3Bucket}'${config.s3Prefix ? ` under prefix '${config.s3Prefix}'` : ''}`;
  throw new DatabaseMissing(
    `the database at DATABASE_URL has no Stratum schema, but ${where} holds stored files (${found}): ` +
      'a new schema would name none of them, and they would be deleted as orphans. Point DATABASE_URL at the ' +
      'database that names them or restore it from its backup (docs/deployment.md), or use an empty bucket or another S3_PREFIX to start empty',
  );
}

/** The blob keys of the few newest files and outputs the database names (none: nothing stored yet). */
async function newestStoredKeys(pool: pg.Pool): Promise<string[]> {
  const rows = await pool.query<{ blob_key: string }>(
    `(SELECT blob_key, created_at FROM files ORDER BY created_at DESC LIMIT 3)
     UNION ALL (SELECT blob_key, created_at FROM outputs ORDER BY created_at DESC LIMIT 3)
     ORDER BY created_at DESC LIMIT 3`,
  );
  return rows.rows.map((r) => r.blob_key);
}

/** The bucket this process reaches holds none of the newest files the database names. */
export class FileStoreUnreachable extends Error {
  override name = 'FileStoreUnreachable';
}

/**
 * The newest stored files must be in the bucket this process reaches: the database and the bucket
 * agree on names (agreeOnFileStore), but another S3_ENDPOINT is another store, which may have a
 * bucket of the same name holding none of them.
 */
async function refuseForeignBucket(blobs: S3BlobStore, config: ServiceConfig, keys: string[]): Promise<void> {
  for (const key of keys) if (await blobs.exists(key)) return;
  throw new FileStoreUnreachable(
    `bucket '${config.s3Bucket}' at ${config.s3Endpoint || 'AWS S3'} holds none of the newest files this database names ('${keys[0]}'…): ` +
      'this process would fail every task it took. Give every process an S3_ENDPOINT that reaches the object store the others use',
  );
}

/** The process's bucket and prefix differ from the ones the database's files were stored under. */
export class FileStoreMismatch extends Error {
  override name = 'FileStoreMismatch';
}

/**
 * The first process records the bucket and prefix (S3_BUCKET, S3_PREFIX); every later one must have
 * the same, or it would look for the files where they are not: a worker with another prefix failed
 * every task it took with "no longer stored". The endpoint may differ (one store, several addresses).
 */
async function agreeOnFileStore(pool: pg.Pool, config: ServiceConfig): Promise<void> {
  const want = JSON.stringify({ bucket: config.s3Bucket, prefix: config.s3Prefix });
  await pool.query(`INSERT INTO deployment (key, value) VALUES ('file-store', $1) ON CONFLICT (key) DO NOTHING`, [want]);
  const row = (await pool.query<{ value: string }>(`SELECT value FROM deployment WHERE key = 'file-store'`)).rows[0];
  if (!row || row.value === want) return;
  const had = JSON.parse(row.value) as { bucket: string; prefix: string };
  throw new FileStoreMismatch(
    `this database's files are stored in bucket '${had.bucket}' under prefix '${had.prefix}', but this process has ` +
      `S3_BUCKET '${config.s3Bucket}' and S3_PREFIX '${config.s3Prefix}': it would find none of them. Give every process the same S3_BUCKET and S3_PREFIX`,
  );
}
