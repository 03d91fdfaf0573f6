// JobQueue on PostgreSQL: pg-boss 10 for the waiting line, a lease table of ours for the rest.
//
// Why both: pg-boss's pull API (`send`, `fetch`, `complete`) gives a FIFO line with SKIP LOCKED
// claims, priorities and one waiting job per key (the `short` policy with `singletonKey`), but it
// has no heartbeat (a job's expiry is fixed when it is sent) and its retry counter cannot tell a
// counted attempt from a graceful release. The lease contract of the embedded queue needs both. So:
//  - `task_jobs` (migration 001) holds one row per queued or running task: state, attempts, lease
//    owner and deadline. It is the truth about who may run a task.
//  - a pg-boss job is a *ticket* in the line for a queued row. Claiming fetches the next ticket,
//    turns the row into a lease and completes the ticket, all in ONE transaction (pg-boss accepts
//    our client through its `db` option): a claimer that dies mid-claim rolls back and leaves the
//    ticket waiting. Retry, release and lease recovery put the row back with a new ticket, at the
//    front (priority 1) since the task was next in line before.
//  - The line is fair between accounts, as in the embedded queue (sqlite-job-queue.ts says how): a
//    new ticket's priority is minus its slot (pg-boss takes the highest priority first, then the
//    oldest), and a claim moves the line's clock (queue_clock) to the claimed job's slot. A removed
//    (cancelled) task gives its account's unused slots back.
//  - Lease deadlines use the database's clock, so machines whose clocks differ agree on expiry.
//  - Heartbeat, complete, retry and release match on the owner: once a lease expired and was taken
//    back, the old owner's calls change nothing (heartbeat answers false). `completeHeld` tells the
//    caller whether it still held the lease, and `finishHeld` runs the caller's final write in the
//    same transaction, so a task's result is written by its lease holder exactly once.
import type pg from 'pg';
import PgBoss from 'pg-boss';
import type { ClaimedJob, JobQueue, RecoveredJobs } from '../../service/ports.js';
import { withTransaction } from './pg-pool.js';

export const BOSS_QUEUE = 'stratum-tasks';
/** an arbitrary constant naming "pg-boss is being started" among advisory locks */
const BOSS_START_LOCK = 0x53544d42; // 'STMB'
/** tickets of recovered, retried or released tasks go before new ones (whose priority is -slot) */
const FRONT = 1;
/** pg-boss's priority is a 32-bit integer: slots beyond that share the last priority */
const LOWEST_PRIORITY = -(2 ** 31 - 1);

type Queryable = Pick<pg.ClientBase, 'query'>;

/** a schema name as a quoted SQL identifier */
const pgIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

const asBossDb = (c: Queryable): PgBoss.Db => ({ executeSql: (text, values) => c.query(text, values) });

export class PgJobQueue implements JobQueue {
  private constructor(
    private readonly pool: pg.Pool,
    private readonly boss: PgBoss,
    /** pg-boss's schema, quoted for SQL */
    private readonly bossSchema: string,
  ) {}

  /**
   * Starts pg-boss on the pool (it creates or migrates its own schema under its own lock) and
   * makes sure the queue exists. Call `stop` at shutdown.
   */
  static async open(pool: pg.Pool, opts: { bossSchema?: string; supervise?: boolean } = {}): Promise<PgJobQueue> {
    const boss = new PgBoss({
      db: asBossDb(pool),
      schema: opts.bossSchema ?? 'pgboss',
      schedule: false,
      // archiving of used tickets; one process at a time does it (pg-boss takes a lock)
      supervise: opts.supervise ?? true,
      migrate: true,
      // a used ticket is worth nothing: keep pg-boss's job table small
      archiveCompletedAfterSeconds: 600,
      deleteAfterHours: 1,
    });
    boss.on('error', () => {}); // maintenance errors are retried by pg-boss; never crash the process
    // pg-boss's first start creates its schema without a lock (two processes starting at once
    // on a new database collide on CREATE SCHEMA): one process at a time starts it
    const lock = await pool.connect();
    try {
      await lock.query('SELECT pg_advisory_lock($1)', [BOSS_START_LOCK]);
      await boss.start();
      if (!(await boss.getQueue(BOSS_QUEUE))) await boss.createQueue(BOSS_QUEUE, { name: BOSS_QUEUE, policy: 'short' });
    } catch (err) {
      await boss.stop({ graceful: false, wait: true, close: false }).catch(() => {});
      throw err;
    } finally {
      await lock.query('SELECT pg_advisory_unlock($1)', [BOSS_START_LOCK]).catch(() => {});
      lock.release();
    }
    return new PgJobQueue(pool, boss, pgIdent(opts.bossSchema ?? 'pgboss'));
  }

  async stop(): Promise<void> {
    await this.boss.stop({ graceful: false, wait: true, close: false });
  }

