// Starts scripts/dist/s3.mjs (s3rver on a temp dir and a free port) for a test and stops it after.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { S3BlobConfig } from '../../src/store/s3/s3-blob-store.js';

export interface S3Server {
  config: S3BlobConfig;
  /** environment variables a Stratum process needs to use it */
  env: Record<string, string>;
  /** the directory s3rver keeps its objects in */
  dir: string;
  stop(): Promise<void>;
}

/** dist/test/distributed → repository root */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export async function startS3(bucket = 'stratum'): Promise<S3Server> {
  const child = spawn(process.execPath, [`${ROOT}scripts/dist/s3.mjs`, '--bucket', bucket, '--exit-with-stdin'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const first = await Promise.race([
    once(lines, 'line').then(([l]) => String(l)),
    once(child, 'exit').then(([code]) => {
      throw new Error(`s3.mjs exited with ${code} before it was listening`);
    }),
  ]);
  const info = JSON.parse(first) as { endpoint: string; bucket: string; region: string; accessKeyId: string; secretAccessKey: string; dir: string };
  const config: S3BlobConfig = {
    kind: 's3',
    endpoint: info.endpoint,
    bucket: info.bucket,
    region: info.region,
    accessKeyId: info.accessKeyId,
    secretAccessKey: info.secretAccessKey,
  };
  return {
    config,
    dir: info.dir,
    env: {
      S3_ENDPOINT: info.endpoint,
      S3_BUCKET: info.bucket,
      S3_REGION: info.region,
      S3_ACCESS_KEY_ID: info.accessKeyId,
      S3_SECRET_ACCESS_KEY: info.secretAccessKey,
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}
