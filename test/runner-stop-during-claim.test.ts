// A stop that begins while the runner waits for a claim (a network round trip in the distributed
// mode) gives the claimed job back untouched: the stop had already counted the running slices, so a
// slice launched after it would be cut off by the pool's end and its attempt lost.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { Readable } from 'node:stream';
import { after, test } from 'node:test';
import pino from 'pino';
import { EmbeddedRunner } from '../src/runner/embedded-runner.js';
import { AccountService } from '../src/service/account-service.js';
import { FileService } from '../src/service/file-service.js';
import { Metrics } from '../src/service/metrics.js';
import type { JobQueue } from '../src/service/ports.js';
import { LocalTaskEventBus } from '../src/service/task-event-bus.js';
import { parseStartTask } from '../src/service/task-request.js';
import { TaskService } from '../src/service/task-service.js';
import { openEmbeddedStores } from '../src/store/embedded-stores.js';
import { removeDir, tempDir, waitFor } from './api-helpers.js';

const WORKER = new URL('./runner-fake-worker-entry.cjs', import.meta.url).href;
const dir = tempDir('stop-claim');
after(() => removeDir(dir));

test('a stop that begins during a claim gives the claimed job back without starting it or counting the attempt', async () => {
  const stores = openEmbeddedStores(dir);
  const metrics = new Metrics();
  const bus = new LocalTaskEventBus();
  const tasks = new TaskService(stores.metadata, stores.blobs, stores.queue, bus, metrics);
  const files = new FileService(stores.metadata, stores.blobs, 1 << 20, metrics);
  const { account } = await new AccountService(stores.metadata).createKey('t');
  const runLog = `${dir}/runs.log`;
  const file = await files.upload(account.id, { type: 'STL', fileName: 'fake.stl' }, Readable.from([JSON.stringify({ steps: 2, stepMs: 10, runLog })]));
  const task = await tasks.start(account.id, 'stl', parseStartTask({ files: [{ fileId: file.id }], settings: { printerModel: 'Creality Ender 3' } }));

  // the queue's claim answers only when the test lets it
  let claimsEntered = 0;
  let letClaimAnswer: () => void = () => undefined;
  const held = new Promise<void>((r) => (letClaimAnswer = r));
  const queue: JobQueue = Object.create(stores.queue) as JobQueue;
  queue.claim = async (owner, leaseMs) => {
    claimsEntered++;
    await held;
    return stores.queue.claim(owner, leaseMs);
  };
  const runner = new EmbeddedRunner(
    { store: stores.metadata, queue, blobs: stores.blobs, blobConfig: stores.blobConfig, events: bus, metrics, log: pino({ level: 'silent' }) },
    { workers: 1, leaseMs: 5_000, maxAttempts: 3, taskTimeoutMs: 60_000, workerMaxMemoryMb: 0, workerFile: WORKER },
  );
  try {
    await runner.start();
    await waitFor('the runner to ask the queue for a job', async () => claimsEntered > 0);
    const stopped = runner.stop(5_000);
    letClaimAnswer();
    await stopped;
    assert.equal(runner.activeCount, 0);
    assert.equal((await stores.metadata.getTask(task.id))?.status, 'queued', 'the task never started');
    assert.ok(!existsSync(runLog), 'no slice ran');
    // the job is back in the queue, its attempt not counted
    const again = await stores.queue.claim('next-owner', 5_000);
    assert.equal(again?.taskId, task.id);
    assert.equal(again?.attempts, 1);
  } finally {
    await runner.stop(0);
    await stores.close();
  }
});
