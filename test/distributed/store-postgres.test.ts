// The shared store contract on PostgreSQL (a throw-away server started by scripts/dist/postgres.sh),
// plus what only the distributed adapters do: concurrent migrations, exactly-once finishing by the
// lease holder, and the event bus surviving a lost LISTEN connection.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { toApiError } from '../../src/api/errors.js';
import { MetadataStoreUnavailableError } from '../../src/service/ports.js';
import { openDistributedStores, type DistributedStores } from '../../src/store/distributed-stores.js';
import { applyMigrations } from '../../src/store/postgres/migrate.js';
import { openPool, withTransaction } from '../../src/store/postgres/pg-pool.js';
import { MIGRATIONS } from '../../src/store/postgres/migrations/index.js';
import { contractTask, storeContract } from '../store-contract.js';
import { startPgServer, type PgServer } from './pg-server.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let server: PgServer;
before(async () => {
  server = await startPgServer();
});
after(async () => {
  await server?.stop();
});

storeContract({
  name: 'PostgreSQL',
  eventsCrossProcesses: true,
  async open() {
    const url = await server.createDatabase();
    const s = await openDistributedStores(url);
    return {
      ...s,
      // another process: its own pool, pg-boss instance and LISTEN connection on the same database
      peer: () => openDistributedStores(url),
    };
  },
});

