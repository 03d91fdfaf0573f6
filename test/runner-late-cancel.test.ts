// A slice cancelled at its very end, as its printer file is being stored, with the real slicing
// worker: nothing is left in blobs/tmp and no descriptor stays open. When the worker thread wrote the
// file itself, the cancel ended the thread in the middle of the write, and its .part file stayed until
// the process ended (the review saw its descriptor stay open too).
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, readlinkSync, watch } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, test } from 'node:test';
import pino from 'pino';
import { EmbeddedRuntime } from '../src/service/embedded-runtime.js';
import { parseStartTask } from '../src/service/task-request.js';
import { CUBE_STL, MEDIUM_OVERRIDES, removeDir, tempDir, testConfig, waitFor } from './api-helpers.js';

const dir = tempDir('late-cancel');
after(() => removeDir(dir));

/** This process's descriptors open on files under `root` (read from /proc: none where it is missing). */
function descriptorsUnder(root: string): string[] {
  if (!existsSync('/proc/self/fd')) return [];
  const found: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (target.startsWith(root)) found.push(target);
    } catch {
      /* closed meanwhile (the one readdir used) */
    }
  }
  return found;
}

test('a slice cancelled while its printer file is being stored leaves no file in blobs/tmp and no descriptor open', async () => {
  const rt = EmbeddedRuntime.open(testConfig(dir, { warmUp: false }), pino({ level: 'silent' }));
  await rt.start();
  try {
    const { account } = await rt.accounts.createKey('late-cancel');
    const file = await rt.files.upload(account.id, { type: 'STL', fileName: 'cube.stl' }, Readable.from([readFileSync(CUBE_STL)]));
    const blobs = join(dir, 'blobs');
    const tmp = join(blobs, 'tmp');
    assert.deepEqual(readdirSync(tmp), [], 'the upload is stored');
    // the cancel comes the moment a temporary file appears: the printer file being written (about
    // 23 MB of G-code at these settings, whose write and fsync take a while)
    let watcher: ReturnType<typeof watch> | undefined;
    const writing = new Promise<string>((resolve) => {
      watcher = watch(tmp, (_event, name) => {
        if (name?.endsWith('.part')) resolve(name);
      });
    });
    const settings = { printerModel: 'Creality Ender 3', overrides: MEDIUM_OVERRIDES };
    const task = await rt.tasks.start(account.id, 'stl', parseStartTask({ files: [{ fileId: file.id }], settings }));
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('no temporary file appeared within 60 s')), 60_000);
    });
    try {
      await Promise.race([writing, late]);
    } finally {
      clearTimeout(timer);
      watcher?.close();
    }
    const cancelled = await rt.tasks.cancel(account.id, task.id);
    assert.equal(cancelled.status, 'cancelled');
    await waitFor('the runner to let the task go', async () => rt.runner!.activeCount === 0);
    const after = await rt.stores.metadata.getTask(task.id);
    assert.equal(after?.status, 'cancelled');
    assert.equal(after?.output, null);
    // the runner let the task go after whatever wrote the file ended (a write the cancel let finish
    // was renamed into outputs/ and deleted again)
    assert.deepEqual(readdirSync(tmp), [], 'no temporary file left in blobs/tmp');
    assert.deepEqual(existsSync(join(blobs, 'outputs')) ? readdirSync(join(blobs, 'outputs')) : [], [], 'no output stored');
    assert.deepEqual(descriptorsUnder(blobs), [], 'no descriptor open on a stored or temporary file');
  } finally {
    await rt.close();
  }
});
