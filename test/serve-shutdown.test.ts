// `stratum serve` stopped by SIGTERM, as a deploy stops it: requests in flight get the grace period
// and no longer (a client that stopped sending mid-upload held the shutdown for the ten-minute
// request timeout), and a process that something still holds once all is closed ends all the same.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { sqlite } from '../src/store/sqlite/driver.js';
import { STRATUM_BIN, exitOf, removeDir, serveEnv, startServeProcess, tempDir, type ServeProcess } from './api-helpers.js';

const dirs: string[] = [];
const served: ServeProcess[] = [];
after(() => {
  for (const s of served) s.proc.kill('SIGKILL');
  dirs.forEach(removeDir);
});

/** A data directory with a key, and `stratum serve` on it (`serveOnly`: environment for the server alone). */
async function serve(over: Record<string, string>, serveOnly: Record<string, string> = {}): Promise<{ s: ServeProcess; key: string; dataDir: string }> {
  const dataDir = tempDir('shutdown');
  dirs.push(dataDir);
  const env = serveEnv(dataDir, over);
  const made = spawnSync(process.execPath, [STRATUM_BIN, 'keys', 'create', '--name', 'shutdown'], { env, encoding: 'utf8', timeout: 60_000 });
  assert.equal(made.status, 0, made.stderr);
  const s = await startServeProcess({ ...env, ...serveOnly });
  served.push(s);
  return { s, key: made.stdout.trim(), dataDir };
}

/** An upload of `total` bytes of which only `first` are sent; the rest is for the caller to send. */
async function startUpload(url: string, key: string, total: number, first: number): Promise<{ sock: Socket; reply: Promise<string> }> {
  const u = new URL(url);
  const sock = connect(Number(u.port), u.hostname);
  await new Promise((r) => sock.once('connect', r));
  let text = '';
  sock.on('data', (d) => (text += d));
  sock.on('error', () => undefined);
  const reply = new Promise<string>((r) => sock.once('close', () => r(text)));
  sock.write(
    `POST /v1/upload/STL/slow.stl HTTP/1.1\r\nHost: ${u.host}\r\nOcp-Apim-Subscription-Key: ${key}\r\n` +
      `Content-Type: application/octet-stream\r\nContent-Length: ${total}\r\nConnection: close\r\n\r\n`,
  );
  sock.write(Buffer.alloc(first, 0x20));
  // the server has the request once its part file exists
  return { sock, reply };
}

const fileRecords = (dataDir: string): number => {
  const db = new (sqlite())(join(dataDir, 'stratum.db'), { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM files').get() as { n: number }).n;
  } finally {
    db.close();
  }
};
const partFiles = (dataDir: string): string[] => {
  const tmp = join(dataDir, 'blobs', 'tmp');
  return existsSync(tmp) ? readdirSync(tmp) : [];
};
const waitForPart = async (dataDir: string): Promise<void> => {
  const end = Date.now() + 10_000;
  while (partFiles(dataDir).length === 0) {
    if (Date.now() > end) throw new Error('the upload never reached the server');
    await new Promise((r) => setTimeout(r, 20));
  }
};

test('SIGTERM during an upload from a client that stopped sending: the service stops after the grace period; nothing of the upload is kept', { timeout: 120_000 }, async () => {
  const { s, key, dataDir } = await serve({ STRATUM_SHUTDOWN_GRACE_S: '1' });
  const { reply } = await startUpload(s.url, key, 100_000, 1000);
  await waitForPart(dataDir);
  const t0 = Date.now();
  s.proc.kill('SIGTERM');
  const exit = await exitOf(s);
  const ms = Date.now() - t0;
  assert.deepEqual(exit, { code: 0, signal: null }, s.stdout());
  assert.ok(ms >= 900, `the request in flight had its grace period (stopped after ${ms} ms)`);
  assert.ok(ms < 6000, `stopped after ${ms} ms, not at the end of the grace period`);
  assert.doesNotMatch(await reply, /^HTTP\/1\.1 200/, 'no upload answered as stored');
  assert.equal(fileRecords(dataDir), 0, 'no file record');
  assert.deepEqual(partFiles(dataDir), [], 'no part file');
  assert.doesNotMatch(s.stdout(), /still open after shutdown|shutdown did not finish/);
});

test('SIGTERM during an upload that ends within the grace period: it is stored and answered, then the service stops', { timeout: 120_000 }, async () => {
  const { s, key, dataDir } = await serve({ STRATUM_SHUTDOWN_GRACE_S: '5' });
  const { sock, reply } = await startUpload(s.url, key, 2000, 1000);
  await waitForPart(dataDir);
  s.proc.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 300));
  sock.write(Buffer.alloc(1000, 0x20));
  const answer = await reply;
  assert.match(answer, /^HTTP\/1\.1 200/, answer);
  assert.match(answer, /"fileId":"[0-9a-f-]{36}"/);
  assert.deepEqual(await exitOf(s), { code: 0, signal: null }, s.stdout());
  assert.equal(fileRecords(dataDir), 1);
});

test('a stopped service whose process something still holds ends all the same, and names what held it', { timeout: 120_000 }, async () => {
  // a stand-in for a library that leaves a timer running: loaded into the server process before it starts
  const dir = tempDir('shutdown-hold');
  dirs.push(dir);
  const holder = join(dir, 'hold.cjs');
  writeFileSync(holder, 'setInterval(() => {}, 60_000);\n');
  const { s } = await serve({}, { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${holder}`.trim() });
  const t0 = Date.now();
  s.proc.kill('SIGTERM');
  const exit = await exitOf(s);
  const ms = Date.now() - t0;
  assert.deepEqual(exit, { code: 0, signal: null }, s.stdout());
  assert.ok(ms < 10_000, `ended after ${ms} ms`);
  const line = s.stdout().split('\n').find((l) => l.includes('still open after shutdown'));
  assert.ok(line, `no warning in:\n${s.stdout()}`);
  assert.ok((JSON.parse(line).openResources as string[]).includes('Timeout'), line);
});
