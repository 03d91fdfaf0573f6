// Retention: files and outputs older than the configured age are deleted (blob and record), task
// records stay, and a file a queued task still needs is kept.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import pino from 'pino';
import { EmbeddedRuntime } from '../src/service/embedded-runtime.js';
import { parseStartTask } from '../src/service/task-request.js';
import { removeDir, tempDir, testConfig } from './api-helpers.js';

test('the sweeper deletes expired files and outputs and keeps task records', async () => {
  const dir = tempDir('retention');
  const rt = EmbeddedRuntime.open(testConfig(dir, { retentionDays: 7 }), pino({ level: 'silent' }), { withoutRunner: true });
  try {
    await rt.start();
    const { account } = await rt.accounts.createKey('r');
    const up = (name: string) => rt.files.upload(account.id, { type: 'STL', fileName: name }, Readable.from(['solid x\nendsolid x\n']));
    const done = await up('done.stl');
    const waiting = await up('waiting.stl');
    const fresh = await up('fresh.stl');
    const start = (fileId: string) =>
      rt.tasks.start(account.id, 'stl', parseStartTask({ files: [{ fileId }], settings: { printerModel: 'Creality Ender 3' } }));
    const finishedTask = await start(done.id);
    const queuedTask = await start(waiting.id);
    // the first task finished long ago with an output
    const store = rt.stores.metadata;
    await store.updateTask(finishedTask.id, ['queued'], { status: 'finished', progress: 1 });
    await rt.stores.blobs.put('outputs/o1', new TextEncoder().encode(';gcode'));
    await store.insertOutput({ id: 'o1', accountId: account.id, taskId: finishedTask.id, outputName: 'done.gcode', format: 'GCODE', size: 6, blobKey: 'outputs/o1', createdAt: 0 });

    const now = Date.now();
    // nothing is old enough yet (the output has createdAt 0, so it goes)
    let r = await rt.sweeper.sweep(now);
    assert.deepEqual(r, { files: 0, outputs: 1, tokens: 0 });
    assert.equal(await rt.stores.blobs.exists('outputs/o1'), false);
    await assert.rejects(rt.outputs.open(account.id, 'o1'), /no output/);

    // eight days later: the finished task's file goes, the queued task's file stays
    r = await rt.sweeper.sweep(now + 8 * 86_400_000);
    assert.equal(r.files, 2);
    await assert.rejects(rt.files.get(account.id, done.id), /no file/);
    await assert.rejects(rt.files.get(account.id, fresh.id), /no file/);
    assert.equal((await rt.files.get(account.id, waiting.id)).id, waiting.id);
    assert.equal(await rt.stores.blobs.exists(done.blobKey), false);
    assert.equal(await rt.stores.blobs.exists(waiting.blobKey), true);
    assert.equal((await rt.tasks.get(account.id, finishedTask.id)).status, 'finished', 'task records stay');
    assert.equal((await rt.tasks.get(account.id, queuedTask.id)).status, 'queued');
  } finally {
    await rt.close();
    removeDir(dir);
  }
});
