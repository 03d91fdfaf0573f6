// The embedded runner with a scripted stand-in worker: progress, cancellation, retries after a
// broken worker, user errors, time-outs, graceful shutdown and recovery after a dead process.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, describe, test } from 'node:test';
import pino from 'pino';
import type { ServiceConfig } from '../src/service/config.js';
import { EmbeddedRuntime } from '../src/service/embedded-runtime.js';
import type { TaskRecord } from '../src/service/model.js';
import { parseStartTask } from '../src/service/task-request.js';
import { MetadataStoreUnavailableError } from '../src/service/ports.js';
import { removeDir, tempDir, testConfig, waitFor } from './api-helpers.js';
import type { FakeScript } from './runner-fake-worker.js';

const WORKER = new URL('./runner-fake-worker-entry.cjs', import.meta.url).href;
const silent = pino({ level: 'silent' });
const dirs: string[] = [];
after(() => dirs.forEach(removeDir));

async function open(over: Partial<ServiceConfig> = {}, dir = tempDir('runner'), withoutRunner = false, stopGraceMs?: number): Promise<EmbeddedRuntime> {
  if (!dirs.includes(dir)) dirs.push(dir);
  const rt = EmbeddedRuntime.open(testConfig(dir, { leaseS: 5, ...over }), silent, { workerFile: WORKER, withoutRunner, ...(stopGraceMs ? { stopGraceMs } : {}) });
  await rt.start();
  return rt;
}

async function account(rt: EmbeddedRuntime): Promise<string> {
  const existing = await rt.accounts.listKeys();
  if (existing[0]) return existing[0].accountId;
  return (await rt.accounts.createKey('runner')).account.id;
}

async function startScripted(rt: EmbeddedRuntime, script: Omit<FakeScript, 'runLog'>): Promise<{ task: TaskRecord; runLog: string }> {
  const accountId = await account(rt);
  const runLog = join(rt.config.dataDir, 'runs.log');
  const file = await rt.files.upload(accountId, { type: 'STL', fileName: 'fake.stl' }, Readable.from([JSON.stringify({ ...script, runLog })]));
  const task = await rt.tasks.start(accountId, 'stl', parseStartTask({ files: [{ fileId: file.id }], settings: { printerModel: 'Creality Ender 3' } }));
  return { task, runLog };
}

const runsOf = (runLog: string, taskId: string) => readFileSync(runLog, 'utf8').split('\n').filter((l) => l === taskId).length;
const settled = (rt: EmbeddedRuntime, id: string) =>
  waitFor(`task ${id} to end`, async () => {
    const t = await rt.stores.metadata.getTask(id);
    return t && ['finished', 'failed', 'cancelled'].includes(t.status) ? t : undefined;
  });

/** The first `times` writes of a task's finish fail with `error()`; gives the count of finish writes tried. */
function refuseFinishing(rt: EmbeddedRuntime, times: number, error: () => Error): () => number {
  const store = rt.stores.metadata;
  const update = store.updateTask.bind(store);
  let tried = 0;
  store.updateTask = (async (id: string, from: unknown, patch: { status?: string }) => {
    if (patch.status === 'finished' && tried++ < times) throw error();
    return update(id, from as never, patch as never);
  }) as typeof store.updateTask;
  return () => tried;
}

