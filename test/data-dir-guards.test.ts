// The embedded data directory keeps what it holds: a second server on it is refused before it
// touches anything (it used to clear the first one's uploads in progress and take its running slices
// as a dead process's); a database lost beside stored files is not made anew (the sweeper would then
// have deleted every file as an orphan); a damaged one is said at the start; the database refusing a
// write (locked, disk full) is the service's 503, not the client's 400.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import pino from 'pino';
import { EmbeddedRuntime } from '../src/service/embedded-runtime.js';
import { databasePath, openEmbeddedStores } from '../src/store/embedded-stores.js';
import { sqlite } from '../src/store/sqlite/driver.js';
import {
  CUBE_STL,
  STRATUM_BIN,
  call,
  removeDir,
  serveEnv,
  startServeProcess,
  startTestServer,
  tempDir,
  testConfig,
  upload,
} from './api-helpers.js';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) removeDir(d);
});
const newDir = (name: string) => {
  const d = tempDir(name);
  dirs.push(d);
  return d;
};
const quiet = pino({ level: 'silent' });

test('a second server on a data directory in use is refused before it touches it; once the first stops, it starts', async () => {
  const dir = newDir('lock');
  const first = await startServeProcess(serveEnv(dir, { STRATUM_WARM_UP: 'false' }));
  try {
    // a file being written by the first server, as an upload in progress leaves it
    const partial = join(dir, 'blobs', 'tmp', 'upload-in-progress.part');
    mkdirSync(join(dir, 'blobs', 'tmp'), { recursive: true });
    writeFileSync(partial, 'half a model');
    // the same command again (same port too: the port was taken only after the start-up work)
    const second = spawnSync(process.execPath, [STRATUM_BIN, 'serve'], { env: serveEnv(dir, { STRATUM_WARM_UP: 'false' }), encoding: 'utf8', timeout: 60_000 });
    assert.equal(second.status, 1, second.stderr);
    assert.match(second.stderr, new RegExp(`data directory ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is in use by another stratum serve \\(pid ${first.proc.pid}\\)`));
    assert.doesNotMatch(second.stderr, /\n\s+at /, 'no stack trace');
    assert.ok(existsSync(partial), 'the first server\'s file in progress is still there');
    assert.equal((await call(first.url, '/readyz')).status, 200, 'the first server still serves');
    // in the same process too (a test harness, a tool): the same refusal
    assert.throws(() => EmbeddedRuntime.open(testConfig(dir), quiet, { withoutRunner: true }), /is in use by another stratum serve/);
  } finally {
    first.proc.kill('SIGTERM');
    await first.exit;
  }
  // taken again on a directory whose lock file exists: held as firmly as the first time
  const again = EmbeddedRuntime.open(testConfig(dir), quiet, { withoutRunner: true });
  const other = spawnSync(process.execPath, [STRATUM_BIN, 'serve'], { env: serveEnv(dir, { STRATUM_WARM_UP: 'false' }), encoding: 'utf8', timeout: 60_000 });
  assert.equal(other.status, 1, other.stderr);
  assert.match(other.stderr, /is in use by another stratum serve \(pid \d+\)/);
  await again.close(0);
  // and a server killed outright leaves no lock behind
  const killed = await startServeProcess(serveEnv(dir, { STRATUM_WARM_UP: 'false' }));
  killed.proc.kill('SIGKILL');
  await killed.exit;
  const afterKill = EmbeddedRuntime.open(testConfig(dir), quiet, { withoutRunner: true });
  await afterKill.close(0);
});

test('the lock file holds nothing to tear; one damaged (a power cut, an old version\'s half-written row) is emptied and taken, and still keeps a second server out', async () => {
  const dir = newDir('lock-torn');
  // held, the file stays empty: the lock writes nothing
  const held = EmbeddedRuntime.open(testConfig(dir), quiet, { withoutRunner: true });
  assert.equal(statSync(join(dir, 'stratum.lock')).size, 0, 'nothing written while held');
  assert.ok(!existsSync(join(dir, 'stratum.lock-journal')), 'no journal file');
  await held.close(0);
  for (const [what, bytes] of [
    ['random bytes', Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7919) % 251))],
    ['a SQLite header cut short', Buffer.concat([Buffer.from('SQLite format 3\0'), Buffer.alloc(80, 7)])],
  ] as const) {
    writeFileSync(join(dir, 'stratum.lock'), bytes);
    const first = await startServeProcess(serveEnv(dir, { STRATUM_WARM_UP: 'false' }));
    try {
      assert.match(first.stdout(), /the lock file \S+stratum\.lock was damaged \(file is not a database\) and was emptied/, what);
      assert.equal((await call(first.url, '/readyz')).status, 200, `${what}: the server started`);
      assert.equal(statSync(join(dir, 'stratum.lock')).size, 0);
      const second = spawnSync(process.execPath, [STRATUM_BIN, 'serve'], { env: serveEnv(dir, { STRATUM_WARM_UP: 'false' }), encoding: 'utf8', timeout: 60_000 });
      assert.equal(second.status, 1, second.stderr);
      assert.match(second.stderr, /is in use by another stratum serve/, `${what}: a second server is refused`);
    } finally {
      first.proc.kill('SIGTERM');
      await first.exit;
    }
  }
});

