// The embedded stores: the shared store contract (metadata, lease queue, events) on SQLite, the
// SQLite-only behaviour (reopen, abandoned leases at start), and the atomic disk blob store.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { BlobNotFoundError, BlobStoreUnavailableError, BlobTooLargeError } from '../src/service/ports.js';
import { DiskBlobStore } from '../src/store/disk/disk-blob-store.js';
import { openEmbeddedStores, type EmbeddedStores } from '../src/store/embedded-stores.js';
import { LocalTaskEventBus } from '../src/service/task-event-bus.js';
import { removeDir, tempDir } from './api-helpers.js';
import { SqliteModuleMissing, loadSqlite, sqlitePackageFor } from '../src/store/sqlite/driver.js';
import { contractTask, storeContract } from './store-contract.js';

storeContract({
  name: 'SQLite',
  eventsCrossProcesses: false,
  async open() {
    const dir = tempDir('contract');
    const s = openEmbeddedStores(dir);
    const events = new LocalTaskEventBus();
    return {
      metadata: s.metadata,
      queue: s.queue,
      events,
      close: async () => {
        await s.close();
        removeDir(dir);
      },
      // a second connection to the same file, as `stratum keys` or a restarted server would open
      async peer() {
        const p = openEmbeddedStores(dir);
        return { metadata: p.metadata, queue: p.queue, events, close: () => p.close() };
      },
    };
  },
});

// SQLite only: the file survives a reopen; leases of a previous server are taken back at start.
describe('SQLite stores (embedded only)', () => {
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

  test('reopening the database keeps the data and the schema version', async () => {
    await s.metadata.insertTask(contractTask('t1', 'acc-a'));
    await s.metadata.updateTask('t1', ['queued'], { status: 'cancelled' });
    const again = openEmbeddedStores(dir);
    assert.equal((await again.metadata.getTask('t1'))?.status, 'cancelled');
    await again.close();
  });

  test('a lease held by another owner is abandoned when the embedded server starts', async () => {
    await s.queue.enqueue('y');
    assert.deepEqual(await s.queue.claim('old-process', 60_000), { taskId: 'y', attempts: 1 });
    assert.deepEqual(await s.queue.recoverAbandoned('new-process', 3), { requeued: ['y'], exhausted: [] });
    assert.deepEqual(await s.queue.claim('new-process', 60_000), { taskId: 'y', attempts: 2 });
    await s.queue.remove('y');
    assert.equal(await s.queue.depth(), 0);
  });
});

describe('the SQLite module', () => {
  test('Node 22 and later load better-sqlite3 13; Node 20 loads 12, the optional dependency', () => {
    assert.equal(sqlitePackageFor('20.10.0'), 'better-sqlite3-node20');
    assert.equal(sqlitePackageFor('20.20.2'), 'better-sqlite3-node20');
    for (const v of ['22.0.0', '22.23.3', '24.21.0', '26.12.1']) assert.equal(sqlitePackageFor(v), 'better-sqlite3');
    // the package installed under that name is of that major version
    const name = sqlitePackageFor();
    const main = createRequire(import.meta.url).resolve(name);
    const pkg = JSON.parse(readFileSync(join(dirname(main), '..', 'package.json'), 'utf8')) as { name: string; version: string };
    assert.equal(pkg.name, 'better-sqlite3');
    assert.equal(pkg.version.split('.')[0], name === 'better-sqlite3' ? '13' : '12');
  });

  test('a SQLite module that is not installed is said plainly, with what to do', () => {
    assert.throws(() => loadSqlite('better-sqlite3-node20-not-here'), (err: Error) => {
      assert.ok(err instanceof SqliteModuleMissing);
      assert.match(err.message, /^the SQLite module for Node [\d.]+ \(better-sqlite3-node20-not-here\) is not installed; run npm ci$/);
      return true;
    });
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
    // a read the disk refuses (here a directory where the file should be) is the store's failure, not a missing blob
    mkdirSync(join(dir, 'outputs', 'dir'), { recursive: true });
    await assert.rejects(blobs.read('outputs/dir'), BlobStoreUnavailableError);
  });

  test('its directories removed while it runs (a tmp cleaner takes empty ones) are made again on the next put', async () => {
    await blobs.put('files/first', new TextEncoder().encode('a'));
    rmSync(join(dir, 'tmp'), { recursive: true });
    rmSync(join(dir, 'files'), { recursive: true });
    assert.deepEqual(await blobs.put('files/second', Readable.from([Buffer.from('bc')])), { size: 2 });
    assert.equal(Buffer.from(await blobs.read('files/second')).toString(), 'bc');
  });

  test('a disk with less room than the store needs makes it not answer (so /readyz says so)', async () => {
    await blobs.ping();
    const full = new DiskBlobStore(dir, Number.MAX_SAFE_INTEGER);
    await assert.rejects(full.ping(), /the disk holding .* is full: \d+ bytes free, under \d+/);
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
