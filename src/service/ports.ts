// The interfaces the service core talks to. The embedded runtime implements them on SQLite and the
// local disk (src/store/); a distributed runtime can implement them on PostgreSQL and S3 without
// the service or the API changing. Every method is async for that reason.
import type { Readable } from 'node:stream';
import type {
  AccessTokenRecord,
  Account,
  ApiKeyRecord,
  FileRecord,
  OutputRecord,
  TaskKind,
  TaskRecord,
  TaskStatus,
} from './model.js';

export interface TaskPage {
  tasks: TaskRecord[];
  /** opaque cursor for the next (older) page, or null at the end */
  nextCursor: string | null;
}

export interface MetadataStore {
  // ── accounts, keys, tokens ────────────────────────────────────────────────
  insertAccount(account: Account): Promise<void>;
  /** by id, or by name when no id matches */
  findAccount(idOrName: string): Promise<Account | null>;
  insertApiKey(key: ApiKeyRecord): Promise<void>;
  /** an active (not revoked) key by the hash of its secret */
  findActiveKeyByHash(keyHash: string): Promise<ApiKeyRecord | null>;
  listApiKeys(): Promise<ApiKeyRecord[]>;
  /** true when a key with that id was active and is now revoked */
  revokeApiKey(keyId: string, at: number): Promise<boolean>;
  countActiveKeys(): Promise<number>;
  insertAccessToken(token: AccessTokenRecord): Promise<void>;
  /** an unexpired token by hash whose key is still active */
  findAccessToken(tokenHash: string, now: number): Promise<AccessTokenRecord | null>;
  deleteExpiredTokens(now: number): Promise<number>;

  // ── files ─────────────────────────────────────────────────────────────────
  insertFile(file: FileRecord): Promise<void>;
  /** only when it belongs to the account */
  getFile(accountId: string, fileId: string): Promise<FileRecord | null>;
  deleteFile(accountId: string, fileId: string): Promise<FileRecord | null>;
  /** files created before `cutoff` that no unfinished task needs */
  listExpiredFiles(cutoff: number, limit: number): Promise<FileRecord[]>;
  deleteFileRecord(fileId: string): Promise<void>;

  // ── tasks ─────────────────────────────────────────────────────────────────
  insertTask(task: TaskRecord): Promise<void>;
  /** any account (runner use) */
  getTask(taskId: string): Promise<TaskRecord | null>;
  getTaskOf(accountId: string, taskId: string): Promise<TaskRecord | null>;
  listTasks(accountId: string, kind: TaskKind, limit: number, cursor: string | null): Promise<TaskPage>;
  /**
   * Applies `patch` only when the task's status is one of `from` (compare-and-set, so a late
   * worker result cannot overwrite a cancellation). Returns the updated task, or null.
   */
  updateTask(taskId: string, from: readonly TaskStatus[], patch: Partial<TaskRecord>): Promise<TaskRecord | null>;
  deleteTask(taskId: string): Promise<void>;
  listTaskIdsByStatus(status: TaskStatus): Promise<string[]>;
  countTasksByStatus(): Promise<Record<TaskStatus, number>>;

  // ── outputs ───────────────────────────────────────────────────────────────
  insertOutput(output: OutputRecord): Promise<void>;
  getOutput(accountId: string, outputId: string): Promise<OutputRecord | null>;
  getOutputOfTask(taskId: string): Promise<OutputRecord | null>;
  deleteOutput(outputId: string): Promise<void>;
  /**
   * Takes an output's one-time (legacy) download until `untilMs`: true for the one caller whose claim
   * took, false while another caller's unexpired claim holds it. Shared by every process on the store.
   */
  claimDownload(outputId: string, nowMs: number, untilMs: number): Promise<boolean>;
  /** lets a claim go (the download broke off before the end) */
  releaseDownload(outputId: string): Promise<void>;
  /** whether an unexpired claim holds the output's one-time download now */
  downloadClaimed(outputId: string, nowMs: number): Promise<boolean>;
  listExpiredOutputs(cutoff: number, limit: number): Promise<OutputRecord[]>;
  /** which of these blob keys a file or an output record names (the orphan sweep keeps those) */
  knownBlobKeys(keys: readonly string[]): Promise<Set<string>>;

