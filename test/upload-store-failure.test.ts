// An upload the disk cannot take is the service's fault, not the client's: a `stratum serve` whose
// files may not grow past 4 MiB (`ulimit -f`, so a write fails with EFBIG part-way through the
// body, as on a full disk) answers 503 SF000 with the whole body read, keeps no partial file, logs
// the store's error, and takes the next upload that fits.
import assert from 'node:assert/strict';
import { spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { STRATUM_BIN, removeDir, serveEnv, startServeProcess, tempDir, upload, waitFor } from './api-helpers.js';

const dataDir = tempDir('store-failure');
const env = serveEnv(dataDir, { STRATUM_WARM_UP: '0' });
const running = new Set<ChildProcess>();
after(() => {
  for (const p of running) p.kill('SIGKILL');
  removeDir(dataDir);
});

const dirFiles = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);

test('a write the disk refuses part-way through an upload answers 503 SF000, not a client error, and keeps nothing', async () => {
  // the database and the small upload stay far below the limit; ulimit -f counts 1024-byte blocks
  const served = await startServeProcess(env, STRATUM_BIN, 'ulimit -f 4096');
  running.add(served.proc);
  const made = spawnSync(process.execPath, [STRATUM_BIN, 'keys', 'create', '--name', 'ci'], { env, encoding: 'utf8', timeout: 60_000 });
  assert.equal(made.status, 0, made.stderr);
  const t = { url: served.url, key: made.stdout.trim() };

  const big = await upload(t, 'STL', 'big.stl', randomBytes(6 * 1024 * 1024));
  assert.equal(big.status, 503, big.text);
  assert.equal(big.body.errorCode, 'SF000');
  assert.match(big.body.message, /file store is unavailable/);
  assert.deepEqual(dirFiles(join(dataDir, 'blobs', 'tmp')), [], 'no partial file');
  assert.deepEqual(dirFiles(join(dataDir, 'blobs', 'files')), [], 'no stored file');
  // the server's log names the store's own error for the operator (the line may reach the pipe after
  // the answer): EFBIG, or on Node 20.10, whose writev misreports failed writes, the short file
  await waitFor('the store error in the log', async () => /EFBIG|the disk kept \d+ of \d+ bytes/.test(served.stdout()), 10_000);

  const small = await upload(t, 'STL', 'small.stl', randomBytes(64 * 1024));
  assert.equal(small.status, 200, small.text);
  assert.equal(dirFiles(join(dataDir, 'blobs', 'files')).length, 1);

  served.proc.kill('SIGTERM');
  await served.exit;
});