describe('PostgreSQL stores (distributed only)', () => {
  let url: string;
  let s: DistributedStores;
  before(async () => {
    url = await server.createDatabase();
  });
  after(async () => {
    await s?.close();
  });

  test('processes starting at once apply the migrations once', async () => {
    const settled = await Promise.allSettled([openDistributedStores(url), openDistributedStores(url), openDistributedStores(url)]);
    const opened = settled.filter((r) => r.status === 'fulfilled').map((r) => r.value);
    s = opened[0]!;
    for (const o of opened.slice(1)) await o.close();
    assert.deepEqual(settled.filter((r) => r.status === 'rejected').map((r) => String(r.reason)), [], 'every process starts');
    const rows = (await s.pool.query('SELECT version FROM schema_migrations ORDER BY version')).rows;
    assert.deepEqual(rows.map((r) => r.version), MIGRATIONS.map((m) => m.version));
    assert.deepEqual(await applyMigrations(s.pool), [], 'an up-to-date schema is left alone');
  });

  test('only the lease holder finishes a task, once', async () => {
    await s.metadata.insertTask(contractTask('fin', 'acc'));
    await s.queue.enqueue('fin');
    await s.queue.claim('slow-worker', 1);
    await sleep(5);
    await s.queue.recoverExpired(Date.now(), 3);
    assert.deepEqual(await s.queue.claim('next-worker', 60_000), { taskId: 'fin', attempts: 2 });
    const finish = (owner: string) =>
      s.queue.finishHeld('fin', owner, async (c) => {
        await c.query(`UPDATE tasks SET status = 'finished', end_date = $2 WHERE id = $1`, ['fin', owner]);
        return owner;
      });
    // the old owner comes back late, at the same time as the holder finishes
    const results = await Promise.all([finish('slow-worker'), finish('next-worker'), finish('next-worker')]);
    assert.deepEqual(results, [null, 'next-worker', null]);
    assert.equal((await s.metadata.getTask('fin'))?.endDate, 'next-worker');
    assert.equal(await s.queue.has('fin'), false);
    assert.equal(await s.queue.completeHeld('fin', 'next-worker'), false, 'already completed');
  });

  test('a claimed ticket is completed in pg-boss in the claim itself (none left active to expire and come back)', async () => {
    await s.queue.enqueue('done-ticket');
    assert.deepEqual(await s.queue.claim('w', 60_000), { taskId: 'done-ticket', attempts: 1 });
    const states = await s.pool.query(`SELECT state FROM pgboss.job WHERE name = 'stratum-tasks' AND singleton_key = 'done-ticket'`);
    assert.deepEqual(states.rows.map((r) => r.state), ['completed']);
    await s.queue.complete('done-ticket', 'w');
    const active = await s.pool.query(`SELECT count(*) AS n FROM pgboss.job WHERE name = 'stratum-tasks' AND state = 'active'`);
    assert.equal(Number(active.rows[0].n), 0);
  });

  test('a server that takes the connection and never answers: the readiness ping gives up in 2 s, a connect in 10 s', async () => {
    const { startBlackhole } = await import('./blackhole.js');
    const hole = await startBlackhole();
    const pool = openPool(`postgres://u:p@127.0.0.1:${hole.port}/db`);
    try {
      const { PgMetadataStore } = await import('../../src/store/postgres/pg-metadata-store.js');
      let t0 = Date.now();
      await assert.rejects(new PgMetadataStore(pool).ping(), (e: Error) => e instanceof MetadataStoreUnavailableError && /no answer within 2000 ms/.test(e.message));
      assert.ok(Date.now() - t0 < 4_000, `ping took ${Date.now() - t0} ms`);
      t0 = Date.now();
      await assert.rejects(withTransaction(pool, async () => 1), (e: Error) => e instanceof MetadataStoreUnavailableError && /connection timeout|timeout exceeded when trying to connect/.test(e.message));
      assert.ok(Date.now() - t0 < 15_000, `connect took ${Date.now() - t0} ms`);
    } finally {
      await pool.end().catch(() => {});
      await hole.close();
    }
  });

  test('work done one process at a time: a second holder is turned away at once, and the lock is free after', async () => {
    const { whileHolding, SWEEP_LOCK } = await import('../../src/store/postgres/advisory-lock.js');
    const other = openPool(url);
    try {
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      const first = whileHolding(s.pool, SWEEP_LOCK, async () => {
        await held;
        return 'first';
      });
      await sleep(50);
      assert.equal(await whileHolding(other, SWEEP_LOCK, async () => 'second'), null, 'another process is turned away');
      release();
      assert.equal(await first, 'first');
      assert.equal(await whileHolding(other, SWEEP_LOCK, async () => 'after'), 'after');
      // a failure frees it too
      await assert.rejects(whileHolding(s.pool, SWEEP_LOCK, async () => Promise.reject(new Error('sweep failed'))), /sweep failed/);
      assert.equal(await whileHolding(other, SWEEP_LOCK, async () => 'free'), 'free');
    } finally {
      await other.end();
    }
  });

  test('a claim that dies inside its transaction leaves the job waiting', async () => {
    await s.queue.enqueue('half');
    // what a claimer does before its process dies: fetch the ticket, never commit
    const c = await s.pool.connect();
    await c.query('BEGIN');
    const fetched = await c.query(`SELECT id FROM pgboss.job WHERE name = 'stratum-tasks' AND state = 'created' FOR UPDATE SKIP LOCKED`);
    assert.equal(fetched.rowCount, 1);
    assert.equal(await s.queue.claim('other', 60_000), null, 'the ticket is locked meanwhile');
    await c.query('ROLLBACK');
    c.release();
    assert.deepEqual(await s.queue.claim('other', 60_000), { taskId: 'half', attempts: 1 });
    await s.queue.complete('half', 'other');
  });

  test('a waiting job whose pg-boss ticket vanished is given a new one by recovery', async () => {
    await s.queue.enqueue('orphan');
    await s.pool.query(`DELETE FROM pgboss.job WHERE name = 'stratum-tasks' AND singleton_key = 'orphan'`);
    assert.equal(await s.queue.claim('w', 60_000), null, 'no ticket, no claim');
    assert.deepEqual(await s.queue.recoverExpired(Date.now(), 3), { requeued: [], exhausted: [] });
    assert.deepEqual(await s.queue.claim('w', 60_000), { taskId: 'orphan', attempts: 1 });
    await s.queue.complete('orphan', 'w');
  });

  test('claim latency on an idle queue', async (t) => {
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      await s.queue.enqueue(`lat-${i}`);
      const t0 = performance.now();
      const job = await s.queue.claim('w', 60_000);
      times.push(performance.now() - t0);
      assert.equal(job?.taskId, `lat-${i}`);
      await s.queue.complete(`lat-${i}`, 'w');
    }
    times.sort((a, b) => a - b);
    t.diagnostic(`claim: median ${times[10]!.toFixed(1)} ms, max ${times[19]!.toFixed(1)} ms`);
    assert.ok(times[10]! < 200, 'a claim is one short transaction, not a polling interval');
  });

  test('events keep flowing after the LISTEN connection is killed', async () => {
    const peer = await openDistributedStores(url);
    try {
      const got: number[] = [];
      peer.events.subscribe('ev', (task) => got.push(task.progress));
      s.events.publish(contractTask('ev', 'acc', { progress: 0.1 }));
      for (let i = 0; i < 100 && got.length < 1; i++) await sleep(10);
      assert.deepEqual(got, [0.1]);
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      // every LISTEN connection on this database (both buses') is cut
      const killed = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'stratum-events' AND datname = current_database()`,
      );
      await admin.end();
      assert.ok((killed.rowCount ?? 0) >= 2);
      await s.metadata.insertTask(contractTask('ev', 'acc', { progress: 0.2 }));
      // on reconnecting, the bus reads the watched task back (a notification may have been missed)
      for (let i = 0; i < 300 && !got.includes(0.2); i++) await sleep(10);
      assert.ok(got.includes(0.2), `caught up after the reconnect: ${got.join(' ')}`);
      s.events.publish(contractTask('ev', 'acc', { progress: 0.3 }));
      for (let i = 0; i < 300 && !got.includes(0.3); i++) await sleep(10);
      assert.equal(got[got.length - 1], 0.3, 'live again');
    } finally {
      await peer.close();
    }
  });

  test('a LISTEN connection that goes quiet without breaking is found by its probe and made again', async () => {
    // a half-open connection (a NAT or a failover dropped it silently): the server process is
    // stopped, so the socket stays open and nothing arrives; the clients' event streams waited
    const peer = await openDistributedStores(url, { eventProbeMs: 300 });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    let stopped = 0;
    try {
      const got: number[] = [];
      peer.events.subscribe('quiet', (task) => got.push(task.progress));
      const newest = await admin.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE application_name = 'stratum-events' AND datname = current_database() ORDER BY backend_start DESC LIMIT 1`,
      );
      stopped = newest.rows[0]!.pid;
      process.kill(stopped, 'SIGSTOP');
      await s.metadata.insertTask(contractTask('quiet', 'acc', { progress: 0.4 }));
      s.events.publish(contractTask('quiet', 'acc', { progress: 0.4 }));
      for (let i = 0; i < 500 && !got.includes(0.4); i++) await sleep(10);
      assert.ok(got.includes(0.4), `the event arrived after the probe made the connection again: ${got.join(' ')}`);
    } finally {
      if (stopped) process.kill(stopped, 'SIGCONT');
      await admin.end();
      await peer.close();
    }
  });

  test('a connection lost while checked out (inside a transaction) fails that transaction, not the process', async () => {
    const errors: unknown[] = [];
    const pool = openPool(url, { applicationName: 'stratum-checked-out', onError: (err) => errors.push(err) });
    try {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      const outcome = withTransaction(pool, async (client) => {
        await client.query('SELECT 1');
        // the server drops this connection between two queries of the transaction: pg emits 'error'
        // on the checked-out client, which had no listener and ended the process (a worker, for good)
        await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'stratum-checked-out'`);
        await sleep(200);
        await client.query('SELECT 2');
      });
      // as a lost database (the API answers 503 SF000), not a query's own error (500)
      await assert.rejects(outcome, (err: unknown) => err instanceof MetadataStoreUnavailableError && toApiError(err).httpStatus === 503);
      await admin.end();
      assert.ok(errors.length >= 1, 'the lost connection was reported');
      // the pool dropped the dead client and serves the next query
      assert.equal((await pool.query('SELECT 3 AS n')).rows[0].n, 3);
    } finally {
      await pool.end();
    }
  });

  test('a database that cannot be reached is MetadataStoreUnavailableError (503); a query\'s own error stays itself', async () => {
    const gone = openPool('postgres://nobody@127.0.0.1:9/none', { applicationName: 'stratum-gone' });
    try {
      await assert.rejects(gone.query('SELECT 1'), (err: unknown) => err instanceof MetadataStoreUnavailableError && toApiError(err).code === 'SF000' && toApiError(err).httpStatus === 503);
      await assert.rejects(withTransaction(gone, async () => undefined), MetadataStoreUnavailableError);
    } finally {
      await gone.end();
    }
    const pool = openPool(url, { applicationName: 'stratum-syntax' });
    try {
      await assert.rejects(pool.query('SELEC 1'), (err: unknown) => !(err instanceof MetadataStoreUnavailableError) && (err as { code?: string }).code === '42601');
    } finally {
      await pool.end();
    }
  });
});
