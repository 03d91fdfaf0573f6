// The embedded runner: claims queued tasks from the JobQueue and slices them on a piscina pool of
// worker threads, so the HTTP event loop never blocks. It keeps its leases alive, persists progress,
// stops a slice when its task is cancelled (the worker is asked, and ended if it does not answer), retries a task
// whose worker broke (up to maxAttempts), and on start resumes what a previous process left behind.
import { OutageLog, retryWhileUnavailable } from './outage-log.js';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { Piscina } from 'piscina';
import { outputFileName } from '../service/file-rules.js';
import { newId } from '../service/ids.js';
import { ACTIVE_STATUSES, isTerminal, type OutputFormat, type OutputRecord, type TaskRecord } from '../service/model.js';
import type { ClaimedJob, RecoveredJobs } from '../service/ports.js';
import { formatInfo } from '../engine/output/index.js';
import type { ProgressMessage, SliceJob, SliceJobResult, SliceJobStats } from './slice-job.js';
import { warmUpPool, WARM_UP_LIMIT_MS } from './pool-warm-up.js';
import { RunningSlice, STOP_GRACE_MS, type AbortReason } from './running-slice.js';
import { storesAnswer } from '../service/readiness.js';
import { StoreWatch, STORE_PROBE_MS } from './store-watch.js';
import { TaskTransitions } from './task-transitions.js';
import { deleteUnrecordedBlob } from '../service/blob-cleanup.js';
import type { RunnerDeps, RunnerOptions } from './runner-options.js';


export type { RunnerDeps, RunnerOptions } from './runner-options.js';

/** A slice whose printer file the runner stored: what its task records. */
interface StoredSlice {
  format: OutputFormat;
  stats: SliceJobStats;
  warnings: string[];
  /** the stored file's bytes */
  size: number;
}

/** Persist progress when it moved this much (unless set otherwise), or after PERSIST_MS with any move. */
const PERSIST_STEP = 0.02;
const PERSIST_MS = 1000;
const POLL_MS = 1000;
/** The wait between tries of a result's save while the database does not answer. */
const SAVE_RETRY_MS = 500;
/** How long a finished slice waits for the database to save its result (an outage longer than this loses the slice: it runs again). */
const SAVE_RETRY_LIMIT_MS = 10 * 60_000;
/** How often a runner looks for active tasks that have no job (see adoptJobless). */
const ADOPT_EVERY_MS = 60_000;

export class EmbeddedRunner {
  /** names this runner in leases: host and pid say which process holds a task */
  readonly owner = `${hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`;
  private pool: Piscina<SliceJob, SliceJobResult> | null = null;
  private readonly running = new Map<string, RunningSlice>();
  private readonly transitions: TaskTransitions;
  private stopping = false;
  private pumping = false;
  private pumpAgain = false;
  private readonly storeWatch: StoreWatch;
  /** the next look at the queue while the stores do not answer */
  private pumpLater: NodeJS.Timeout | null = null;
  private timers: NodeJS.Timeout[] = [];
  private unsubscribe: (() => void) | null = null;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private readonly outage: OutageLog;

  constructor(
    private readonly deps: RunnerDeps,
    private readonly opts: RunnerOptions,
  ) {
    this.transitions = new TaskTransitions(deps.store, deps.events, deps.metrics, deps.log);
    this.storeWatch = new StoreWatch(() => storesAnswer(deps.store, deps.blobs));
    this.outage = new OutageLog(deps.log);
  }

  get activeCount(): number {
    return this.running.size;
  }

