// The embedded stores: SQLite metadata (CAS updates, paging, expiry queries, keys and tokens), the
// lease queue, and the atomic disk blob store.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import type { TaskRecord } from '../src/service/model.js';
import { BlobNotFoundError, BlobTooLargeError } from '../src/service/ports.js';
import { DiskBlobStore } from '../src/store/disk/disk-blob-store.js';
import { openEmbeddedStores, type EmbeddedStores } from '../src/store/embedded-stores.js';
import { nowIso7 } from '../src/service/dates.js';
import { hashSecret } from '../src/service/ids.js';
import { removeDir, tempDir } from './api-helpers.js';

function task(id: string, accountId: string, over: Partial<TaskRecord> = {}): TaskRecord {
  return {
    id,
    accountId,
    kind: 'stl',
    status: 'queued',
    progress: 0,
    queueDate: nowIso7(),
    startDate: null,
    endDate: null,
    files: [{ fileId: `f-${id}`, fileName: 'a.stl', type: 'STL' }],
    settings: { printerModel: 'Creality Ender 3', supportType: 'n' },
    request: { printer: 'Creality Ender 3', overrides: {} },
    info: null,
    output: null,
    error: null,
    warnings: [],
    stats: null,
    ...over,
  };
}

describe('SQLite metadata store', () => {
  let dir: string;
  let s: EmbeddedStores;
  before(() => {
    dir = tempDir('store');
    s = openEmbeddedStores(dir);
  });
  after(async () => {
    await s.close();
    removeDir(dir);
  });

  test('a task round-trips, and updates are compare-and-set on the status', async () => {
    const t = task('t1', 'acc-a');
    await s.metadata.insertTask(t);
    assert.deepEqual(await s.metadata.getTask('t1'), t);
    assert.equal(await s.metadata.getTaskOf('acc-b', 't1'), null, 'another account does not see it');
    const started = await s.metadata.updateTask('t1', ['queued'], { status: 'started', startDate: nowIso7() });
    assert.equal(started?.status, 'started');
    // a finish arriving for a task that is no longer queued/started is refused
    assert.equal(await s.metadata.updateTask('t1', ['queued'], { status: 'finished' }), null);
    await s.metadata.updateTask('t1', ['started'], { status: 'cancelled' });
    assert.equal(await s.metadata.updateTask('t1', ['started', 'running'], { status: 'finished', progress: 1 }), null);
    const final = await s.metadata.getTask('t1');
    assert.equal(final?.status, 'cancelled');
    assert.equal(final?.queueDate, t.queueDate, 'queue date never changes');
  });

  test('tasks list newest first, per account and kind, in pages', async () => {
    for (let i = 0; i < 5; i++) await s.metadata.insertTask(task(`p${i}`, 'acc-page'));
    await s.metadata.insertTask(task('other-kind', 'acc-page', { kind: 'ws' }));
    await s.metadata.insertTask(task('other-acc', 'acc-x'));
    const first = await s.metadata.listTasks('acc-page', 'stl', 2, null);
    assert.deepEqual(first.tasks.map((t) => t.id), ['p4', 'p3']);
    assert.ok(first.nextCursor);
    const second = await s.metadata.listTasks('acc-page', 'stl', 2, first.nextCursor);
    assert.deepEqual(second.tasks.map((t) => t.id), ['p2', 'p1']);
    const third = await s.metadata.listTasks('acc-page', 'stl', 2, second.nextCursor);
    assert.deepEqual(third.tasks.map((t) => t.id), ['p0']);
    assert.equal(third.nextCursor, null);
    assert.deepEqual((await s.metadata.listTasks('acc-page', 'ws', 10, null)).tasks.map((t) => t.id), ['other-kind']);
  });

  test('expired files exclude those an unfinished task still needs', async () => {
    const old = Date.now() - 10 * 86_400_000;
    for (const id of ['old-free', 'old-used', 'new']) {
      await s.metadata.insertFile({
        id,
        accountId: 'acc-f',
        fileName: `${id}.stl`,
        type: 'STL',
        size: 1,
        blobKey: `files/${id}`,
        createdAt: id === 'new' ? Date.now() : old,
      });
    }
    await s.metadata.insertTask(task('uses-old', 'acc-f', { files: [{ fileId: 'old-used', fileName: 'x', type: 'STL' }] }));
    const expired = await s.metadata.listExpiredFiles(Date.now() - 7 * 86_400_000, 100);
    assert.deepEqual(expired.map((f) => f.id), ['old-free']);
    await s.metadata.updateTask('uses-old', ['queued'], { status: 'finished' });
    const later = await s.metadata.listExpiredFiles(Date.now() - 7 * 86_400_000, 100);
    assert.deepEqual(later.map((f) => f.id).sort(), ['old-free', 'old-used']);
  });

  test('keys are found by hash while active; revoking also ends their tokens', async () => {
    await s.metadata.insertAccount({ id: 'acc-k', name: 'k', createdAt: 1 });
    await s.metadata.insertApiKey({ id: 'key_1', accountId: 'acc-k', name: 'k', keyHash: hashSecret('secret'), createdAt: 1, revokedAt: null });
    assert.equal((await s.metadata.findActiveKeyByHash(hashSecret('secret')))?.id, 'key_1');
    await s.metadata.insertAccessToken({ tokenHash: 'tok', accountId: 'acc-k', keyId: 'key_1', expiresAt: Date.now() + 60_000 });
    await s.metadata.insertAccessToken({ tokenHash: 'old', accountId: 'acc-k', keyId: 'key_1', expiresAt: Date.now() - 1 });
    assert.equal((await s.metadata.findAccessToken('tok', Date.now()))?.accountId, 'acc-k');
    assert.equal(await s.metadata.findAccessToken('old', Date.now()), null, 'expired token');
    assert.equal(await s.metadata.deleteExpiredTokens(Date.now()), 1);
    assert.equal(await s.metadata.revokeApiKey('key_1', Date.now()), true);
    assert.equal(await s.metadata.revokeApiKey('key_1', Date.now()), false, 'already revoked');
    assert.equal(await s.metadata.findActiveKeyByHash(hashSecret('secret')), null);
    assert.equal(await s.metadata.findAccessToken('tok', Date.now()), null);
    assert.equal((await s.metadata.findAccount('k'))?.id, 'acc-k', 'accounts are found by name too');
  });

  test('reopening the database keeps the data and the schema version', async () => {
    const again = openEmbeddedStores(dir);
    assert.equal((await again.metadata.getTask('t1'))?.status, 'cancelled');
    await again.close();
  });
});

