// A cancel whose event never reaches the runner (in the distributed mode events come from another
// process's bus, and a notification can be lost with its connection) still stops the slice: the
// cancel removed the job, so the next heartbeat fails, and the runner reads why.
import assert from 'node:assert/strict';
import { Readable, Writable } from 'node:stream';
import { after, test } from 'node:test';
import pino from 'pino';
import { EmbeddedRunner } from '../src/runner/embedded-runner.js';
import { AccountService } from '../src/service/account-service.js';
import { FileService } from '../src/service/file-service.js';
import { Metrics } from '../src/service/metrics.js';
import type { TaskRecord } from '../src/service/model.js';
import type { TaskEventBus } from '../src/service/ports.js';
import { LocalTaskEventBus } from '../src/service/task-event-bus.js';
import { parseStartTask } from '../src/service/task-request.js';
import { TaskService } from '../src/service/task-service.js';
import { openEmbeddedStores } from '../src/store/embedded-stores.js';
import { removeDir, tempDir, waitFor } from './api-helpers.js';

const WORKER = new URL('./runner-fake-worker-entry.cjs', import.meta.url).href;
const dir = tempDir('lost-cancel');
after(() => removeDir(dir));

/** a bus on which nothing ever arrives */
const deafBus: TaskEventBus = {
  publish: () => undefined,
  subscribe: () => () => undefined,
  subscribeAll: () => () => undefined,
};

test('a cancel the runner never hears of stops the slice at the next heartbeat, as a cancel', async () => {
  const stores = openEmbeddedStores(dir);
  const lines: Array<{ msg?: string; taskId?: string }> = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split('\n')) if (l) lines.push(JSON.parse(l) as { msg?: string });
      done();
    },
  });
  const log = pino({ level: 'info' }, sink);
  const metrics = new Metrics();
  const runner = new EmbeddedRunner(
    { store: stores.metadata, queue: stores.queue, blobs: stores.blobs, blobConfig: stores.blobConfig, events: deafBus, metrics, log },
    { workers: 1, leaseMs: 900, maxAttempts: 3, taskTimeoutMs: 60_000, workerMaxMemoryMb: 0, workerFile: WORKER },
  );
  // the API side publishes on its own bus, which the runner does not listen to
  const tasks = new TaskService(stores.metadata, stores.blobs, stores.queue, new LocalTaskEventBus(), metrics);
  const files = new FileService(stores.metadata, stores.blobs, 1 << 20, metrics);
  const { account } = await new AccountService(stores.metadata).createKey('t');
  await runner.start();
  try {
    // 200 steps of 50 ms: ten seconds of "slicing" unless stopped
    const script = { steps: 200, stepMs: 50, runLog: `${dir}/runs.log` };
    const file = await files.upload(account.id, { type: 'STL', fileName: 'fake.stl' }, Readable.from([JSON.stringify(script)]));
    const task = await tasks.start(account.id, 'stl', parseStartTask({ files: [{ fileId: file.id }], settings: { printerModel: 'Creality Ender 3' } }));
    runner.notify();
    await waitFor('the slice to run', async () => (await stores.metadata.getTask(task.id))?.status === 'running');
    const cancelled: TaskRecord = await tasks.cancel(account.id, task.id);
    assert.equal(cancelled.status, 'cancelled');
    await waitFor('the runner to stop the slice', async () => runner.activeCount === 0, 8_000);
    assert.ok(lines.some((l) => l.msg === 'slice stopped: task cancelled' && l.taskId === task.id), 'stopped as a cancel');
    assert.ok(!lines.some((l) => l.msg?.startsWith('lease lost')), 'not mistaken for a lost lease');
    assert.equal((await stores.metadata.getTask(task.id))?.status, 'cancelled');
    assert.equal(await stores.metadata.getOutputOfTask(task.id), null);
  } finally {
    await runner.stop(0);
    await stores.close();
  }
});
