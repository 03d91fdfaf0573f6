// The distributed mode end to end, with real processes: two API processes and two workers against
// a throwaway PostgreSQL and an s3rver. 100 tasks through both APIs; a worker SIGKILLed mid-slice;
// a worker stopped gracefully mid-slice; cancel and server-sent events across processes; an API
// process killed mid-upload.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { basename, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { HeadBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import pg from 'pg';
import { CUBE_STL, SLOW_OVERRIDES, STL_SETTINGS, call, upload, waitFor, waitForStatus } from '../api-helpers.js';
import { Cluster, type StratumProcess } from './cluster.js';
import { startS3 } from './s3-server.js';

const CUBE = readFileSync(CUBE_STL);

/** a port nothing listens on right now */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

describe('distributed: 2 API + 2 worker processes on PostgreSQL and S3', { timeout: 900_000 }, () => {
  let cluster: Cluster;
  let apis: StratumProcess[];
  let workers: StratumProcess[];
  let key: string;
  let db: pg.Pool;
  let s3: S3Client;
  const fileOn: string[] = [];

  const t = (i: number) => ({ url: apis[i % 2]!.url, key });
  const files = (i: number) => [{ fileId: fileOn[i % 2]!, type: 'STL', fileName: 'cube.stl' }];
  const count = async (sql: string, params: unknown[] = []) => Number((await db.query(sql, params)).rows[0].n);

  before(async () => {
    cluster = await Cluster.start();
    apis = await Promise.all([cluster.spawn('api'), cluster.spawn('api')]);
    workers = await Promise.all([cluster.spawn('worker'), cluster.spawn('worker')]);
    key = await cluster.createKey('cluster-test');
    db = new pg.Pool({ connectionString: cluster.databaseUrl, max: 2 });
    s3 = new S3Client({
      region: 'us-east-1',
      endpoint: cluster.s3.config.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: cluster.s3.config.accessKeyId, secretAccessKey: cluster.s3.config.secretAccessKey },
    });
    for (const i of [0, 1]) {
      const up = await upload(t(i), 'STL', 'cube.stl', CUBE);
      assert.equal(up.status, 200, up.text);
      fileOn.push(up.body.fileId);
    }
  });

  after(async () => {
    await db?.end();
    s3?.destroy();
    await cluster?.stop();
  });

  /** the worker process whose runner holds the task's lease (owners are host-pid-random) */
  async function leaseHolder(taskId: string): Promise<StratumProcess> {
    const owner = await waitFor(`a lease on ${taskId}`, async () => {
      const r = await db.query(`SELECT lease_owner FROM task_jobs WHERE task_id = $1 AND state = 'leased'`, [taskId]);
      return (r.rows[0]?.lease_owner as string | undefined) ?? null;
    }, 30_000);
    const pid = Number(owner.split('-').at(-2));
    const w = workers.find((p) => p.pid === pid);
    assert.ok(w, `lease owner ${owner} is none of the workers`);
    return w;
  }

  async function startSlow(i: number): Promise<string> {
    const r = await call(t(i).url, '/v1/stl/tasks', { key, json: { files: files(i), settings: { ...STL_SETTINGS, overrides: SLOW_OVERRIDES } } });
    assert.equal(r.status, 200, r.text);
    return r.body.taskId as string;
  }

  test('100 tasks submitted through both APIs all finish, each with exactly one output', async () => {
    const started = Date.now();
    const ids: string[] = [];
    for (let batch = 0; batch < 10; batch++) {
      const rs = await Promise.all(
        Array.from({ length: 10 }, (_, j) => {
          const i = batch * 10 + j;
          return call(t(i).url, '/v1/stl/tasks', { key, json: { files: files(i), settings: STL_SETTINGS } });
        }),
      );
      for (const r of rs) {
        assert.equal(r.status, 200, r.text);
        ids.push(r.body.taskId);
      }
    }
    await waitFor('100 tasks to end', async () => (await count(`SELECT count(*) AS n FROM tasks WHERE status IN ('finished', 'failed') AND id = ANY($1)`, [ids])) === 100, 480_000, 500);
    const minutes = (Date.now() - started) / 60_000;
    console.log(`# 100 cube tasks, 2 workers: ${(100 / minutes).toFixed(1)} tasks/min`);
    assert.equal(await count(`SELECT count(*) AS n FROM tasks WHERE status = 'finished' AND id = ANY($1)`, [ids]), 100);
    const perTask = await db.query(`SELECT task_id, count(*)::int AS n FROM outputs WHERE task_id = ANY($1) GROUP BY task_id`, [ids]);
    assert.equal(perTask.rows.length, 100);
    assert.ok(perTask.rows.every((r) => r.n === 1), 'one output per task');
    assert.equal(await count(`SELECT count(*) AS n FROM task_jobs WHERE task_id = ANY($1)`, [ids]), 0, 'the queue is empty');
    // both workers took part
    for (const w of workers) assert.ok(w.lines.some((l) => l.msg === 'slicing'), `worker ${w.pid} sliced nothing`);
    // an output written by a worker streams from S3 through either API
    const task = await call(apis[1]!.url, `/v1/stl/tasks/${ids[0]}`, { key });
    const gcode = await call(apis[1]!.url, `/v1/output/${task.body.output.outputId}/download`, { key });
    assert.equal(gcode.status, 200);
    assert.match(gcode.text, /^;FLAVOR:/m);
    assert.ok(gcode.bytes.length > 10_000);
  });

  test('a worker killed with SIGKILL mid-slice loses no task and duplicates no output', async () => {
    const taskId = await startSlow(0);
    const holder = await leaseHolder(taskId);
    await waitForStatus(t(1), 'stl', taskId, ['running'], 30_000);
    await holder.kill('SIGKILL');
    const other = workers.find((w) => w !== holder)!;
    const done = await waitForStatus(t(1), 'stl', taskId, ['finished', 'failed'], 120_000);
    assert.equal(done.status, 'finished', JSON.stringify(done.error));
    const retried = other.lines.find((l) => l.msg === 'slicing' && l.taskId === taskId);
    assert.equal(retried?.attempt, 2, 'the surviving worker ran it as the second attempt');
    assert.equal(await count('SELECT count(*) AS n FROM outputs WHERE task_id = $1', [taskId]), 1);
    // back to two workers for the tests that follow
    workers = [other, await cluster.spawn('worker')];
  });

  test('a worker stopped with SIGTERM mid-slice hands its task back without spending an attempt', async () => {
    const taskId = await startSlow(1);
    const holder = await leaseHolder(taskId);
    await waitForStatus(t(0), 'stl', taskId, ['running'], 30_000);
    assert.equal(await holder.kill('SIGTERM'), 0, 'a graceful stop exits 0');
    const other = workers.find((w) => w !== holder)!;
    const done = await waitForStatus(t(0), 'stl', taskId, ['finished', 'failed'], 120_000);
    assert.equal(done.status, 'finished', JSON.stringify(done.error));
    const rerun = other.lines.find((l) => l.msg === 'slicing' && l.taskId === taskId);
    assert.equal(rerun?.attempt, 1, 'the hand-back is not counted as an attempt');
    assert.equal(await count('SELECT count(*) AS n FROM outputs WHERE task_id = $1', [taskId]), 1);
    workers = [other, await cluster.spawn('worker')];
  });

  test('cancel through one API stops the slice on the worker that runs it', async () => {
    const taskId = await startSlow(0);
    const holder = await leaseHolder(taskId);
    await waitForStatus(t(0), 'stl', taskId, ['running'], 30_000);
    const r = await call(apis[1]!.url, `/v1/stl/tasks/${taskId}/cancel`, { method: 'POST', key });
    assert.equal(r.body.status, 'cancelled');
    // the worker hears of it through the database and stops the slice (no timing asserted: shared CPU)
    await holder.waitForLine((l) => l.msg === 'slice stopped: task cancelled' && l.taskId === taskId, 60_000);
    await waitFor('the lease to go', async () => (await count('SELECT count(*) AS n FROM task_jobs WHERE task_id = $1', [taskId])) === 0);
    assert.equal(await count('SELECT count(*) AS n FROM outputs WHERE task_id = $1', [taskId]), 0);
  });

  test('server-sent events on one API follow a task started through the other', async () => {
    const start = await call(apis[0]!.url, '/v1/stl/tasks', { key, json: { files: files(0), settings: STL_SETTINGS } });
    const res = await fetch(`${apis[1]!.url}/v1/stl/tasks/${start.body.taskId}/events`, { headers: { 'Ocp-Apim-Subscription-Key': key } });
    assert.equal(res.status, 200);
    const text = await res.text(); // the stream ends when the task does
    const events = text
      .split('\n\n')
      .filter((b) => b.includes('data:'))
      .map((b) => ({ event: /^event: (.*)$/m.exec(b)?.[1], task: JSON.parse(/^data: (.*)$/m.exec(b)![1]!) }));
    assert.equal(events.at(-1)!.task.status, 'finished');
    assert.ok(events.some((e) => e.task.status === 'started' || e.task.status === 'running'), 'saw the task in work');
  });

  test('a 256 MiB upload and its download stream through the API processes (peak memory grows far less)', async () => {
    const total = 256 * 1024 * 1024;
    /** peak resident memory of a process so far, MiB */
    const peakRss = (p: StratumProcess) => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${p.pid}/status`, 'utf8'))![1]) / 1024;
    const [upApi, downApi] = [apis[0]!, apis[1]!];
    const upBefore = peakRss(upApi);
    const chunk = new Uint8Array(1024 * 1024).fill(59); // ';' lines: a harmless G-code comment
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= total) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const up = await fetch(`${upApi.url}/v1/upload/STL/big.stl`, {
      method: 'POST',
      body,
      headers: { 'Ocp-Apim-Subscription-Key': key, 'Content-Type': 'application/octet-stream' },
      duplex: 'half',
    } as RequestInit);
    assert.equal(up.status, 200, await up.clone().text());
    const { fileId } = (await up.json()) as { fileId: string };
    const upGrowth = peakRss(upApi) - upBefore;
    // the other API streams it back: recorded as an output (a huge G-code, as far as the API knows)
    const outputId = randomUUID();
    await db.query(
      `INSERT INTO outputs (id, account_id, task_id, output_name, format, size, blob_key, created_at)
       SELECT $1, account_id, $1, 'big.gcode', 'GCODE', size, blob_key, created_at FROM files WHERE id = $2`,
      [outputId, fileId],
    );
    const downBefore = peakRss(downApi);
    const res = await fetch(`${downApi.url}/v1/output/${outputId}/download`, { headers: { 'Ocp-Apim-Subscription-Key': key } });
    assert.equal(res.status, 200);
    let received = 0;
    for await (const c of res.body as unknown as AsyncIterable<Uint8Array>) received += c.length;
    const downGrowth = peakRss(downApi) - downBefore;
    assert.equal(received, total);
    console.log(`# 256 MiB through the APIs: peak memory +${upGrowth.toFixed(0)} MiB uploading, +${downGrowth.toFixed(0)} MiB downloading`);
    assert.ok(upGrowth < 128, `uploading 256 MiB raised the API's peak memory by ${upGrowth.toFixed(0)} MiB`);
    assert.ok(downGrowth < 128, `downloading 256 MiB raised the API's peak memory by ${downGrowth.toFixed(0)} MiB`);
    assert.equal(await count('SELECT size AS n FROM files WHERE id = $1', [fileId]), total);
  });

  test('an API process killed mid-upload leaves no file record and no object', async () => {
    const victim = await cluster.spawn('api');
    const filesBefore = await count('SELECT count(*) AS n FROM files');
    const listFiles = async () =>
      (await s3.send(new ListObjectsV2Command({ Bucket: cluster.s3.config.bucket, Prefix: 'files/' }))).KeyCount ?? 0;
    const objectsBefore = await listFiles();
    // s3rver keeps the parts of an unfinished multipart upload in …/uploads/<id>/ with a `key` file
    const unfinishedUploads = () =>
      readdirSync(cluster.s3.dir, { recursive: true, encoding: 'utf8' }).filter(
        (f) => basename(f) === 'key' && readFileSync(join(cluster.s3.dir, f), 'utf8').startsWith('files/'),
      ).length;
    const uploadsBefore = unfinishedUploads();
    // 12 MiB, slowly: the first 5 MiB part is in S3 as an unfinished multipart upload when the process dies
    const chunk = new Uint8Array(256 * 1024).fill(32);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent >= 12 * 1024 * 1024) return controller.close();
        if (sent >= 7 * 1024 * 1024) await new Promise((r) => setTimeout(r, 50));
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const req = fetch(`${victim.url}/v1/upload/STL/big.stl`, {
      method: 'POST',
      body,
      headers: { 'Ocp-Apim-Subscription-Key': key, 'Content-Type': 'application/octet-stream' },
      duplex: 'half',
    } as RequestInit).catch((e: unknown) => e);
    // kill it once its multipart upload is under way (the first part on the server, unfinished)
    await waitFor('a multipart upload to begin', async () => unfinishedUploads() > uploadsBefore, 30_000, 10);
    assert.ok(sent < 12 * 1024 * 1024, 'the body was still being sent');
    await victim.kill('SIGKILL');
    assert.ok((await req) instanceof Error, 'the upload did not complete');
    assert.equal(await count('SELECT count(*) AS n FROM files'), filesBefore);
    // ... and yet no file record and no object exist
    assert.equal(await listFiles(), objectsBefore);
  });

  test('a process with both roles (serve --role all) serves and slices', async () => {
    await Promise.all(workers.map((w) => w.kill('SIGTERM')));
    const both = await cluster.spawn('all');
    const start = await call(both.url, '/v1/stl/tasks', { key, json: { files: files(1), settings: STL_SETTINGS } });
    assert.equal(start.status, 200, start.text);
    const done = await waitForStatus({ url: apis[0]!.url, key }, 'stl', start.body.taskId, ['finished', 'failed'], 120_000);
    assert.equal(done.status, 'finished');
    assert.ok(both.lines.some((l) => l.msg === 'slicing' && l.taskId === start.body.taskId), 'the all-role process sliced it');
  });

  test('a worker with STRATUM_OPS_PORT answers /healthz, /readyz and /metrics (its own slices)', async () => {
    const port = await freePort();
    const w = await cluster.spawn('worker', { STRATUM_OPS_PORT: String(port) });
    assert.equal(w.url, `http://127.0.0.1:${port}`);
    assert.equal((await call(w.url, '/healthz')).status, 200);
    assert.deepEqual((await call(w.url, '/readyz')).body, { status: 'ready' });
    const metrics = await call(w.url, '/metrics');
    assert.equal(metrics.status, 200);
    assert.match(metrics.text, /^stratum_workers 1$/m);
    assert.match(metrics.text, /^stratum_queue_depth \d+$/m);
    assert.equal((await call(w.url, '/v1/stl/tasks', { key })).status, 404, 'no API on a worker');
    // private metrics: the key is asked for (the routes' error schemas resolve on a worker's server too)
    const privatePort = await freePort();
    const p = await cluster.spawn('worker', { STRATUM_OPS_PORT: String(privatePort), STRATUM_METRICS_PUBLIC: 'false' });
    assert.equal((await call(p.url, '/metrics')).status, 401);
    assert.equal((await call(p.url, '/metrics', { key })).status, 200);
    await p.kill('SIGTERM');
  });

  test('a process with another S3_BUCKET or S3_PREFIX than the database\'s files is refused at start', async () => {
    for (const env of [{ S3_PREFIX: 'other/' }, { S3_BUCKET: 'stratum-typo' }] as Array<Record<string, string>>) {
      const err = await cluster.spawn('worker', env).then(
        () => null,
        (e: Error) => e,
      );
      assert.ok(err, `a worker with ${JSON.stringify(env)} started`);
      assert.match(err.message, /exited \(1\)/);
      assert.match(err.message, /this database's files are stored in bucket '[^']+' under prefix '', but this process has S3_BUCKET '[^']+' and S3_PREFIX '[^']*': it would find none of them/);
    }
    // and the mistyped bucket was not made
    await assert.rejects(s3.send(new HeadBucketCommand({ Bucket: 'stratum-typo' })));
  });

  test('a process whose S3_ENDPOINT reaches another store is refused at start, and makes no bucket there', async () => {
    // the database names stored files (the cubes uploaded before); the other store has no 'stratum'
    // bucket, then an empty one: a worker there made the bucket and failed every task it took
    const other = await startS3('unrelated');
    try {
      const otherS3 = new S3Client({ endpoint: other.config.endpoint, region: other.config.region, forcePathStyle: true, credentials: { accessKeyId: other.config.accessKeyId!, secretAccessKey: other.config.secretAccessKey! } });
      const env = { S3_ENDPOINT: other.env.S3_ENDPOINT! };
      const missing = await cluster.spawn('worker', env).then(() => null, (e: Error) => e);
      assert.ok(missing, 'a worker on another store started');
      assert.match(missing.message, /exited \(1\)/);
      assert.match(missing.message, /bucket '[^']+': there is no bucket/);
      await assert.rejects(otherS3.send(new HeadBucketCommand({ Bucket: cluster.s3.env.S3_BUCKET })), 'no bucket was made on the other store');
      const empty = await startS3(cluster.s3.env.S3_BUCKET);
      try {
        const refused = await cluster.spawn('worker', { S3_ENDPOINT: empty.env.S3_ENDPOINT! }).then(() => null, (e: Error) => e);
        assert.ok(refused, 'a worker on an empty bucket of the same name started');
        assert.match(refused.message, /holds none of the newest files this database names/);
      } finally {
        await empty.stop();
      }
      otherS3.destroy();
    } finally {
      await other.stop();
    }
  });

  test('a new, empty database beside a bucket of stored files is refused, and left empty', async () => {
    const lostUrl = await cluster.pgServer.createDatabase('stratum_lost');
    const lost = new pg.Pool({ connectionString: lostUrl, max: 1 });
    try {
      for (const role of ['api', 'worker'] as const) {
        const err = await cluster.spawn(role, { DATABASE_URL: lostUrl }).then(
          () => null,
          (e: Error) => e,
        );
        assert.ok(err, `the ${role} process started on an empty database beside stored files`);
        assert.match(err.message, /exited \(1\)/);
        assert.match(err.message, /has no Stratum schema, but bucket '[^']+' holds stored files \(files\/[^)]+\)/);
        assert.match(err.message, /Point DATABASE_URL at the database that names them/);
        assert.doesNotMatch(err.message, /\n\s+at /, 'no stack trace');
      }
      const tables = await lost.query(`SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = 'public'`);
      assert.equal(Number(tables.rows[0].n), 0, 'the refusal rolled the schema back');
      // the same database under a prefix with nothing stored starts empty, as the message says
      const fresh = await cluster.spawn('api', { DATABASE_URL: lostUrl, S3_PREFIX: `fresh-${randomUUID()}` });
      assert.equal((await call(fresh.url, '/readyz')).status, 200);
      await fresh.kill('SIGTERM');
    } finally {
      await lost.end();
    }
    // the cluster's own files are all still there
    assert.equal(await count('SELECT count(*) AS n FROM files WHERE id = ANY($1)', [fileOn]), 2);
  });
});