  async start(): Promise<void> {
    const { queue, store } = this.deps;
    this.pool = new Piscina<SliceJob, SliceJobResult>({
      filename: this.opts.workerFile ?? new URL('./slice-worker-entry.cjs', import.meta.url).href,
      minThreads: this.opts.workers,
      maxThreads: this.opts.workers,
      idleTimeout: 60_000,
      // slicing yields the CPU to the HTTP thread when both want it (p99 of reads while slicing)
      niceIncrement: this.opts.workerNice ?? 0,
      // An idle worker waits for its next task on its event loop, not blocked in Atomics.wait (piscina's
      // default). A thread ended while it loaded CommonJS code through import() (a cancel soon after a
      // new worker started) can run on, on Node 22.23: it then went idle, blocked, and the stop that
      // Node had queued for it never ran. The thread never ended, and its port kept the process alive
      // (the v0.3 API test, 1 time in 20 when the worker module imported piscina). Blocked, its timers
      // did not run either: layer threads kept for the next slice never ended while the worker idled.
      atomics: 'disabled',
      ...(this.opts.workerMaxMemoryMb > 0 ? { resourceLimits: { maxOldGenerationSizeMb: this.opts.workerMaxMemoryMb } } : {}),
    });
    // A worker thread that fails before it takes a task (its module failed to load) is reported as
    // the pool's 'error' event; unheard, that event would end the whole service. Tasks start their
    // own workers as they need them, so logging it is all there is to do.
    this.pool.on('error', (err: unknown) => this.deps.log.error({ err }, 'a slicing worker thread failed to start'));
    if (this.opts.warmUp) await warmUpPool(this.pool, this.opts.workers, this.opts.warmUpLimitMs ?? WARM_UP_LIMIT_MS, this.deps.log);
    // whatever a previous process was slicing runs again
    if (queue.recoverAbandoned) await this.applyRecovery(await queue.recoverAbandoned(this.owner, this.opts.maxAttempts));
    // tasks that are active without a job (a crash between the two writes) get one
    await this.adoptJobless();
    // the event bus may span processes (distributed mode): a cancel made through any API process
    // stops the slice here, and a task queued through any of them wakes this runner at once
    this.unsubscribe = this.deps.events.subscribeAll((task) => {
      if (task.status === 'cancelled') this.abort(task.id, 'cancelled');
      else if (task.status === 'queued') this.notify();
    });
    // the heartbeat goes on through a stop's grace period (stop() ends it last): a slice still
    // finishing keeps its lease, so no other worker starts it again meanwhile
    this.heartbeatTimer = this.every(Math.max(100, this.opts.leaseMs / 3), () => this.heartbeat());
    // a lease that ran out is found within a quarter lease of it, not up to a whole one later (a
    // worker killed mid-slice left its task 'running' for up to twice the lease)
    this.every(Math.max(100, this.opts.leaseMs / 4), async () => {
      // just after the database was unreachable every lease looks run out, its owner's heartbeats
      // having failed too: half a lease lets the owners renew theirs first (a slice that finished
      // in the outage is then saved, not sliced again by whoever recovered first)
      if (Date.now() - this.outage.lastFailureAt < this.opts.leaseMs / 2) return;
      await this.applyRecovery(await queue.recoverExpired(Date.now(), this.opts.maxAttempts));
    });
    this.every(POLL_MS, async () => this.notify());
    // and again from time to time: a database lost between a task's record and its job (the client
    // was told 503, the task stayed), or a recovery that requeued a task another runner had just
    // claimed, left tasks waiting that no job would ever run
    this.every(this.opts.adoptEveryMs ?? ADOPT_EVERY_MS, async () => {
      await this.adoptJobless();
    });
    this.notify();
  }

  /** Active tasks without a job get one (a running one goes back to queued); the count it adopted. */
  private async adoptJobless(): Promise<number> {
    const { queue, store, log } = this.deps;
    let adopted = 0;
    for (const status of ACTIVE_STATUSES) {
      for (const id of await store.listTaskIdsByStatus(status)) {
        if (await queue.has(id)) continue;
        await queue.enqueue(id);
        if (status !== 'queued') await this.transitions.requeued(id);
        adopted++;
        log.warn({ taskId: id, status }, 'task had no job; queued again');
      }
    }
    if (adopted) this.notify();
    return adopted;
  }

  private every(ms: number, fn: () => Promise<void>): NodeJS.Timeout {
    const t = setInterval(() => {
      fn().catch((err) => this.outage.failed(err, 'runner housekeeping failed'));
    }, ms);
    t.unref();
    this.timers.push(t);
    return t;
  }

  private async applyRecovery(r: RecoveredJobs): Promise<void> {
    for (const id of r.requeued) {
      this.deps.log.warn({ taskId: id }, 'task was interrupted; it runs again');
      await this.transitions.requeued(id);
    }
    for (const id of r.exhausted) {
      await this.transitions.failed(id, `slicing was interrupted ${this.opts.maxAttempts} times; giving up`);
    }
    if (r.requeued.length) this.notify();
  }

  /** something was queued: claim it if a worker is free */
  notify(): void {
    void this.pump();
  }