  /** puts a waiting ticket for the task in pg-boss's line and records it on the row */
  private async issueTicket(c: Queryable, taskId: string, priority: number): Promise<void> {
    const send = () => this.boss.send(BOSS_QUEUE, { taskId }, { singletonKey: taskId, priority, db: asBossDb(c) });
    let ticket = await send();
    if (!ticket) {
      // the `short` policy refused: a waiting ticket for this task that no row points to any more
      // (only if someone edited the tables by hand). Drop it and issue ours.
      await c.query(`DELETE FROM ${this.bossSchema}.job WHERE name = $1 AND singleton_key = $2 AND state = 'created'`, [
        BOSS_QUEUE,
        taskId,
      ]);
      ticket = await send();
      if (!ticket) throw new Error(`pg-boss refused a ticket for task ${taskId}`);
    }
    await c.query('UPDATE task_jobs SET ticket_id = $2 WHERE task_id = $1', [taskId, ticket]);
  }

  async enqueue(taskId: string): Promise<void> {
    await withTransaction(this.pool, async (c) => {
      const r = await c.query(
        `INSERT INTO task_jobs (task_id, state, attempts) VALUES ($1, 'queued', 0) ON CONFLICT (task_id) DO NOTHING`,
        [taskId],
      );
      if (!r.rowCount) return;
      // the account's slot: its next one, or the line's "now" if that is later (an idle account)
      const slot = await c.query<{ slot: string }>(
        `INSERT INTO queue_accounts (account_id, next_slot)
           VALUES (coalesce((SELECT account_id FROM tasks WHERE id = $1), ''), (SELECT slot FROM queue_clock) + 1)
         ON CONFLICT (account_id) DO UPDATE
           SET next_slot = greatest(queue_accounts.next_slot, (SELECT slot FROM queue_clock)) + 1
         RETURNING next_slot - 1 AS slot`,
        [taskId],
      );
      const n = Number(slot.rows[0]!.slot);
      await c.query('UPDATE task_jobs SET slot = $2 WHERE task_id = $1', [taskId, n]);
      await this.issueTicket(c, taskId, Math.max(-n, LOWEST_PRIORITY));
    });
  }

  async claim(owner: string, leaseMs: number): Promise<ClaimedJob | null> {
    // a ticket can be stale (its task removed and queued again): skip it and fetch the next one
    for (let tries = 0; tries < 10; tries++) {
      const out = await withTransaction(this.pool, async (c) => {
        const [ticket] = await this.boss.fetch<{ taskId: string }>(BOSS_QUEUE, { batchSize: 1, db: asBossDb(c) });
        if (!ticket) return null;
        // (pg-boss 10 reads a third argument as the job's output, whatever its types say: the
        // connection goes fourth, or the completion ran on another connection and completed nothing,
        // and every ticket came back from pg-boss's expiry 15 minutes on to slow claims down)
        await this.boss.complete(BOSS_QUEUE, ticket.id, {}, { db: asBossDb(c) });
        const r = await c.query<{ attempts: number; slot: string }>(
          `UPDATE task_jobs SET state = 'leased', attempts = attempts + 1, ticket_id = NULL, lease_owner = $3,
             lease_until = clock_timestamp() + $4 * interval '1 millisecond'
           WHERE task_id = $1 AND state = 'queued' AND ticket_id = $2
           RETURNING attempts, slot`,
          [ticket.data.taskId, ticket.id, owner, leaseMs],
        );
        const row = r.rows[0];
        if (!row) return 'stale' as const;
        await c.query('UPDATE queue_clock SET slot = greatest(slot, $1) WHERE id = 1', [row.slot]);
        return { taskId: ticket.data.taskId, attempts: row.attempts };
      });
      if (out !== 'stale') return out;
    }
    return null;
  }

  async heartbeat(taskId: string, owner: string, leaseMs: number): Promise<boolean> {
    const r = await this.pool.query(
      `UPDATE task_jobs SET lease_until = clock_timestamp() + $3 * interval '1 millisecond'
       WHERE task_id = $1 AND state = 'leased' AND lease_owner = $2`,
      [taskId, owner, leaseMs],
    );
    return (r.rowCount ?? 0) > 0;
  }

  async complete(taskId: string, owner: string): Promise<void> {
    await this.completeHeld(taskId, owner);
  }

  /** `complete` that says whether `owner` still held the lease (false: someone else runs it now) */
  async completeHeld(taskId: string, owner: string): Promise<boolean> {
    const r = await this.pool.query(`DELETE FROM task_jobs WHERE task_id = $1 AND state = 'leased' AND lease_owner = $2`, [
      taskId,
      owner,
    ]);
    return (r.rowCount ?? 0) > 0;
  }

  /**
   * Completes the job and runs `write` (e.g. the task's final status update, on the same client)
   * in one transaction, only while `owner` holds the lease. Returns `write`'s result, or null
   * (nothing written) when the lease was lost. Exactly-once completion across processes.
   */
  async finishHeld<T>(taskId: string, owner: string, write: (client: pg.PoolClient) => Promise<T>): Promise<T | null> {
    return withTransaction(this.pool, async (c) => {
      const r = await c.query(`DELETE FROM task_jobs WHERE task_id = $1 AND state = 'leased' AND lease_owner = $2`, [
        taskId,
        owner,
      ]);
      if (!r.rowCount) return null;
      return write(c);
    });
  }

