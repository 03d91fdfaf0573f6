// JobQueue on the embedded database: a jobs table with leases. A claim takes the first job in the
// line and stamps it with the owner and a lease deadline in one statement; a job whose owner died
// (lease expired, or the embedded server restarted) goes back to the front with its attempt count.
//
// The line is fair between accounts (start-time fair queuing): a job's slot is its account's next
// slot, but never behind the slot of the job claimed last (the line's "now"). So an account's jobs
// keep their order, one that queues a thousand tasks does not hold up another's next task behind
// all of them (their jobs alternate, slot by slot), and an account that was idle starts at "now",
// with no credit for the time it queued nothing. The account is the task's (tasks.account_id).
// A removed job (a cancelled task) gives its account's unused slots back: the account's next slot
// becomes one past its last job still in the line, so cancelling a batch does not leave the account
// queuing behind the slots of tasks that will never run.
import type { ClaimedJob, JobQueue, RecoveredJobs } from '../../service/ports.js';
import type { SqliteDatabase } from './open-database.js';

export class SqliteJobQueue implements JobQueue {
  private readonly s;

  constructor(private readonly db: SqliteDatabase) {
    this.s = {
      // the account's slot: its next one, or the line's "now" if that is later (an idle account)
      takeSlot: db.prepare(
        `INSERT INTO queue_accounts (account_id, next_slot)
           VALUES (coalesce((SELECT account_id FROM tasks WHERE id = @task), ''), (SELECT slot FROM queue_clock) + 1)
         ON CONFLICT (account_id) DO UPDATE SET next_slot = max(next_slot, (SELECT slot FROM queue_clock)) + 1
         RETURNING next_slot - 1 AS slot`,
      ),
      enqueue: db.prepare(
        `INSERT INTO jobs (task_id, seq, slot, state, attempts)
           VALUES (@task, (SELECT coalesce(max(seq), 0) + 1 FROM jobs), @slot, 'queued', 0)`,
      ),
      claim: db.prepare(
        `UPDATE jobs SET state = 'leased', attempts = attempts + 1, lease_owner = @owner, lease_until = @until
         WHERE task_id = (SELECT task_id FROM jobs WHERE state = 'queued' ORDER BY slot, seq LIMIT 1)
         RETURNING task_id, attempts, slot`,
      ),
      advanceClock: db.prepare('UPDATE queue_clock SET slot = max(slot, ?) WHERE id = 1'),
      heartbeat: db.prepare(
        `UPDATE jobs SET lease_until = ? WHERE task_id = ? AND state = 'leased' AND lease_owner = ?`,
      ),
      complete: db.prepare(`DELETE FROM jobs WHERE task_id = ? AND lease_owner = ?`),
      release: db.prepare(
        `UPDATE jobs SET state = 'queued', attempts = max(attempts - 1, 0), lease_owner = NULL, lease_until = NULL
         WHERE task_id = ? AND state = 'leased' AND lease_owner = ?`,
      ),
      retry: db.prepare(
        `UPDATE jobs SET state = 'queued', lease_owner = NULL, lease_until = NULL
         WHERE task_id = ? AND state = 'leased' AND lease_owner = ?`,
      ),
      remove: db.prepare('DELETE FROM jobs WHERE task_id = ?'),
      accountOf: db.prepare(`SELECT coalesce((SELECT account_id FROM tasks WHERE id = ?), '') AS account`),
      giveSlotsBack: db.prepare(
        `UPDATE queue_accounts SET next_slot = min(next_slot, coalesce(
           (SELECT max(j.slot) + 1 FROM jobs j JOIN tasks t ON t.id = j.task_id WHERE t.account_id = @account), 0))
         WHERE account_id = @account`,
      ),
      expired: db.prepare(`SELECT task_id, attempts FROM jobs WHERE state = 'leased' AND lease_until <= ?`),
      leasedNotBy: db.prepare(`SELECT task_id, attempts FROM jobs WHERE state = 'leased' AND lease_owner <> ?`),
      requeue: db.prepare(
        `UPDATE jobs SET state = 'queued', lease_owner = NULL, lease_until = NULL,
           slot = (SELECT coalesce(min(slot), 0) - 1 FROM jobs), seq = (SELECT coalesce(min(seq), 1) - 1 FROM jobs)
         WHERE task_id = ?`,
      ),
      depth: db.prepare(`SELECT count(*) AS n FROM jobs WHERE state = 'queued'`),
      has: db.prepare('SELECT 1 FROM jobs WHERE task_id = ?'),
    };
    const s = this.s;
    this.enqueueTx = db.transaction((task: string) => {
      // once only (a job already waiting or leased keeps its place, and its account's slots stay)
      if (s.has.get(task) !== undefined) return;
      const { slot } = s.takeSlot.get({ task }) as { slot: number };
      s.enqueue.run({ task, slot });
    });
    this.removeTx = db.transaction((task: string) => {
      if (s.remove.run(task).changes === 0) return;
      const { account } = s.accountOf.get(task) as { account: string };
      s.giveSlotsBack.run({ account });
    });
    this.claimTx = db.transaction((owner: string, until: number) => {
      const r = s.claim.get({ owner, until }) as { task_id: string; attempts: number; slot: number } | undefined;
      if (r) s.advanceClock.run(r.slot);
      return r;
    });
  }

