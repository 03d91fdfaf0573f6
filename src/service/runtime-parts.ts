// What the embedded and the distributed runtimes build the same way from their stores: the services
// the API calls, the runner's options, the gauges and the readiness check. Only where the stores come
// from, which processes slice and which sweep differ between the two (see the runtimes).
import type { RunnerOptions } from '../runner/embedded-runner.js';
import { AccountService } from './account-service.js';
import { layerThreadsFor, type ServiceConfig } from './config.js';
import { FileService } from './file-service.js';
import type { GaugeSample, Metrics } from './metrics.js';
import { OutputService } from './output-service.js';
import type { BlobStore, JobQueue, MetadataStore, TaskEventBus } from './ports.js';
import { TaskService } from './task-service.js';

export interface CoreStores {
  metadata: MetadataStore;
  queue: JobQueue;
  blobs: BlobStore;
  events: TaskEventBus;
}

export interface CoreServices {
  accounts: AccountService;
  files: FileService;
  tasks: TaskService;
  outputs: OutputService;
}

export function makeServices(s: CoreStores, config: ServiceConfig, metrics: Metrics): CoreServices {
  return {
    accounts: new AccountService(s.metadata, config.authCacheS * 1000),
    files: new FileService(s.metadata, s.blobs, config.maxUploadBytes, metrics),
    tasks: new TaskService(s.metadata, s.blobs, s.queue, s.events, metrics),
    outputs: new OutputService(s.metadata, s.blobs),
  };
}

/** The runner's options from the configuration, with a runtime's own additions. */
export function runnerOptionsFor(config: ServiceConfig, extra: Partial<RunnerOptions> = {}): RunnerOptions {
  return {
    workers: config.workers,
    leaseMs: config.leaseS * 1000,
    maxAttempts: config.maxAttempts,
    retryDelayMs: config.retryDelayS * 1000,
    taskTimeoutMs: config.taskTimeoutS * 1000,
    workerMaxMemoryMb: config.workerMaxMemoryMb,
    taskMaxToolpathMb: config.taskMaxToolpathMb,
    workerNice: config.workerNice,
    warmUp: config.warmUp,
    layerThreads: layerThreadsFor(config),
    layerThreadsIdleMs: config.layerThreadsIdleS * 1000,
    ...extra,
  };
}

/** Gauges sampled at scrape time; `cluster` says the counts cover every process of a shared store. */
export async function coreGauges(
  s: Pick<CoreStores, 'metadata' | 'queue'>,
  running: number,
  workers: number,
  cluster: boolean,
): Promise<GaugeSample[]> {
  const counts = await s.metadata.countTasksByStatus();
  const whole = cluster ? ' (whole cluster)' : '';
  const here = cluster ? ' of this process' : '';
  return [
    {
      name: 'stratum_tasks',
      help: `Tasks by status${whole}.`,
      values: Object.entries(counts).map(([status, value]) => ({ labels: { status }, value })),
    },
    { name: 'stratum_queue_depth', help: `Tasks waiting for a worker${whole}.`, values: [{ value: await s.queue.depth() }] },
    { name: 'stratum_slices_running', help: cluster ? 'Slices running in this process.' : 'Slices running now.', values: [{ value: running }] },
    { name: 'stratum_workers', help: `Slicing worker threads${here}.`, values: [{ value: workers }] },
  ];
}
