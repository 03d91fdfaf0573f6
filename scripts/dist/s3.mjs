#!/usr/bin/env node
// Starts a throwaway S3-compatible server (s3rver, an npm dev dependency) for the distributed tests
// and local trials: data in a fresh temp directory, a free port unless --port is given, the bucket
// created. Prints one JSON line {endpoint, bucket, region, accessKeyId, secretAccessKey, dir} on
// stdout once it is listening, then runs until SIGTERM/SIGINT and removes its directory.
//
//   node scripts/dist/s3.mjs [--port N] [--bucket NAME] [--dir DIR] [--keep] [--exit-with-stdin]
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
let S3rver;
try {
  S3rver = require('s3rver');
} catch {
  process.stderr.write('s3.mjs: s3rver is not installed (it is a dev dependency: npm ci, not npm ci --omit=dev)\n');
  process.exit(1);
}

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    bucket: { type: 'string', default: 'stratum' },
    dir: { type: 'string' },
    keep: { type: 'boolean', default: false },
    'exit-with-stdin': { type: 'boolean', default: false },
  },
});
const dir = values.dir ?? mkdtempSync(join(tmpdir(), 'stratum-s3-'));
const server = new S3rver({
  address: '127.0.0.1',
  port: Number(values.port),
  directory: dir,
  silent: true,
  configureBuckets: [{ name: values.bucket }],
});
const address = await server.run();
// s3rver accepts any credentials; these are what clients are told to send
process.stdout.write(
  JSON.stringify({
    endpoint: `http://127.0.0.1:${address.port}`,
    bucket: values.bucket,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    dir,
  }) + '\n',
);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await server.close().catch(() => undefined);
  if (!values.keep && !values.dir) rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
if (values['exit-with-stdin']) {
  // the parent (a test) went away, even killed: do not outlive it
  process.stdin.on('end', stop);
  process.stdin.resume();
}
