// What the embedded runner is given: its options (from the service configuration, runtime-parts.ts)
// and the stores and services it works with.
import type { Logger } from 'pino';
import type { Metrics } from '../service/metrics.js';
import type { BlobStore, JobQueue, MetadataStore, RecoveredJobs, TaskEventBus } from '../service/ports.js';
import type { BlobStoreConfig } from '../store/blob-store-factory.js';

export interface RunnerOptions {
  workers: number;
  leaseMs: number;
  maxAttempts: number;
  /**
   * a task whose slice broke waits this long before its second attempt, 4× longer before each later
   * one (a storage or database outage of a few seconds then costs no task); default 0
   */
  retryDelayMs?: number;
  taskTimeoutMs: number;
  /** how long a slicing thread asked to stop may take before it is ended, ms (default 2000) */
  stopGraceMs?: number;
  /** worker heap limit, MiB; 0 = Node's default */
  workerMaxMemoryMb: number;
  /** the most memory one slice's toolpath may take, MiB (SliceOptions.maxToolpathBytes); 0 or absent = no limit */
  taskMaxToolpathMb?: number;
  /** niceness added to worker threads (Linux); 0 = none */
  workerNice?: number;
  /** each worker slices a small built-in part a few times before it takes tasks (warm-up.ts); default false */
  warmUp?: boolean;
  /** how long the warm-up may take before the runner starts without it; default WARM_UP_LIMIT_MS */
  warmUpLimitMs?: number;
  /** threads one slice may spread its layers over; default 1 (none) */
  layerThreads?: number;
  /** how long those threads stay after a slice for the next one, ms; default 0 (they end with it) */
  layerThreadsIdleMs?: number;
  /** the worker module (tests substitute their own); default ./slice-worker-entry.cjs, the CommonJS front of ./slice-worker.js */
  workerFile?: string;
  /**
   * progress is saved (and published) when it moved this much, or after a second with any move;
   * default 0.02. Distributed runtimes save less often: each save is a database write and a
   * notification to every process.
   */
  progressStep?: number;
  /** how often active tasks without a job are looked for and queued again, ms; default 60 s */
  adoptEveryMs?: number;
}

export interface RunnerDeps {
  store: MetadataStore;
  /** `recoverAbandoned` exists on the embedded queue: one server owns it */
  queue: JobQueue & { recoverAbandoned?(owner: string, maxAttempts: number): Promise<RecoveredJobs> };
  blobs: BlobStore;
  blobConfig: BlobStoreConfig;
  events: TaskEventBus;
  metrics: Metrics;
  log: Logger;
}