describe('SQLite job queue', () => {
  let dir: string;
  let s: EmbeddedStores;
  before(() => {
    dir = tempDir('queue');
    s = openEmbeddedStores(dir);
  });
  after(async () => {
    await s.close();
    removeDir(dir);
  });

  test('claims are first in, first out, one owner each, counting attempts', async () => {
    await s.queue.enqueue('a');
    await s.queue.enqueue('b');
    await s.queue.enqueue('a'); // twice is once
    assert.equal(await s.queue.depth(), 2);
    assert.deepEqual(await s.queue.claim('w1', 10_000), { taskId: 'a', attempts: 1 });
    assert.deepEqual(await s.queue.claim('w2', 10_000), { taskId: 'b', attempts: 1 });
    assert.equal(await s.queue.claim('w1', 10_000), null);
    assert.equal(await s.queue.heartbeat('a', 'w1', 10_000), true);
    assert.equal(await s.queue.heartbeat('a', 'w2', 10_000), false, 'not the owner');
    await s.queue.retry('a', 'w1');
    assert.deepEqual(await s.queue.claim('w1', 10_000), { taskId: 'a', attempts: 2 }, 'a retry counts');
    await s.queue.release('a', 'w1');
    assert.deepEqual(await s.queue.claim('w1', 10_000), { taskId: 'a', attempts: 2 }, 'a release does not');
    await s.queue.complete('a', 'w1');
    await s.queue.complete('b', 'w2');
    assert.equal(await s.queue.has('a'), false);
    assert.equal(await s.queue.depth(), 0);
  });

  test('expired leases go back to the front of the queue until attempts run out', async () => {
    await s.queue.enqueue('x');
    await s.queue.enqueue('y');
    await s.queue.claim('dead', 1); // x, attempt 1, expires at once
    await new Promise((r) => setTimeout(r, 5));
    let r = await s.queue.recoverExpired(Date.now(), 2);
    assert.deepEqual(r, { requeued: ['x'], exhausted: [] });
    assert.deepEqual(await s.queue.claim('dead', 1), { taskId: 'x', attempts: 2 }, 'x is first again, before y');
    await new Promise((r) => setTimeout(r, 5));
    r = await s.queue.recoverExpired(Date.now(), 2);
    assert.deepEqual(r, { requeued: [], exhausted: ['x'] });
    assert.equal(await s.queue.has('x'), false);
    // a lease held by another owner is abandoned when the embedded server starts
    assert.deepEqual(await s.queue.claim('old-process', 60_000), { taskId: 'y', attempts: 1 });
    assert.deepEqual(await s.queue.recoverAbandoned('new-process', 3), { requeued: ['y'], exhausted: [] });
    await s.queue.remove('y');
    assert.equal(await s.queue.depth(), 0);
  });
});