describe('embedded runner', () => {
  test('a task goes queued → started → running (progress in (0,1), rising) → finished with info and output', async () => {
    const rt = await open();
    const seen: Array<{ status: string; progress: number }> = [];
    rt.events.subscribeAll((t) => seen.push({ status: t.status, progress: t.progress }));
    const { task } = await startScripted(rt, { steps: 20, stepMs: 30 });
    const done = await settled(rt, task.id);
    await rt.close();
    assert.equal(done.status, 'finished');
    assert.deepEqual(done.info, { time: '1:02:05', length: '1.00meter', weight: '2.50grams' });
    assert.equal(done.output?.outputName, 'fake.gcode');
    assert.equal(done.output?.fileId, done.output?.outputId);
    assert.ok(done.startDate && done.endDate && done.endDate >= done.startDate);
    assert.deepEqual(done.warnings, ['fake warning']);
    assert.deepEqual(seen[0], { status: 'queued', progress: 0 });
    assert.deepEqual(seen[1], { status: 'started', progress: 0 });
    const running = seen.filter((e) => e.status === 'running');
    assert.ok(running.length >= 5, `progress was saved ${running.length} times`);
    for (let i = 0; i < running.length; i++) {
      assert.ok(running[i]!.progress > 0 && running[i]!.progress < 1);
      if (i > 0) assert.ok(running[i]!.progress > running[i - 1]!.progress);
    }
    assert.deepEqual(seen.at(-1), { status: 'finished', progress: 1 });
  });

  test('cancelling a running task stops its worker at once; the next task starts', async () => {
    const rt = await open();
    const { task } = await startScripted(rt, { steps: 1000, stepMs: 50 });
    const next = await startScripted(rt, { steps: 2, stepMs: 10 });
    await waitFor('running', async () => (await rt.stores.metadata.getTask(task.id))?.status === 'running');
    const t0 = Date.now();
    const cancelled = await rt.tasks.cancel(await account(rt), task.id);
    assert.equal(cancelled.status, 'cancelled');
    await waitFor('worker freed', async () => rt.runner!.activeCount === 0 || (await rt.stores.metadata.getTask(next.task.id))?.status !== 'queued');
    const freedMs = Date.now() - t0;
    assert.ok(freedMs < 1000, `worker freed after ${freedMs} ms`);
    assert.equal((await settled(rt, next.task.id)).status, 'finished');
    const after = await rt.stores.metadata.getTask(task.id);
    assert.equal(after?.status, 'cancelled');
    assert.equal(after?.output, null);
    await rt.close();
  });

  test('a cancelled slice stops when asked and its thread, still warm, takes the next task', async () => {
    const rt = await open();
    const threadLog = join(rt.config.dataDir, 'threads.log');
    const { task } = await startScripted(rt, { steps: 1000, stepMs: 50, threadLog });
    await waitFor('running', async () => (await rt.stores.metadata.getTask(task.id))?.status === 'running');
    await rt.tasks.cancel(await account(rt), task.id);
    const next = await startScripted(rt, { steps: 2, stepMs: 10, threadLog });
    assert.equal((await settled(rt, next.task.id)).status, 'finished');
    const threads = readFileSync(threadLog, 'utf8').trim().split('\n');
    assert.equal(threads.length, 2);
    assert.equal(threads[1], threads[0], 'the same thread sliced the next task');
    await rt.close();
  });

  test('a slicing thread that does not stop when asked is ended after the grace period', async () => {
    const rt = await open({}, undefined, false, 300);
    const threadLog = join(rt.config.dataDir, 'threads.log');
    const { task } = await startScripted(rt, { steps: 1000, stepMs: 50, threadLog, ignoreStop: true });
    await waitFor('running', async () => (await rt.stores.metadata.getTask(task.id))?.status === 'running');
    const t0 = Date.now();
    await rt.tasks.cancel(await account(rt), task.id);
    await waitFor('the thread to be ended', async () => rt.runner!.activeCount === 0, 5000);
    assert.ok(Date.now() - t0 >= 250, 'it had its grace period');
    const next = await startScripted(rt, { steps: 2, stepMs: 10, threadLog });
    assert.equal((await settled(rt, next.task.id)).status, 'finished');
    const threads = readFileSync(threadLog, 'utf8').trim().split('\n');
    assert.notEqual(threads[1], threads[0], 'a new thread sliced the next task');
    assert.equal((await rt.stores.metadata.getTask(task.id))?.status, 'cancelled');
    await rt.close();
  });

  test('at a shutdown a slice past the grace period is ended at once, not asked first', async () => {
    // the pool's threads end right after anyway: asking would only hold the stop up by stopGraceMs
    const rt = await open({}, undefined, false, 20_000);
    const { task } = await startScripted(rt, { steps: 1000, stepMs: 50, ignoreStop: true });
    await waitFor('running', async () => (await rt.stores.metadata.getTask(task.id))?.status === 'running');
    const t0 = Date.now();
    await rt.close(0);
    assert.ok(Date.now() - t0 < 10_000, `stopped after ${Date.now() - t0} ms`);
  });

  test('a slicing thread waiting for its next task still runs its timers (it waits on its event loop, where a stop is acted on)', async () => {
    // blocked in Atomics.wait instead (piscina's default), a thread that ran on after it was told to
    // end never ended, and kept the process alive; its timers (the layer threads' idle end) never ran
    const rt = await open();
    const mark = join(rt.config.dataDir, 'later.mark');
    const { task } = await startScripted(rt, { steps: 1, laterMark: mark });
    assert.equal((await settled(rt, task.id)).status, 'finished');
    await waitFor('the idle thread to run its timer', async () => existsSync(mark), 3000);
    await rt.close();
  });

  test('a worker that dies is replaced and the task runs again', async () => {
    const rt = await open();
    const { task, runLog } = await startScripted(rt, { crashRuns: 1, crash: 'exit' });
    const done = await settled(rt, task.id);
    await rt.close();
    assert.equal(done.status, 'finished');
    assert.equal(runsOf(runLog, task.id), 2);
  });

  test('after three broken attempts the task fails with SF000; a user error fails at once', async () => {
    const rt = await open({ maxAttempts: 3 });
    const broken = await startScripted(rt, { crashRuns: 10, crash: 'throw' });
    const bad = await startScripted(rt, { userError: "model 'x' lies outside the build volume" });
    const b = await settled(rt, broken.task.id);
    const u = await settled(rt, bad.task.id);
    await rt.close();
    assert.equal(b.status, 'failed');
    assert.equal(b.error?.errorCode, 'SF000');
    assert.match(b.error!.message, /3 times/);
    assert.equal(runsOf(broken.runLog, broken.task.id), 3);
    assert.deepEqual(u.error, { errorCode: 'SF000', message: "model 'x' lies outside the build volume" });
    assert.equal(runsOf(bad.runLog, bad.task.id), 1);
  });

  test('a broken slice is tried again after retryDelayS, then 4× that; a cancel ends the wait at once', async () => {
    // a storage outage of a few seconds used every attempt of every queued task within a second
    const rt = await open({ maxAttempts: 3, retryDelayS: 0.3 });
    const started = performance.now();
    const broken = await startScripted(rt, { crashRuns: 10, crash: 'throw' });
    const b = await settled(rt, broken.task.id);
    const elapsed = (performance.now() - started) / 1000;
    assert.equal(b.status, 'failed');
    assert.equal(runsOf(broken.runLog, broken.task.id), 3);
    assert.ok(elapsed >= 0.3 + 1.2, `3 attempts took ${elapsed.toFixed(2)} s, less than the waits`);
    await rt.close();

    const slow = await open({ maxAttempts: 3, retryDelayS: 60 });
    const waiting = await startScripted(slow, { crashRuns: 10, crash: 'throw' });
    await waitFor('the first attempt', async () => (existsSync(waiting.runLog) && runsOf(waiting.runLog, waiting.task.id) === 1 ? true : undefined));
    const cancelAt = performance.now();
    await slow.tasks.cancel(await account(slow), waiting.task.id);
    const c = await settled(slow, waiting.task.id);
    assert.equal(c.status, 'cancelled');
    // the worker is free again long before the 60 s wait: a next task runs
    const next = await startScripted(slow, { steps: 2 });
    assert.equal((await settled(slow, next.task.id)).status, 'finished');
    assert.ok(performance.now() - cancelAt < 10_000);
    assert.equal(runsOf(waiting.runLog, waiting.task.id), 1);
    await slow.close();
  });

  test('an output the runner cannot store is tried again like a broken slice, then stored once', async () => {
    const rt = await open({ maxAttempts: 3, retryDelayS: 0.2 });
    const blobs = rt.stores.blobs;
    const realPut = blobs.put.bind(blobs);
    let refused = 0;
    blobs.put = async (key, source, opts) => {
      if (key.startsWith('outputs/') && refused === 0) {
        refused++;
        throw new Error('the disk is full');
      }
      return realPut(key, source, opts);
    };
    const { task, runLog } = await startScripted(rt, { steps: 2 });
    const done = await settled(rt, task.id);
    assert.equal(done.status, 'finished', JSON.stringify(done.error));
    assert.equal(refused, 1);
    assert.equal(runsOf(runLog, task.id), 2, 'sliced once more after the store refused the output, not more');
    assert.equal(readdirSync(join(rt.config.dataDir, 'blobs', 'outputs')).length, 1, 'one output stored');
    await rt.close();
  });

  test('after a broken slice, nothing is claimed while the stores do not answer; the waiting task starts as soon as they do', async () => {
    // the outage is the blob store's readiness probe failing (a stand-in for S3 down); the slice breaks once
    const rt = await open({ workers: 2, maxAttempts: 3, retryDelayS: 30 });
    const blobs = rt.stores.blobs;
    const realPing = blobs.ping.bind(blobs);
    let down = true;
    blobs.ping = async () => {
      if (down) throw new Error('the store is down');
      return realPing();
    };
    const broken = await startScripted(rt, { crashRuns: 1, crash: 'throw' });
    await waitFor('the first attempt', async () => (existsSync(broken.runLog) && runsOf(broken.runLog, broken.task.id) === 1 ? true : undefined));
    // the second worker is free, but a task queued now is not claimed while the stores do not answer
    const queued = await startScripted(rt, { steps: 2 });
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal((await rt.stores.metadata.getTask(queued.task.id))?.status, 'queued', 'not claimed during the outage');
    assert.equal(runsOf(broken.runLog, broken.task.id), 1, 'not tried again during the outage');
    const upAt = performance.now();
    down = false;
    assert.equal((await settled(rt, broken.task.id)).status, 'finished');
    assert.equal((await settled(rt, queued.task.id)).status, 'finished');
    const afterMs = performance.now() - upAt;
    assert.ok(afterMs < 10_000, `both finished ${afterMs.toFixed(0)} ms after the stores answered (the retry wait is 30 s)`);
    assert.equal(runsOf(broken.runLog, broken.task.id), 2);
    await rt.close();
  });

  test('a worker out of memory fails the task at once with a clear message; the pool recovers', async () => {
    const rt = await open({ workerMaxMemoryMb: 48 });
    const { task, runLog } = await startScripted(rt, { hog: true });
    const next = await startScripted(rt, { steps: 2 });
    const done = await settled(rt, task.id);
    const after = await settled(rt, next.task.id);
    await rt.close();
    assert.equal(done.status, 'failed');
    assert.match(done.error!.message, /ran out of memory \(48 MiB\)/);
    assert.equal(runsOf(runLog, task.id), 1);
    assert.equal(after.status, 'finished');
  });

  test('a slice over the time limit is stopped and fails', async () => {
    const rt = await open({ taskTimeoutS: 1 });
    const { task } = await startScripted(rt, { steps: 1000, stepMs: 20 });
    const done = await settled(rt, task.id);
    await rt.close();
    assert.equal(done.status, 'failed');
    assert.match(done.error!.message, /longer than 1 s/);
  });

  test('a graceful stop puts the running task back in the queue; the next start finishes it', async () => {
    const dir = tempDir('runner-stop');
    const rt = await open({}, dir);
    const { task, runLog } = await startScripted(rt, { steps: 40, stepMs: 50 });
    await waitFor('running', async () => (await rt.stores.metadata.getTask(task.id))?.status === 'running');
    await rt.close(0);
    const stopped = EmbeddedRuntime.open(testConfig(dir), silent, { withoutRunner: true });
    assert.equal((await stopped.stores.metadata.getTask(task.id))?.status, 'queued');
    assert.equal(await stopped.stores.queue.depth(), 1);
    await stopped.close();
    const rt2 = await open({}, dir);
    const done = await settled(rt2, task.id);
    await rt2.close();
    assert.equal(done.status, 'finished');
    assert.equal(runsOf(runLog, task.id), 2);
  });

  test('during a stop\'s grace period the running slice keeps its lease: no other runner could start it again', async () => {
    // a 1 s lease and a 3 s slice: without the heartbeat through the grace period the lease ran out,
    // and in distributed mode another worker sliced the task a second time
    const rt = await open({ leaseS: 1 });
    const { task, runLog } = await startScripted(rt, { steps: 30, stepMs: 100 });
    await waitFor('running', async () => (await rt.stores.metadata.getTask(task.id))?.status === 'running');
    const closing = rt.close(10_000);
    await new Promise((r) => setTimeout(r, 2000));
    // what another worker's recovery would find: nothing to take
    const recovered = await rt.stores.queue.recoverExpired(Date.now(), 3);
    assert.deepEqual(recovered.requeued, [], 'the lease ran out during the grace period');
    await closing;
    const done = EmbeddedRuntime.open(testConfig(rt.config.dataDir), silent, { withoutRunner: true });
    assert.equal((await done.stores.metadata.getTask(task.id))?.status, 'finished');
    await done.close();
    assert.equal(runsOf(runLog, task.id), 1, 'sliced once');
  });

  test('a task cancelled as its slice ends leaves no output and no temporary file behind', async () => {
    const rt = await open();
    // the fake answers 5 s after its output is made: the cancel comes between the slice and the store
    const { task } = await startScripted(rt, { steps: 2, stepMs: 10, afterOutputMs: 5000 });
    const blobs = join(rt.config.dataDir, 'blobs');
    const entries = (dir: string) => (existsSync(join(blobs, dir)) ? readdirSync(join(blobs, dir)) : []);
    await waitFor('the slice to reach its end', async () => ((await rt.stores.metadata.getTask(task.id))?.progress ?? 0) >= 0.99);
    await rt.tasks.cancel(task.accountId, task.id);
    const done = await settled(rt, task.id);
    assert.equal(done.status, 'cancelled');
    await waitFor('the runner to let the task go', async () => rt.runner!.activeCount === 0);
    await rt.close();
    assert.deepEqual(entries('outputs'), []);
    assert.deepEqual(entries('tmp'), []);
  });

  test('a task cancelled while the runner stores its output: the write ends, then the output goes', async () => {
    const rt = await open();
    const blobs = rt.stores.blobs;
    const realPut = blobs.put.bind(blobs);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let storing = false;
    blobs.put = async (key, source, opts) => {
      if (key.startsWith('outputs/')) {
        storing = true;
        await held;
      }
      return realPut(key, source, opts);
    };
    const { task, runLog } = await startScripted(rt, { steps: 2, stepMs: 10 });
    await waitFor('the runner to store the output', async () => storing);
    await rt.tasks.cancel(task.accountId, task.id);
    release();
    const done = await settled(rt, task.id);
    assert.equal(done.status, 'cancelled');
    assert.equal(done.output, null);
    await waitFor('the runner to let the task go', async () => rt.runner!.activeCount === 0);
    await rt.close();
    const dir = (d: string) => (existsSync(join(rt.config.dataDir, 'blobs', d)) ? readdirSync(join(rt.config.dataDir, 'blobs', d)) : []);
    assert.deepEqual(dir('outputs'), [], 'the stored output deleted');
    assert.deepEqual(dir('tmp'), []);
    assert.equal(runsOf(runLog, task.id), 1);
  });

  test('a task left queued without a job (its job lost after the record was written) is queued again while the runner runs', async () => {
    const dir = tempDir('runner-jobless');
    dirs.push(dir);
    const rt = EmbeddedRuntime.open(testConfig(dir, { leaseS: 5 }), silent, { workerFile: WORKER, adoptEveryMs: 200 });
    await rt.start();
    try {
      const { task } = await startScripted(rt, { steps: 2 });
      await settled(rt, task.id);
      // a second task whose job is gone: what a database lost between the two writes leaves
      const accountId = await account(rt);
      const orphan: TaskRecord = { ...task, id: '00000000-0000-4000-8000-00000000f00d', accountId, status: 'queued', progress: 0, startDate: null, endDate: null, output: null, error: null, info: null, warnings: [], stats: null };
      await rt.stores.metadata.insertTask(orphan);
      assert.equal(await rt.stores.queue.has(orphan.id), false);
      const done = await settled(rt, orphan.id);
      assert.equal(done.status, 'finished');
    } finally {
      await rt.close();
    }
  });

  test('a result whose task could not be marked finished is taken back: the next attempt leaves the task one output', async () => {
    const rt = await open();
    try {
      const store = rt.stores.metadata;
      const refused = refuseFinishing(rt, 1, () => new Error('the database failed: Connection terminated'));
      const { task, runLog } = await startScripted(rt, { steps: 1 });
      const done = await settled(rt, task.id);
      assert.equal(done.status, 'finished');
      assert.equal(refused(), 2, 'the first finish was refused, the second taken');
      assert.equal(runsOf(runLog, task.id), 2);
      const output = await store.getOutputOfTask(task.id);
      assert.equal(output?.id, done.output?.outputId, 'the output kept is the one the task names');
      await store.deleteOutput(output!.id);
      assert.equal(await store.getOutputOfTask(task.id), null, 'and it was the only one');
    } finally {
      await rt.close();
    }
  });

  test('a result finished while the database does not answer for a moment is saved once it does, not sliced again', async () => {
    const rt = await open();
    try {
      const store = rt.stores.metadata;
      const refused = refuseFinishing(rt, 2, () => new MetadataStoreUnavailableError(new Error('connect ECONNREFUSED')));
      const { task, runLog } = await startScripted(rt, { steps: 1 });
      const done = await settled(rt, task.id);
      assert.equal(done.status, 'finished');
      assert.equal(refused(), 3, 'two finishes refused, the third taken');
      assert.equal(runsOf(runLog, task.id), 1, 'sliced once');
      assert.equal((await store.getOutputOfTask(task.id))?.id, done.output?.outputId);
    } finally {
      await rt.close();
    }
  });

  test('a result finished in an outage longer than half a lease is saved once the database answers', async () => {
    // a 2 s lease: the save was tried for 1 s, then the slice was thrown away and the task, left
    // 'running', was sliced again once its lease ran out
    const rt = await open({ leaseS: 2 });
    try {
      const until = Date.now() + 4000;
      const store = rt.stores.metadata;
      const update = store.updateTask.bind(store);
      store.updateTask = (async (id: string, from: unknown, patch: { status?: string }) => {
        if (patch.status === 'finished' && Date.now() < until) throw new MetadataStoreUnavailableError(new Error('connect ECONNREFUSED'));
        return update(id, from as never, patch as never);
      }) as typeof store.updateTask;
      const { task, runLog } = await startScripted(rt, { steps: 1 });
      const done = await settled(rt, task.id);
      assert.equal(done.status, 'finished');
      assert.ok(Date.now() >= until, 'finished after the outage');
      assert.equal(runsOf(runLog, task.id), 1, 'sliced once');
    } finally {
      await rt.close();
    }
  });

  test('work a dead process held is resumed at start, unless it used up its attempts', async () => {
    const dir = tempDir('runner-dead');
    const before = await open({}, dir, true);
    const a = await startScripted(before, { steps: 2 });
    const b = await startScripted(before, { steps: 2 });
    const q = before.stores.queue;
    // the dead process claimed a once, and b for the third time
    assert.equal((await q.claim('dead', 600_000))?.taskId, a.task.id);
    await before.stores.metadata.updateTask(a.task.id, ['queued'], { status: 'running', progress: 0.5 });
    for (let i = 1; i <= 3; i++) {
      const job = await q.claim('dead', 600_000);
      assert.deepEqual(job, { taskId: b.task.id, attempts: i });
      if (i < 3) await q.retry(b.task.id, 'dead');
    }
    await before.close();
    const rt = await open({ maxAttempts: 3 }, dir);
    const doneA = await settled(rt, a.task.id);
    const doneB = await settled(rt, b.task.id);
    await rt.close();
    assert.equal(doneA.status, 'finished');
    assert.equal(doneB.status, 'failed');
    assert.match(doneB.error!.message, /interrupted 3 times/);
  });
});