  private async pump(): Promise<void> {
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    try {
      do {
        this.pumpAgain = false;
        while (!this.stopping && this.pool && this.running.size < this.opts.workers) {
          if (!(await this.storeWatch.mayClaim())) {
            // a slice broke and the stores still do not answer: a task claimed now would break too
            this.pumpLater ??= setTimeout(() => {
              this.pumpLater = null;
              this.notify();
            }, STORE_PROBE_MS);
            break;
          }
          // a stop may have begun while the stores were asked
          if (this.stopping || !this.pool) break;
          const job = await this.deps.queue.claim(this.owner, this.opts.leaseMs);
          if (!job) break;
          // a stop begun during the claim (a network round trip in the distributed mode) would not
          // wait for a slice launched now: the job goes back untouched (the task never started)
          if (this.stopping || !this.pool) {
            await this.deps.queue.release(job.taskId, this.owner);
            break;
          }
          this.launch(job);
        }
      } while (this.pumpAgain && !this.stopping);
    } catch (err) {
      this.outage.failed(err, 'claiming a task failed');
    } finally {
      this.pumping = false;
    }
  }

  private launch(job: ClaimedJob): void {
    const entry = new RunningSlice(job.taskId);
    this.running.set(job.taskId, entry);
    entry.done = this.execute(entry, job)
      .catch((err) => this.deps.log.error({ err, taskId: job.taskId }, 'runner failed on a task'))
      .finally(() => {
        this.running.delete(job.taskId);
        this.notify();
      });
  }