  private readonly enqueueTx: (task: string) => void;
  private readonly removeTx: (task: string) => void;
  private readonly claimTx: (owner: string, until: number) => { task_id: string; attempts: number; slot: number } | undefined;

  async enqueue(taskId: string): Promise<void> {
    this.enqueueTx(taskId);
  }

  async claim(owner: string, leaseMs: number): Promise<ClaimedJob | null> {
    const r = this.claimTx(owner, Date.now() + leaseMs);
    return r ? { taskId: r.task_id, attempts: r.attempts } : null;
  }


  async heartbeat(taskId: string, owner: string, leaseMs: number): Promise<boolean> {
    return this.s.heartbeat.run(Date.now() + leaseMs, taskId, owner).changes > 0;
  }

  async complete(taskId: string, owner: string): Promise<void> {
    this.s.complete.run(taskId, owner);
  }

  async retry(taskId: string, owner: string): Promise<void> {
    this.s.retry.run(taskId, owner);
  }

  async release(taskId: string, owner: string): Promise<void> {
    this.s.release.run(taskId, owner);
  }

  async remove(taskId: string): Promise<void> {
    this.removeTx(taskId);
  }

  async recoverExpired(now: number, maxAttempts: number): Promise<RecoveredJobs> {
    return this.recover(this.s.expired.all(now) as { task_id: string; attempts: number }[], maxAttempts);
  }

  /**
   * Embedded mode only: one server owns the database, so at its start every lease held by another
   * owner belongs to a process that is gone: recover those jobs at once instead of waiting out the lease.
   */
  async recoverAbandoned(currentOwner: string, maxAttempts: number): Promise<RecoveredJobs> {
    return this.recover(this.s.leasedNotBy.all(currentOwner) as { task_id: string; attempts: number }[], maxAttempts);
  }

  private recover(rows: { task_id: string; attempts: number }[], maxAttempts: number): RecoveredJobs {
    const out: RecoveredJobs = { requeued: [], exhausted: [] };
    this.db.transaction(() => {
      for (const r of rows) {
        if (r.attempts >= maxAttempts) {
          this.s.remove.run(r.task_id);
          out.exhausted.push(r.task_id);
        } else {
          // interrupted work goes to the front: it was next in line before
          this.s.requeue.run(r.task_id);
          out.requeued.push(r.task_id);
        }
      }
    })();
    return out;
  }

  async depth(): Promise<number> {
    return (this.s.depth.get() as { n: number }).n;
  }

  async has(taskId: string): Promise<boolean> {
    return this.s.has.get(taskId) !== undefined;
  }
}
