// Puts the embedded runtime together: SQLite + local disk stores, the in-process event bus, the
// worker-thread runner, the retention sweeper, and the services the API calls.
import type { Logger } from 'pino';
import { EmbeddedRunner } from '../runner/embedded-runner.js';
import { openEmbeddedStores, type EmbeddedStores } from '../store/embedded-stores.js';
import { lockDataDir, type DataDirLock } from '../store/sqlite/data-dir-lock.js';
import { diskNearlyFull, isDiskFull, keepReserve, releaseReserve } from '../store/disk-reserve.js';
import type { AccountService } from './account-service.js';
import type { ServiceConfig } from './config.js';
import type { FileService } from './file-service.js';
import { Metrics, type GaugeSample } from './metrics.js';
import type { OutputService } from './output-service.js';
import { RetentionSweeper } from './retention-sweeper.js';
import { coreGauges, makeServices, runnerOptionsFor } from './runtime-parts.js';
import { Readiness } from './readiness.js';
import { LocalTaskEventBus } from './task-event-bus.js';
import type { TaskService } from './task-service.js';
import type { TaskEventBus } from './ports.js';

/** What the HTTP layer needs, whatever runtime sits behind it. */
export interface ServiceCore {
  config: ServiceConfig;
  log: Logger;
  accounts: AccountService;
  files: FileService;
  tasks: TaskService;
  outputs: OutputService;
  events: TaskEventBus;
  metrics: Metrics;
  /** gauges sampled at scrape time */
  gauges(): Promise<GaugeSample[]>;
  /** can it serve (store reachable, workers up)? */
  ready(): Promise<boolean>;
}

export interface EmbeddedRuntimeOptions {
  /** run no slicing workers (tools that only need the stores) */
  withoutRunner?: boolean;
  /** substitute worker module (tests) */
  workerFile?: string;
  /** how long the workers' warm-up may take (tests; default the runner's own) */
  warmUpLimitMs?: number;
  /** how often the runner looks for active tasks without a job (tests; default the runner's own) */
  adoptEveryMs?: number;
  /** how long a slicing thread asked to stop may take before it is ended (tests; default the runner's own) */
  stopGraceMs?: number;
}

export class EmbeddedRuntime implements ServiceCore {
  readonly accounts: AccountService;
  readonly files: FileService;
  readonly tasks: TaskService;
  readonly outputs: OutputService;
  readonly events = new LocalTaskEventBus();
  readonly metrics = new Metrics();
  readonly sweeper: RetentionSweeper;
  readonly runner: EmbeddedRunner | null;
  private readonly readiness: Readiness;
  private closed = false;
  private lock: DataDirLock | null = null;

  constructor(
    readonly config: ServiceConfig,
    readonly log: Logger,
    readonly stores: EmbeddedStores,
    opts: EmbeddedRuntimeOptions,
  ) {
    const { metadata, queue, blobs } = stores;
    this.readiness = new Readiness(metadata, blobs, log);
    ({ accounts: this.accounts, files: this.files, tasks: this.tasks, outputs: this.outputs } = makeServices(
      { metadata, queue, blobs, events: this.events },
      config,
      this.metrics,
    ));
    this.sweeper = new RetentionSweeper(
      metadata,
      blobs,
      config.retentionDays * 86_400_000,
      this.metrics,
      log,
      async () => void (await blobs.sweepTemp(86_400_000)),
    );
    this.runner = opts.withoutRunner
      ? null
      : new EmbeddedRunner(
          { store: metadata, queue, blobs, blobConfig: stores.blobConfig, events: this.events, metrics: this.metrics, log },
          runnerOptionsFor(config, {
            ...(opts.workerFile ? { workerFile: opts.workerFile } : {}),
            ...(opts.warmUpLimitMs ? { warmUpLimitMs: opts.warmUpLimitMs } : {}),
            ...(opts.adoptEveryMs ? { adoptEveryMs: opts.adoptEveryMs } : {}),
            ...(opts.stopGraceMs ? { stopGraceMs: opts.stopGraceMs } : {}),
          }),
        );
    const runner = this.runner;
    if (runner) this.tasks.onQueued = () => runner.notify();
  }

  /** Takes the data directory (one server each: data-dir-lock.ts), then opens its stores. */
  static open(config: ServiceConfig, log: Logger, opts: EmbeddedRuntimeOptions = {}): EmbeddedRuntime {
    const lock = lockDataDir(config.dataDir);
    if (lock.remade) log.warn(lock.remade);
    try {
      const runtime = new EmbeddedRuntime(config, log, openStoresOnFullDisk(config.dataDir, log), opts);
      runtime.lock = lock;
      // made again where it was given up (or never made), once the disk has room
      keepReserve(config.dataDir);
      return runtime;
    } catch (err) {
      lock.release();
      throw err;
    }
  }

  /** resumes interrupted work and starts the workers and the sweeper */
  async start(): Promise<void> {
    // no write is in flight yet: temporary files are leftovers of a process that died
    await this.stores.blobs.sweepTemp(0);
    await this.runner?.start();
    if (this.config.sweepIntervalS > 0) this.sweeper.start(this.config.sweepIntervalS * 1000);
  }

  gauges(): Promise<GaugeSample[]> {
    return coreGauges(this.stores, this.runner?.activeCount ?? 0, this.runner ? this.config.workers : 0, false);
  }

  async ready(): Promise<boolean> {
    return !this.closed && (await this.readiness.ready());
  }

  /** graceful: running slices get the grace period, then go back to the queue */
  async close(graceMs = this.config.shutdownGraceS * 1000): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.sweeper.stop();
    await this.runner?.stop(graceMs);
    await this.sweeper.idle();
    await this.stores.close();
    this.lock?.release();
  }
}

const RESERVE_GIVEN_UP = 'the disk is full: gave up the 1 MiB reserve (stratum.reserve) so that the server can start; uploads and new tasks are refused until there is room';

/** The stores, opened with the data directory's reserve given up if the disk is too full to open them otherwise (disk-reserve.ts). */
function openStoresOnFullDisk(dataDir: string, log: Logger): EmbeddedStores {
  if (diskNearlyFull(dataDir) && releaseReserve(dataDir)) log.warn({ dataDir }, RESERVE_GIVEN_UP);
  try {
    return openEmbeddedStores(dataDir);
  } catch (err) {
    if (!isDiskFull(err) || !releaseReserve(dataDir)) throw err;
    log.warn({ dataDir }, RESERVE_GIVEN_UP);
    return openEmbeddedStores(dataDir);
  }
}