  private async execute(entry: RunningSlice, job: ClaimedJob): Promise<void> {
    const { store, queue, log } = this.deps;
    const task = await store.getTask(job.taskId);
    if (!task || isTerminal(task.status) || !(await this.transitions.started(task.id))) {
      await queue.complete(job.taskId, this.owner);
      return;
    }
    const primaryType = task.kind === 'ws' ? 'WS' : 'STL';
    const primary = task.files.find((f) => f.type === primaryType);
    const file = primary ? await store.getFile(task.accountId, primary.fileId) : null;
    if (!primary || !file) {
      await this.transitions.failed(task.id, `input file '${primary?.fileName ?? '?'}' is no longer stored (deleted or expired)`);
      await queue.complete(task.id, this.owner);
      return;
    }
    log.info({ taskId: task.id, attempt: job.attempts, file: file.fileName }, 'slicing');
    const outputId = newId();
    const outputBlobKey = `outputs/${outputId}`;
    const timeout = setTimeout(() => this.abort(task.id, 'timeout'), this.opts.taskTimeoutMs);
    let result: SliceJobResult | null = null;
    let crash: unknown = null;
    try {
      result = await entry.run(this.pool, {
        taskId: task.id,
        kind: task.kind,
        model: { blobKey: file.blobKey, fileName: file.fileName },
        request: task.request,
        blobs: this.deps.blobConfig,
        layerThreads: this.opts.layerThreads ?? 1,
        layerThreadsIdleMs: this.opts.layerThreadsIdleMs ?? 0,
        maxToolpathBytes: (this.opts.taskMaxToolpathMb ?? 0) * 2 ** 20,
      }, (m) => this.onProgress(entry, m));
    } catch (err) {
      crash = err;
    } finally {
      clearTimeout(timeout);
    }
    await entry.persisting;

    let size = 0;
    if (result?.ok && !entry.abortReason) {
      // stored here, not by the worker thread, which a cancel ends at once: a cancel now lets the
      // write end, and afterAbort then deletes the file
      try {
        ({ size } = await this.deps.blobs.put(outputBlobKey, result.output));
      } catch (err) {
        // the disk or the object store failed: an internal error, tried again like a broken slice
        crash = err;
        result = null;
      }
    }
    if (entry.abortReason) return this.afterAbort(task, entry.abortReason, outputBlobKey);
    if (result?.ok) {
      const { format, stats, warnings } = result;
      // the bytes are stored: not held while the result is saved (a database outage can take minutes)
      result = null;
      return this.afterSuccess(task, primary.fileName, outputId, outputBlobKey, { format, stats, warnings, size }, entry.controller.signal);
    }
    if (result && result.userError) {
      await this.transitions.failed(task.id, result.message);
      await queue.complete(task.id, this.owner);
      return;
    }
    if ((crash as { code?: string } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
      // the same input would run out again: no retry
      const limit = this.opts.workerMaxMemoryMb > 0 ? ` (${this.opts.workerMaxMemoryMb} MiB)` : '';
      await this.transitions.failed(task.id, `slicing ran out of memory${limit}; the model needs more than a worker may use`);
      await queue.complete(task.id, this.owner);
      return;
    }
    const detail = result ? result.message : String((crash as Error)?.message ?? crash);
    if (job.attempts < this.opts.maxAttempts) {
      const delayMs = retryDelay(this.opts.retryDelayMs ?? 0, job.attempts + 1);
      log.warn({ taskId: task.id, attempt: job.attempts, detail, retryInS: delayMs / 1000 }, 'slicing broke; the task is tried again');
      await this.transitions.requeued(task.id);
      // the wait keeps the lease (the heartbeat goes on), so no other worker takes the task before it
      // ends; a cancel or a stop ends it early, and so do the stores answering again after an outage.
      // A short storage or database outage then costs no task: without the wait, every attempt of
      // every queued task was used up within a second.
      this.storeWatch.sliceBroke();
      await this.storeWatch.retryWait(delayMs, entry.controller.signal);
      if (entry.abortReason) return this.afterAbort(task, entry.abortReason, outputBlobKey);
      await queue.retry(task.id, this.owner);
    } else {
      log.error({ taskId: task.id, attempt: job.attempts, detail }, 'slicing broke on every attempt');
      await this.transitions.failed(task.id, `slicing failed ${job.attempts} times on an internal error; try again later`);
      await queue.complete(task.id, this.owner);
    }
  }

  private async afterSuccess(
    task: TaskRecord,
    inputName: string,
    outputId: string,
    blobKey: string,
    result: StoredSlice,
    signal: AbortSignal,
  ): Promise<void> {
    const { store, blobs, queue, metrics, log } = this.deps;
    const saving = <T>(write: () => Promise<T>) => this.saving(write, signal);
    // a lease lost meanwhile (this process stalled past it) means another worker may be slicing the
    // task again: leave the result to it rather than race it (the status CAS below is the last guard)
    if (!(await saving(() => queue.heartbeat(task.id, this.owner, this.opts.leaseMs)))) {
      log.warn({ taskId: task.id }, 'lease lost before the result was saved; another worker owns the task now');
      await deleteUnrecordedBlob(blobs, blobKey);
      return;
    }
    const outputName = outputFileName(inputName, result.format === 'FCODE' ? '.fcode' : '.gcode');
    const output: OutputRecord = {
      id: outputId,
      accountId: task.accountId,
      taskId: task.id,
      outputName,
      format: result.format,
      size: result.size,
      blobKey,
      createdAt: Date.now(),
    };
    await saving(() => store.insertOutput(output));
    let finished: Awaited<ReturnType<TaskTransitions['finished']>>;
    try {
      finished = await saving(() => this.transitions.finished(task.id, {
        info: formatInfo(result.stats),
        output: { outputName, outputId, taskId: task.id, fileId: outputId, format: result.format },
        stats: result.stats,
        // the start's checks and the slice read the same files: a warning both found is said once
        warnings: [...new Set([...task.warnings, ...result.warnings])],
      }));
      // a try whose answer was lost after it was written: the task already names this output
      if (!finished) {
        const now = await store.getTask(task.id);
        if (now?.status === 'finished' && now.output?.outputId === outputId) finished = now;
      }
    } catch (err) {
      // the task did not take this output: the next attempt makes its own, so this one goes
      // (kept, the task ended with two outputs, and deleting it left one downloadable)
      await store.deleteOutput(outputId).catch(() => undefined);
      await deleteUnrecordedBlob(blobs, blobKey);
      throw err;
    }
    if (finished) {
      metrics.sliceDuration.observe(result.stats.sliceMs / 1000);
    } else {
      // cancelled or deleted while the worker finished: the output is nobody's
      await store.deleteOutput(outputId);
      await deleteUnrecordedBlob(blobs, blobKey);
    }
    await queue.complete(task.id, this.owner);
  }

  /** A write of a finished slice's result, tried again while the database does not answer (outage-log.ts). */
  private saving<T>(write: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    return retryWhileUnavailable(write, Math.max(this.opts.leaseMs / 2, SAVE_RETRY_LIMIT_MS), SAVE_RETRY_MS, signal);
  }

  private async afterAbort(task: TaskRecord, reason: AbortReason, outputBlobKey: string): Promise<void> {
    const { queue, log } = this.deps;
    // a cancel or a delete that came while the output was stored let the write end: no record will
    // ever name the file, and this attempt's key is its own
    await deleteUnrecordedBlob(this.deps.blobs, outputBlobKey);
    switch (reason) {
      case 'cancelled':
        log.info({ taskId: task.id }, 'slice stopped: task cancelled');
        await queue.complete(task.id, this.owner);
        return;
      case 'timeout':
        await this.transitions.failed(task.id, `slicing took longer than ${Math.round(this.opts.taskTimeoutMs / 1000)} s and was stopped`);
        await queue.complete(task.id, this.owner);
        return;
      case 'shutdown':
        await this.transitions.requeued(task.id);
        await queue.release(task.id, this.owner);
        return;
      case 'lease-lost':
        log.warn({ taskId: task.id }, 'lease lost; another worker owns the task now');
        return;
    }
  }

  private onProgress(entry: RunningSlice, m: ProgressMessage): void {
    // while running, progress stays inside (0, 1): 1 means finished
    const p = Math.min(0.99, Math.max(0.01, Math.round(m.fraction * 1000) / 1000));
    if (p <= entry.progress || entry.abortReason) return;
    entry.progress = p;
    const now = Date.now();
    if (p - entry.persistedProgress < (this.opts.progressStep ?? PERSIST_STEP) && now - entry.persistedAt < PERSIST_MS) return;
    entry.persistedProgress = p;
    entry.persistedAt = now;
    entry.persisting = entry.persisting
      .then(() => this.transitions.progress(entry.taskId, p))
      .catch((err) => this.outage.failed(err, 'saving progress failed', { taskId: entry.taskId }));
  }

  /** Stops the slice of a running task (no-op when this runner does not run it): RunningSlice.stop. */
  abort(taskId: string, reason: AbortReason): void {
    const graceMs = this.opts.stopGraceMs ?? STOP_GRACE_MS;
    this.running.get(taskId)?.stop(reason, graceMs, () =>
      this.deps.log.warn({ taskId, reason, graceMs }, 'the slicing thread did not stop when asked; it is ended'),
    );
  }

  private async heartbeat(): Promise<void> {
    for (const entry of this.running.values()) {
      if (entry.abortReason) continue;
      const held = await this.deps.queue.heartbeat(entry.taskId, this.owner, this.opts.leaseMs);
      if (held) continue;
      // a cancel removes the job: seen here even when its event did not arrive (another process's bus)
      const task = await this.deps.store.getTask(entry.taskId);
      this.abort(entry.taskId, task?.status === 'cancelled' ? 'cancelled' : 'lease-lost');
    }
  }

  /**
   * Stops claiming; running slices get `graceMs` to finish, then they are stopped and put back in
   * the queue (not counted as an attempt), to resume on the next start.
   */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    // no more claiming; the heartbeat and the cancel events stay while running slices finish
    for (const t of this.timers) if (t !== this.heartbeatTimer) clearInterval(t);
    this.timers = this.heartbeatTimer ? [this.heartbeatTimer] : [];
    if (this.pumpLater) clearTimeout(this.pumpLater);
    try {
      await this.finishRunning(graceMs);
    } finally {
      for (const t of this.timers) clearInterval(t);
      this.timers = [];
      this.heartbeatTimer = null;
      this.unsubscribe?.();
      this.unsubscribe = null;
    }
    await this.pool?.destroy();
    this.pool = null;
  }

  /** Waits up to `graceMs` for the running slices, then stops the rest (put back in the queue). */
  private async finishRunning(graceMs: number): Promise<void> {
    const all = Promise.all([...this.running.values()].map((e) => e.done));
    let timer: NodeJS.Timeout | undefined;
    const late = await Promise.race([
      all.then(() => false),
      new Promise<boolean>((r) => (timer = setTimeout(() => r(true), graceMs))),
    ]);
    clearTimeout(timer);
    if (late) {
      for (const id of this.running.keys()) this.abort(id, 'shutdown');
      await Promise.all([...this.running.values()].map((e) => e.done));
    }
  }
}

/** The wait before attempt `attempt` (2, 3, …) of a task whose slice broke: `baseMs`, then 4× longer each time. */
export function retryDelay(baseMs: number, attempt: number): number {
  return attempt < 2 ? 0 : baseMs * 4 ** (attempt - 2);
}