  async retry(taskId: string, owner: string): Promise<void> {
    await this.requeueHeld(taskId, owner, 0);
  }

  async release(taskId: string, owner: string): Promise<void> {
    await this.requeueHeld(taskId, owner, -1);
  }

  /** the owner's leased job back to the line; `attemptDelta` -1 un-counts the attempt */
  private async requeueHeld(taskId: string, owner: string, attemptDelta: number): Promise<void> {
    await withTransaction(this.pool, async (c) => {
      const r = await c.query(
        `UPDATE task_jobs SET state = 'queued', attempts = greatest(attempts + $3, 0), lease_owner = NULL, lease_until = NULL
         WHERE task_id = $1 AND state = 'leased' AND lease_owner = $2`,
        [taskId, owner, attemptDelta],
      );
      if (r.rowCount) await this.issueTicket(c, taskId, FRONT);
    });
  }

  async remove(taskId: string): Promise<void> {
    await withTransaction(this.pool, async (c) => {
      const r = await c.query<{ ticket_id: string | null }>('DELETE FROM task_jobs WHERE task_id = $1 RETURNING ticket_id', [
        taskId,
      ]);
      if (!r.rowCount) return;
      const ticket = r.rows[0]?.ticket_id;
      if (ticket) await this.boss.deleteJob(BOSS_QUEUE, ticket, { db: asBossDb(c) });
      await this.giveSlotsBack(c, taskId);
    });
  }

  /**
   * The removed task's account gets its unused slots back (as in the embedded queue): its next slot
   * becomes one past its last job still in the line. The account's row is locked first, so that an
   * enqueue of the same account in flight commits before the next statement (a new snapshot under
   * READ COMMITTED) looks for the account's last job.
   */
  private async giveSlotsBack(c: Queryable, taskId: string): Promise<void> {
    const acc = await c.query<{ account_id: string }>(
      `SELECT account_id FROM queue_accounts
       WHERE account_id = coalesce((SELECT account_id FROM tasks WHERE id = $1), '') FOR UPDATE`,
      [taskId],
    );
    const account = acc.rows[0]?.account_id;
    if (account === undefined) return;
    await c.query(
      `UPDATE queue_accounts SET next_slot = least(next_slot, coalesce(
         (SELECT max(j.slot) + 1 FROM task_jobs j JOIN tasks t ON t.id = j.task_id WHERE t.account_id = $1), 0))
       WHERE account_id = $1`,
      [account],
    );
  }

  /**
   * Leases past their deadline (by the database's clock; `now` is not used, so a worker with a
   * fast clock cannot take live leases) go back to the line, or out at `maxAttempts`. Several
   * processes may run this at once: each expired lease is recovered by one of them.
   */
  async recoverExpired(_now: number, maxAttempts: number): Promise<RecoveredJobs> {
    return withTransaction(this.pool, async (c) => {
      const rows = (
        await c.query<{ task_id: string; attempts: number }>(
          `SELECT task_id, attempts FROM task_jobs WHERE state = 'leased' AND lease_until <= clock_timestamp()
           ORDER BY lease_until FOR UPDATE SKIP LOCKED`,
        )
      ).rows;
      const out: RecoveredJobs = { requeued: [], exhausted: [] };
      for (const r of rows) {
        if (r.attempts >= maxAttempts) {
          await c.query('DELETE FROM task_jobs WHERE task_id = $1', [r.task_id]);
          out.exhausted.push(r.task_id);
        } else {
          await c.query(
            `UPDATE task_jobs SET state = 'queued', lease_owner = NULL, lease_until = NULL WHERE task_id = $1`,
            [r.task_id],
          );
          await this.issueTicket(c, r.task_id, FRONT);
          out.requeued.push(r.task_id);
        }
      }
      // self-repair: a waiting row whose ticket is gone (pg-boss's tables edited or restored
      // apart from ours) would never be claimed; give it a new one
      const orphans = (
        await c.query<{ task_id: string }>(
          `SELECT task_id FROM task_jobs j WHERE state = 'queued' AND NOT EXISTS (
             SELECT 1 FROM ${this.bossSchema}.job b WHERE b.name = $1 AND b.id = j.ticket_id AND b.state < 'active')
           FOR UPDATE SKIP LOCKED`,
          [BOSS_QUEUE],
        )
      ).rows;
      for (const r of orphans) await this.issueTicket(c, r.task_id, FRONT);
      return out;
    });
  }

  async depth(): Promise<number> {
    const r = await this.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM task_jobs WHERE state = 'queued'`);
    return r.rows[0]!.n;
  }

  async has(taskId: string): Promise<boolean> {
    return ((await this.pool.query('SELECT 1 FROM task_jobs WHERE task_id = $1', [taskId])).rowCount ?? 0) > 0;
  }
}
