// Puts the embedded runtime together: SQLite + local disk stores, the in-process event bus, the
// worker-thread runner, the retention sweeper, and the services the API calls.
import type { Logger } from 'pino';
import { EmbeddedRunner } from '../runner/embedded-runner.js';
import { openEmbeddedStores, type EmbeddedStores } from '../store/embedded-stores.js';
import { AccountService } from './account-service.js';
import { layerThreadsFor, type ServiceConfig } from './config.js';
import { FileService } from './file-service.js';
import { Metrics, type GaugeSample } from './metrics.js';
import { OutputService } from './output-service.js';
import { RetentionSweeper } from './retention-sweeper.js';
import { LocalTaskEventBus } from './task-event-bus.js';
import { TaskService } from './task-service.js';
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
  private closed = false;

  constructor(
    readonly config: ServiceConfig,
    readonly log: Logger,
    readonly stores: EmbeddedStores,
    opts: EmbeddedRuntimeOptions,
  ) {
    const { metadata, queue, blobs } = stores;
    this.accounts = new AccountService(metadata, config.authCacheS * 1000);
    this.files = new FileService(metadata, blobs, config.maxUploadBytes, this.metrics);
    this.tasks = new TaskService(metadata, blobs, queue, this.events, this.metrics);
    this.outputs = new OutputService(metadata, blobs);
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
          {
            workers: config.workers,
            leaseMs: config.leaseS * 1000,
            maxAttempts: config.maxAttempts,
            taskTimeoutMs: config.taskTimeoutS * 1000,
            workerMaxMemoryMb: config.workerMaxMemoryMb,
            workerNice: config.workerNice,
            layerThreads: layerThreadsFor(config),
            ...(opts.workerFile ? { workerFile: opts.workerFile } : {}),
          },
        );
    const runner = this.runner;
    if (runner) this.tasks.onQueued = () => runner.notify();
  }

  static open(config: ServiceConfig, log: Logger, opts: EmbeddedRuntimeOptions = {}): EmbeddedRuntime {
    return new EmbeddedRuntime(config, log, openEmbeddedStores(config.dataDir), opts);
  }

  /** resumes interrupted work and starts the workers and the sweeper */
  async start(): Promise<void> {
    // no write is in flight yet: temporary files are leftovers of a process that died
    await this.stores.blobs.sweepTemp(0);
    await this.runner?.start();
    if (this.config.sweepIntervalS > 0) this.sweeper.start(this.config.sweepIntervalS * 1000);
  }

  async gauges(): Promise<GaugeSample[]> {
    const counts = await this.stores.metadata.countTasksByStatus();
    return [
      {
        name: 'stratum_tasks',
        help: 'Tasks by status.',
        values: Object.entries(counts).map(([status, value]) => ({ labels: { status }, value })),
      },
      { name: 'stratum_queue_depth', help: 'Tasks waiting for a worker.', values: [{ value: await this.stores.queue.depth() }] },
      { name: 'stratum_slices_running', help: 'Slices running now.', values: [{ value: this.runner?.activeCount ?? 0 }] },
      { name: 'stratum_workers', help: 'Slicing worker threads.', values: [{ value: this.runner ? this.config.workers : 0 }] },
    ];
  }

  async ready(): Promise<boolean> {
    if (this.closed) return false;
    try {
      await this.stores.metadata.ping();
      return true;
    } catch {
      return false;
    }
  }

  /** graceful: running slices get the grace period, then go back to the queue */
  async close(graceMs = this.config.shutdownGraceS * 1000): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.sweeper.stop();
    await this.runner?.stop(graceMs);
    await this.sweeper.idle();
    await this.stores.close();
  }
}