test('a database missing or emptied beside stored files is not made anew, and the files stay', async () => {
  const dir = newDir('nodb');
  const t = await startTestServer({ dataDir: dir });
  const up = await upload(t, 'STL', 'cube.stl', readFileSync(CUBE_STL));
  assert.equal(up.status, 200);
  await t.close();
  const stored = join(dir, 'blobs', 'files');
  for (const damage of ['deleted', 'emptied'] as const) {
    for (const f of ['stratum.db', 'stratum.db-wal', 'stratum.db-shm']) rmSync(join(dir, f), { force: true });
    if (damage === 'emptied') writeFileSync(databasePath(dir), '');
    assert.throws(
      () => openEmbeddedStores(dir),
      (e: Error) => /holds stored files \(blobs\/files\/.+\) but its database stratum\.db is missing or empty/.test(e.message) && /Restore stratum\.db from its backup/.test(e.message),
      damage,
    );
    // nothing was made that a later start would take as the database
    assert.equal(statSync(databasePath(dir)).size, 0, damage);
  }
  assert.ok(existsSync(join(stored, up.body.fileId)), 'the upload is still on disk');
  // a fresh data directory, or one whose blobs hold only files being written, starts as before
  const fresh = newDir('fresh');
  mkdirSync(join(fresh, 'blobs', 'tmp'), { recursive: true });
  writeFileSync(join(fresh, 'blobs', 'tmp', 'x.part'), 'x');
  const stores = openEmbeddedStores(fresh);
  await stores.close();
});

test('a database damaged inside is refused at the start, naming the file', async () => {
  const dir = newDir('damaged');
  const t = await startTestServer({ dataDir: dir });
  for (let i = 0; i < 40; i++) assert.equal((await upload(t, 'STL', `c${i}.stl`, readFileSync(CUBE_STL))).status, 200);
  await t.close();
  // fold the WAL in, then overwrite a page in the middle of the file
  const Database = sqlite();
  const db = new Database(databasePath(dir));
  db.pragma('wal_checkpoint(TRUNCATE)');
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  // the files table's first page: the database still opens (its schema is elsewhere), as the damage
  // an outside check found did, and requests then failed one by one
  const { rootpage } = db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'files'").get() as { rootpage: number };
  db.close();
  const fd = openSync(databasePath(dir), 'r+');
  writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, (rootpage - 1) * pageSize);
  closeSync(fd);
  assert.throws(() => openEmbeddedStores(dir), /stratum\.db is damaged \(SQLite quick_check: .+\): restore it from its backup/);
});

test('the database refusing an upload\'s record (locked past its wait) is 503, not the client\'s mistake', async () => {
  const dir = newDir('busy');
  const t = await startTestServer({ dataDir: dir });
  try {
    const Database = sqlite();
    const holder = new Database(databasePath(dir));
    holder.exec('BEGIN EXCLUSIVE');
    try {
      const r = await call(t.url, '/v1/upload/STL/cube.stl', {
        key: t.key,
        body: readFileSync(CUBE_STL),
        headers: { 'Content-Type': 'application/octet-stream' },
        timeoutMs: 30_000,
      });
      assert.equal(r.status, 503, r.text);
      assert.equal(r.body.errorCode, 'SF000');
      assert.match(r.body.message, /database is unavailable; try again later/);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    // and nothing of it stayed: the same upload now goes through
    const ok = await call(t.url, '/v1/upload/STL/cube.stl', { key: t.key, body: readFileSync(CUBE_STL), headers: { 'Content-Type': 'application/octet-stream' } });
    assert.equal(ok.status, 200, ok.text);
  } finally {
    await t.close();
  }
});
