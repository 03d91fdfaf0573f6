// The embedded server restarted on a disk with no byte free: it starts on the room it reserved
// (disk-reserve.ts), answers reads, says it is not ready, and makes its reserve again once there is
// room. A real full disk: a small tmpfs, where this process may mount one (root); elsewhere skipped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, copyFileSync, existsSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { EmbeddedRuntime } from '../src/service/embedded-runtime.js';
import { isDiskFull, reservePath } from '../src/store/disk-reserve.js';
import { testConfig } from './api-helpers.js';

const silent = pino({ level: 'silent' });
const WORKER = new URL('./runner-fake-worker-entry.cjs', import.meta.url).href;

/** Writes until the disk refuses; returns the file. */
function fill(dir: string): string {
  const file = join(dir, 'filler');
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(256 * 1024, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (err) {
    assert.ok(isDiskFull(err), `filling stopped on ${(err as Error).message}`);
  } finally {
    closeSync(fd);
  }
  // the last partial blocks too
  const small = openSync(join(dir, 'filler2'), 'w');
  try {
    for (;;) writeSync(small, Buffer.alloc(512, 1));
  } catch {
    // full
  } finally {
    closeSync(small);
  }
  return file;
}

test('a server restarted on a full disk starts on its reserve, answers reads and is not ready; the reserve comes back with room', async (t) => {
  const mountPoint = mkdtempSync(join(tmpdir(), 'stratum-fulldisk-'));
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=80m', 'tmpfs', mountPoint]).status === 0;
  if (!mounted) {
    rmSync(mountPoint, { recursive: true, force: true });
    t.skip('cannot mount a tmpfs here (not root): no full disk to test on');
    return;
  }
  try {
    const dataDir = join(mountPoint, 'data');
    const first = EmbeddedRuntime.open(testConfig(dataDir), silent, { withoutRunner: true });
    await first.close();
    assert.ok(existsSync(reservePath(dataDir)), 'no reserve made on a disk with room');

    // a server that died while slicing: its job still leased by it, which the next start recovers
    // (a write: the first one a restart makes once the database is open)
    // (the files as kill -9 leaves them: copied while that server still has them open, write-ahead
    // log and all, so that the database opens without a write and fails on the recovery's)
    const side = mkdtempSync(join(tmpdir(), 'stratum-crashed-'));
    const crashed = EmbeddedRuntime.open(testConfig(side), silent, { withoutRunner: true });
    await crashed.stores.queue.enqueue('interrupted');
    assert.ok(await crashed.stores.queue.claim('the-dead-process', 60_000));
    for (const f of ['stratum.db', 'stratum.db-wal', 'stratum.db-shm']) copyFileSync(join(side, f), join(dataDir, f));
    await crashed.close();
    rmSync(side, { recursive: true, force: true });

    fill(mountPoint);
    const onFull = EmbeddedRuntime.open(testConfig(dataDir), silent, { workerFile: WORKER });
    try {
      assert.equal(existsSync(reservePath(dataDir)), false, 'the reserve was not given up');
      await onFull.start();
      assert.equal(await onFull.stores.metadata.getTask('00000000-0000-4000-8000-000000000000'), null);
      assert.equal(await onFull.ready(), false, 'ready on a full disk');
    } finally {
      await onFull.close();
    }

    rmSync(join(mountPoint, 'filler'));
    rmSync(join(mountPoint, 'filler2'));
    const again = EmbeddedRuntime.open(testConfig(dataDir), silent, { withoutRunner: true });
    await again.close();
    assert.ok(existsSync(reservePath(dataDir)), 'the reserve was not made again');
  } finally {
    spawnSync('umount', [mountPoint]);
    rmSync(mountPoint, { recursive: true, force: true });
  }
});