  /** quick liveness probe for /readyz */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** A task list cursor that this store did not hand out. */
export class InvalidCursorError extends Error {
  constructor() {
    super('the cursor is not one this server handed out');
    this.name = 'InvalidCursorError';
  }
}

export class BlobTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`the upload exceeds the limit of ${limit} bytes`);
    this.name = 'BlobTooLargeError';
  }
}

/** The blob store itself failed (the object store is down or refused the write), not the source. */
export class BlobStoreUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`the file store failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'BlobStoreUnavailableError';
  }
}

/** The source of a put failed or ended early (an upload's client went away): nothing was kept. */
export class BlobSourceError extends Error {
  constructor(cause: unknown) {
    super(`the source ended early: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'BlobSourceError';
  }
}

/** The metadata store cannot be reached (connection refused or lost, server shutting down): worth a retry. */
export class MetadataStoreUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`the database failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'MetadataStoreUnavailableError';
  }
}

export class BlobNotFoundError extends Error {
  constructor(key: string) {
    super(`no blob ${key}`);
    this.name = 'BlobNotFoundError';
  }
}

export interface BlobPutOptions {
  /** abort with BlobTooLargeError (and keep nothing) past this many bytes */
  maxBytes?: number;
}

/** Whole files by key. `put` is atomic: a reader sees the complete blob or none. */
export interface BlobStore {
  /**
   * Stores the whole source, or nothing. A failure is BlobSourceError (the source broke off),
   * BlobTooLargeError or BlobStoreUnavailableError (the store's own fault). A streamed source is never
   * destroyed by the store: its owner decides what becomes of the rest.
   */
  put(key: string, source: Readable | Uint8Array, opts?: BlobPutOptions): Promise<{ size: number }>;
  /** a stream of the blob; throws BlobNotFoundError */
  get(key: string): Promise<{ stream: Readable; size: number }>;
  /** the whole blob in memory (inputs a worker parses anyway); throws BlobNotFoundError */
  read(key: string): Promise<Uint8Array>;
  exists(key: string): Promise<boolean>;
  /** no error when it does not exist */
  delete(key: string): Promise<void>;
  /** quick reachability probe for /readyz: throws when the store cannot be used */
  ping(): Promise<void>;
  /** the keys under `prefix` (`files/`, `outputs/`) last written before `beforeMs`, a page at a time */
  keysWrittenBefore(prefix: string, beforeMs: number): AsyncIterable<string[]>;
}

/** A claimed job: the task to run and how many times it has been claimed (this one included). */
export interface ClaimedJob {
  taskId: string;
  attempts: number;
}

export interface RecoveredJobs {
  /** put back in the queue for another attempt */
  requeued: string[];
  /** out of attempts: the caller fails these tasks */
  exhausted: string[];
}

/** The task queue with leases: a claimed job belongs to its owner until the lease runs out. */
export interface JobQueue {
  enqueue(taskId: string): Promise<void>;
  claim(owner: string, leaseMs: number): Promise<ClaimedJob | null>;
  /** false when the lease was lost (expired and taken back) */
  heartbeat(taskId: string, owner: string, leaseMs: number): Promise<boolean>;
  /** the job is done (whatever the task's outcome) and leaves the queue */
  complete(taskId: string, owner: string): Promise<void>;
  /** the attempt failed: back to the queue for another (the attempt stays counted) */
  retry(taskId: string, owner: string): Promise<void>;
  /** give the job back without counting the attempt (graceful shutdown) */
  release(taskId: string, owner: string): Promise<void>;
  /** drop a job whatever its state (cancel or delete of a task) */
  remove(taskId: string): Promise<void>;
  /** jobs whose lease expired go back to the queue, or out when they used `maxAttempts` */
  recoverExpired(now: number, maxAttempts: number): Promise<RecoveredJobs>;
  depth(): Promise<number>;
  has(taskId: string): Promise<boolean>;
}

/** Change notifications of tasks, for server-sent events and for cancelling running work. */
export interface TaskEventBus {
  publish(task: TaskRecord): void;
  subscribe(taskId: string, listener: (task: TaskRecord) => void): () => void;
  /** every task change (the runner uses it to see cancellations) */
  subscribeAll(listener: (task: TaskRecord) => void): () => void;
}
