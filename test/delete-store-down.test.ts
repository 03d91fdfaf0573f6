// A DELETE whose record is gone but whose blob the file store could not delete (S3 down) succeeds:
// the blob is an orphan the retention sweeper deletes later. Before, it answered 500 after the record
// was deleted, and the retry answered 404. A task with two outputs (an attempt that failed after
// saving its own) loses both.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, test } from 'node:test';
import pino from 'pino';
import { EmbeddedRuntime } from '../src/service/embedded-runtime.js';
import type { OutputRecord } from '../src/service/model.js';
import { BlobStoreUnavailableError } from '../src/service/ports.js';
import { parseStartTask } from '../src/service/task-request.js';
import { removeDir, tempDir, testConfig } from './api-helpers.js';

const dir = tempDir('delete-down');
after(() => removeDir(dir));

test('file and task deletes succeed while the file store cannot delete; every output of the task goes', async () => {
  const rt = EmbeddedRuntime.open(testConfig(dir), pino({ level: 'silent' }), { withoutRunner: true });
  await rt.start();
  try {
    const accountId = (await rt.accounts.createKey('d')).account.id;
    const file = await rt.files.upload(accountId, { type: 'STL', fileName: 'part.stl' }, Readable.from(['solid x\nendsolid x\n']));
    const task = await rt.tasks.start(accountId, 'stl', parseStartTask({ files: [{ fileId: file.id }], settings: { printerModel: 'Creality Ender 3' } }));
    const output = (id: string, createdAt: number): OutputRecord => ({
      id,
      accountId,
      taskId: task.id,
      outputName: 'part.gcode',
      format: 'GCODE',
      size: 1,
      blobKey: `outputs/${id}`,
      createdAt,
    });
    await rt.stores.metadata.insertOutput(output('0b3f2c8e-3d0a-4c55-9a57-000000000001', 1));
    await rt.stores.metadata.insertOutput(output('0b3f2c8e-3d0a-4c55-9a57-000000000002', 2));
    const blobs = rt.stores.blobs;
    const tried: string[] = [];
    blobs.delete = async (key: string) => {
      tried.push(key);
      throw new BlobStoreUnavailableError(new Error('connect ECONNREFUSED'));
    };
    await rt.tasks.delete(accountId, task.id);
    assert.equal(await rt.stores.metadata.getTask(task.id), null);
    assert.equal(await rt.stores.metadata.getOutputOfTask(task.id), null, 'no output of the task is left');
    await rt.files.delete(accountId, file.id);
    assert.equal(await rt.stores.metadata.getFile(accountId, file.id), null);
    assert.deepEqual(tried.sort(), ['outputs/0b3f2c8e-3d0a-4c55-9a57-000000000001', 'outputs/0b3f2c8e-3d0a-4c55-9a57-000000000002', file.blobKey].sort());
  } finally {
    await rt.close();
  }
});
