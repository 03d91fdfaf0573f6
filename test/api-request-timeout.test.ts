// STRATUM_REQUEST_TIMEOUT_S holds: an upload whose body stops arriving is answered 408 at about the
// configured time. Node checks for late requests every 30 s by default, and with the timeout set
// after the server was made it waited for its 60 s headers timeout as well: 1 s and 5 s answered
// after 80-90 s, holding the connection and a partial upload file that long.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { join } from 'node:path';
import { existsSync, readdirSync } from 'node:fs';
import { startTestServer, type TestServer } from './api-helpers.js';
import { requestTimeoutOptions } from '../src/api/build-app.js';

let t: TestServer;
before(async () => {
  t = await startTestServer({ requestTimeoutS: 1, warmUp: false });
});
after(async () => t.close());

/** Sends the head of a request and part of its body, then nothing; resolves with the answer's first line and when it came. */
function stall(path: string): Promise<{ line: string; seconds: number }> {
  const { hostname, port } = new URL(t.url);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(Number(port), hostname, () => {
      socket.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nOcp-Apim-Subscription-Key: ${t.key}\r\nContent-Length: 100000\r\n\r\n${'x'.repeat(100)}`);
    });
    let text = '';
    socket.on('data', (d) => (text += String(d)));
    socket.on('close', () => resolve({ line: text.split('\r\n')[0] ?? '', seconds: (Date.now() - started) / 1000 }));
    socket.on('error', reject);
  });
}

test('an upload that stops arriving is answered 408 at about the configured timeout, and leaves no partial file', async () => {
  const answer = await stall('/v1/upload/STL/slow.stl');
  assert.equal(answer.line, 'HTTP/1.1 408 Request Timeout');
  // 1 s configured: the check runs every 250 ms; 10 s leaves room for a loaded machine, far below 30
  assert.ok(answer.seconds >= 0.9 && answer.seconds < 10, `answered after ${answer.seconds} s`);
  const tmp = join(t.dataDir, 'blobs', 'tmp');
  for (let i = 0; i < 100 && existsSync(tmp) && readdirSync(tmp).length > 0; i++) await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(existsSync(tmp) ? readdirSync(tmp) : [], []);
});

test('the server options: the check runs every tenth of the timeout, between 250 ms and 30 s', () => {
  assert.deepEqual(requestTimeoutOptions(1000), { requestTimeout: 1000, headersTimeout: 1000, connectionsCheckingInterval: 250 });
  assert.deepEqual(requestTimeoutOptions(600_000), { requestTimeout: 600_000, headersTimeout: 60_000, connectionsCheckingInterval: 30_000 });
  assert.deepEqual(requestTimeoutOptions(0), { requestTimeout: 0, headersTimeout: 60_000, connectionsCheckingInterval: 30_000 });
});
