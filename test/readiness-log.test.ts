// /readyz during an outage: every probe answers 503, but the log says so once (a warning naming the
// store and its error) and once more when the store is back, with no error line per probe. A load
// balancer probing every few seconds otherwise flooded the error log (the chaos run: 61 lines).
import assert from 'node:assert/strict';
import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import pino from 'pino';
import { startServer } from '../src/api/start-server.js';
import { call, removeDir, tempDir, testConfig } from './api-helpers.js';

test('a lost store is logged once as a warning and its return once; the probes themselves are no errors', async () => {
  const lines: Array<{ level: number; msg: string; [k: string]: unknown }> = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString('utf8').split('\n')) if (l.trim()) lines.push(JSON.parse(l));
      done();
    },
  });
  const dataDir = tempDir('readiness');
  const server = await startServer(testConfig(dataDir, { logLevel: 'info' }), { log: pino({ level: 'info' }, sink) });
  try {
    assert.equal((await call(server.url, '/readyz')).status, 200);
    const blobs = join(dataDir, 'blobs');
    // a file where the blob directory should be (a disk not mounted)
    if (existsSync(blobs)) renameSync(blobs, `${blobs}.away`);
    writeFileSync(blobs, '');
    for (let i = 0; i < 5; i++) assert.equal((await call(server.url, '/readyz')).status, 503);
    rmSync(blobs);
    for (let i = 0; i < 3; i++) assert.equal((await call(server.url, '/readyz')).status, 200);

    const lost = lines.filter((l) => /^not ready/.test(l.msg));
    assert.equal(lost.length, 1, 'one warning for the whole outage');
    assert.equal(lost[0]!.level, 40);
    assert.equal(lost[0]!.down, 'file store');
    assert.match(JSON.stringify(lost[0]!.reasons), /EEXIST|ENOTDIR|EACCES/, 'the store\'s own error');
    assert.equal(lines.filter((l) => /^ready again/.test(l.msg)).length, 1);
    const probes = lines.filter((l) => l.msg === 'request' && l.url === '/readyz');
    assert.equal(probes.length, 9);
    assert.deepEqual(probes.filter((l) => l.level >= 50), [], 'no probe is logged as an error');
  } finally {
    await server.close(0);
    removeDir(dataDir);
  }
});