describe('disk blob store', () => {
  let dir: string;
  let blobs: DiskBlobStore;
  before(() => {
    dir = tempDir('blobs');
    blobs = new DiskBlobStore(dir);
  });
  after(() => removeDir(dir));

  const tmpFiles = () => (existsSync(join(dir, 'tmp')) ? readdirSync(join(dir, 'tmp')) : []);

  test('puts streams and bytes, gets and deletes them', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024, 7);
    assert.deepEqual(await blobs.put('files/a', Readable.from([big.subarray(0, 1000), big.subarray(1000)])), { size: big.length });
    assert.ok(Buffer.from(await blobs.read('files/a')).equals(big), 'the bytes read back are the bytes put');
    await blobs.put('outputs/b', new TextEncoder().encode('G1 X1'));
    const { stream, size } = await blobs.get('outputs/b');
    assert.equal(size, 5);
    let text = '';
    for await (const chunk of stream) text += chunk;
    assert.equal(text, 'G1 X1');
    await blobs.delete('outputs/b');
    await blobs.delete('outputs/b');
    await assert.rejects(blobs.read('outputs/b'), BlobNotFoundError);
    assert.deepEqual(tmpFiles(), []);
  });

  test('over the limit or on a broken source nothing is kept', async () => {
    await assert.rejects(blobs.put('files/big', Readable.from([Buffer.alloc(600), Buffer.alloc(600)]), { maxBytes: 1000 }), BlobTooLargeError);
    const broken = new Readable({ read() {} });
    broken.push(Buffer.alloc(100));
    setTimeout(() => broken.destroy(new Error('client went away')), 10);
    await assert.rejects(blobs.put('files/cut', broken), /client went away/);
    assert.equal(await blobs.exists('files/big'), false);
    assert.equal(await blobs.exists('files/cut'), false);
    assert.deepEqual(tmpFiles(), []);
  });

  test('keys cannot leave the root; stale temporary files are swept', async () => {
    await assert.rejects(blobs.put('../escape', new Uint8Array(1)), /invalid blob key/);
    writeFileSync(join(dir, 'tmp', 'left-by-a-crash.part'), 'x');
    assert.equal(await blobs.sweepTemp(0), 1);
    assert.deepEqual(tmpFiles(), []);
  });
});
