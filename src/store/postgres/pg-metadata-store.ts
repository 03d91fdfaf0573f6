// MetadataStore on PostgreSQL: the same semantics as the embedded SQLite store (compare-and-set
// task updates, newest-first paging with opaque cursors, expiry queries, keys and tokens), for
// many API and worker processes sharing one database. No task cache: other processes write too.
import type pg from 'pg';
import type {
  AccessTokenRecord,
  Account,
  ApiKeyRecord,
  FileRecord,
  OutputRecord,
  TaskKind,
  TaskRecord,
  TaskStatus,
} from '../../service/model.js';
import { ACTIVE_STATUSES, patchedTask } from '../../service/model.js';
import { InvalidCursorError, MetadataStoreUnavailableError, type MetadataStore, type TaskPage } from '../../service/ports.js';

/** /readyz's wait for the database (the file store's is the same) */
const PING_TIMEOUT_MS = 2_000;
import { fileFromRow, keyFromRow, outputFromRow, type FileRow, type KeyRow, type OutputRow } from '../sqlite/record-rows.js';
import { TASK_COLUMNS, decodeCursor, encodeCursor, rowToTask, taskToRow, type TaskRow } from '../sqlite/task-rows.js';
import { withTransaction } from './pg-pool.js';

const TASK_FIELDS = TASK_COLUMNS.split(', ') as (keyof TaskRow)[];
const TASK_VALUES = TASK_FIELDS.map((_, i) => `$${i + 1}`).join(', ');
/** every column but id, account, kind and queue date, which never change */
const MUTABLE_FIELDS = TASK_FIELDS.filter((f) => !['id', 'account_id', 'kind', 'queue_date'].includes(f));
const TASK_SET = MUTABLE_FIELDS.map((f, i) => `${f} = $${i + 2}`).join(', ');

export class PgMetadataStore implements MetadataStore {
  constructor(private readonly pool: pg.Pool) {}

  private async rows<R extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<R[]> {
    return (await this.pool.query<R>(sql, params)).rows;
  }

  // ── accounts, keys, tokens ────────────────────────────────────────────────
  async insertAccount(a: Account): Promise<void> {
    await this.pool.query('INSERT INTO accounts (id, name, created_at) VALUES ($1, $2, $3)', [a.id, a.name, a.createdAt]);
  }

  async findAccount(idOrName: string): Promise<Account | null> {
    // by id first; by name (the oldest of that name) only when no id matches
    const [r] = await this.rows<{ id: string; name: string; created_at: number }>(
      `(SELECT id, name, created_at, 0 AS pref FROM accounts WHERE id = $1)
       UNION ALL
       (SELECT id, name, created_at, 1 AS pref FROM accounts WHERE name = $1 ORDER BY created_at LIMIT 1)
       ORDER BY pref LIMIT 1`,
      [idOrName],
    );
    return r ? { id: r.id, name: r.name, createdAt: r.created_at } : null;
  }

  async insertApiKey(k: ApiKeyRecord): Promise<void> {
    await this.pool.query(
      'INSERT INTO api_keys (id, account_id, name, key_hash, created_at, revoked_at) VALUES ($1, $2, $3, $4, $5, $6)',
      [k.id, k.accountId, k.name, k.keyHash, k.createdAt, k.revokedAt],
    );
  }

  async findActiveKeyByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    const [r] = await this.rows<KeyRow>('SELECT * FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL', [keyHash]);
    return r ? keyFromRow(r) : null;
  }

  async listApiKeys(): Promise<ApiKeyRecord[]> {
    return (await this.rows<KeyRow>('SELECT * FROM api_keys ORDER BY created_at, id')).map(keyFromRow);
  }

  async revokeApiKey(keyId: string, at: number): Promise<boolean> {
    return withTransaction(this.pool, async (c) => {
      const r = await c.query('UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [at, keyId]);
      const changed = (r.rowCount ?? 0) > 0;
      if (changed) await c.query('DELETE FROM access_tokens WHERE key_id = $1', [keyId]);
      return changed;
    });
  }

  async countActiveKeys(): Promise<number> {
    const [r] = await this.rows<{ n: number }>('SELECT count(*) AS n FROM api_keys WHERE revoked_at IS NULL');
    return r!.n;
  }

  async insertAccessToken(t: AccessTokenRecord): Promise<void> {
    await this.pool.query(
      'INSERT INTO access_tokens (token_hash, account_id, key_id, expires_at) VALUES ($1, $2, $3, $4)',
      [t.tokenHash, t.accountId, t.keyId, t.expiresAt],
    );
  }

  async findAccessToken(tokenHash: string, now: number): Promise<AccessTokenRecord | null> {
    const [r] = await this.rows<{ token_hash: string; account_id: string; key_id: string; expires_at: number }>(
      `SELECT t.token_hash, t.account_id, t.key_id, t.expires_at FROM access_tokens t
       JOIN api_keys k ON k.id = t.key_id AND k.revoked_at IS NULL
       WHERE t.token_hash = $1 AND t.expires_at > $2`,
      [tokenHash, now],
    );
    return r ? { tokenHash: r.token_hash, accountId: r.account_id, keyId: r.key_id, expiresAt: r.expires_at } : null;
  }

  async deleteExpiredTokens(now: number): Promise<number> {
    return (await this.pool.query('DELETE FROM access_tokens WHERE expires_at <= $1', [now])).rowCount ?? 0;
  }

  // ── files ─────────────────────────────────────────────────────────────────
  async insertFile(f: FileRecord): Promise<void> {
    await this.pool.query(
      `INSERT INTO files (id, account_id, file_name, type, size, blob_key, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [f.id, f.accountId, f.fileName, f.type, f.size, f.blobKey, f.createdAt],
    );
  }

  async getFile(accountId: string, fileId: string): Promise<FileRecord | null> {
    const [r] = await this.rows<FileRow>('SELECT * FROM files WHERE id = $1 AND account_id = $2', [fileId, accountId]);
    return r ? fileFromRow(r) : null;
  }

  async deleteFile(accountId: string, fileId: string): Promise<FileRecord | null> {
    const [r] = await this.rows<FileRow>('DELETE FROM files WHERE id = $1 AND account_id = $2 RETURNING *', [fileId, accountId]);
    return r ? fileFromRow(r) : null;
  }

  async listExpiredFiles(cutoff: number, limit: number): Promise<FileRecord[]> {
    const rows = await this.rows<FileRow>(
      `SELECT f.* FROM files f WHERE f.created_at < $1 AND NOT EXISTS (
         SELECT 1 FROM task_files tf JOIN tasks t ON t.id = tf.task_id
         WHERE tf.file_id = f.id AND t.status = ANY($3))
       ORDER BY f.created_at LIMIT $2`,
      [cutoff, limit, ACTIVE_STATUSES],
    );
    return rows.map(fileFromRow);
  }

  async deleteFileRecord(fileId: string): Promise<void> {
    await this.pool.query('DELETE FROM files WHERE id = $1', [fileId]);
  }

  // ── tasks ─────────────────────────────────────────────────────────────────
  async insertTask(t: TaskRecord): Promise<void> {
    const row = taskToRow(t);
    await withTransaction(this.pool, async (c) => {
      await c.query(`INSERT INTO tasks (${TASK_COLUMNS}) VALUES (${TASK_VALUES})`, TASK_FIELDS.map((f) => row[f]));
      for (const f of t.files) {
        await c.query('INSERT INTO task_files (task_id, file_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [t.id, f.fileId]);
      }
    });
  }

  async getTask(taskId: string): Promise<TaskRecord | null> {
    const [r] = await this.rows<TaskRow>(`SELECT ${TASK_COLUMNS} FROM tasks WHERE id = $1`, [taskId]);
    return r ? rowToTask(r) : null;
  }

  async getTaskOf(accountId: string, taskId: string): Promise<TaskRecord | null> {
    const [r] = await this.rows<TaskRow>(`SELECT ${TASK_COLUMNS} FROM tasks WHERE id = $1 AND account_id = $2`, [
      taskId,
      accountId,
    ]);
    return r ? rowToTask(r) : null;
  }

  async listTasks(accountId: string, kind: TaskKind, limit: number, cursor: string | null): Promise<TaskPage> {
    const after = cursor ? decodeCursor(cursor) : null;
    if (cursor && !after) throw new InvalidCursorError();
    const rows = after
      ? await this.rows<TaskRow>(
          `SELECT ${TASK_COLUMNS} FROM tasks WHERE account_id = $1 AND kind = $2 AND (queue_date, id) < ($3, $4)
           ORDER BY queue_date DESC, id DESC LIMIT $5`,
          [accountId, kind, after.queueDate, after.id, limit + 1],
        )
      : await this.rows<TaskRow>(
          `SELECT ${TASK_COLUMNS} FROM tasks WHERE account_id = $1 AND kind = $2
           ORDER BY queue_date DESC, id DESC LIMIT $3`,
          [accountId, kind, limit + 1],
        );
    const more = rows.length > limit;
    const tasks = rows.slice(0, limit).map(rowToTask);
    const last = tasks[tasks.length - 1];
    return { tasks, nextCursor: more && last ? encodeCursor(last.queueDate, last.id) : null };
  }

  async updateTask(taskId: string, from: readonly TaskStatus[], patch: Partial<TaskRecord>): Promise<TaskRecord | null> {
    return withTransaction(this.pool, async (c) => {
      // the row lock makes the status check and the write one step against other processes
      const r = (await c.query<TaskRow>(`SELECT ${TASK_COLUMNS} FROM tasks WHERE id = $1 FOR UPDATE`, [taskId])).rows[0];
      if (!r) return null;
      const current = rowToTask(r);
      if (!from.includes(current.status)) return null;
      const next = patchedTask(current, patch);
      const row = taskToRow(next);
      await c.query(`UPDATE tasks SET ${TASK_SET} WHERE id = $1`, [taskId, ...MUTABLE_FIELDS.map((f) => row[f])]);
      return next;
    });
  }

  async deleteTask(taskId: string): Promise<void> {
    await withTransaction(this.pool, async (c) => {
      await c.query('DELETE FROM tasks WHERE id = $1', [taskId]);
      await c.query('DELETE FROM task_files WHERE task_id = $1', [taskId]);
    });
  }

  async listTaskIdsByStatus(status: TaskStatus): Promise<string[]> {
    return (await this.rows<{ id: string }>('SELECT id FROM tasks WHERE status = $1 ORDER BY queue_date', [status])).map(
      (r) => r.id,
    );
  }

  async countTasksByStatus(): Promise<Record<TaskStatus, number>> {
    const counts: Record<TaskStatus, number> = { queued: 0, started: 0, running: 0, finished: 0, failed: 0, cancelled: 0 };
    for (const r of await this.rows<{ status: TaskStatus; n: number }>(
      'SELECT status, count(*) AS n FROM tasks GROUP BY status',
    )) {
      counts[r.status] = r.n;
    }
    return counts;
  }

  // ── outputs ───────────────────────────────────────────────────────────────
  async insertOutput(o: OutputRecord): Promise<void> {
    await this.pool.query(
      `INSERT INTO outputs (id, account_id, task_id, output_name, format, size, blob_key, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [o.id, o.accountId, o.taskId, o.outputName, o.format, o.size, o.blobKey, o.createdAt],
    );
  }

  async getOutput(accountId: string, outputId: string): Promise<OutputRecord | null> {
    const [r] = await this.rows<OutputRow>('SELECT * FROM outputs WHERE id = $1 AND account_id = $2', [outputId, accountId]);
    return r ? outputFromRow(r) : null;
  }

  async getOutputOfTask(taskId: string): Promise<OutputRecord | null> {
    const [r] = await this.rows<OutputRow>('SELECT * FROM outputs WHERE task_id = $1 ORDER BY created_at LIMIT 1', [taskId]);
    return r ? outputFromRow(r) : null;
  }

  async deleteOutput(outputId: string): Promise<void> {
    await this.pool.query('DELETE FROM outputs WHERE id = $1', [outputId]);
  }

  async claimDownload(outputId: string, nowMs: number, untilMs: number): Promise<boolean> {
    const r = await this.pool.query(
      'INSERT INTO download_claims (output_id, until) VALUES ($1, $2) ON CONFLICT (output_id) DO UPDATE SET until = excluded.until WHERE download_claims.until <= $3',
      [outputId, untilMs, nowMs],
    );
    return r.rowCount === 1;
  }

  async releaseDownload(outputId: string): Promise<void> {
    await this.pool.query('DELETE FROM download_claims WHERE output_id = $1', [outputId]);
  }

  async downloadClaimed(outputId: string, nowMs: number): Promise<boolean> {
    const r = await this.pool.query('SELECT 1 FROM download_claims WHERE output_id = $1 AND until > $2', [outputId, nowMs]);
    return (r.rowCount ?? 0) > 0;
  }

  async listExpiredOutputs(cutoff: number, limit: number): Promise<OutputRecord[]> {
    const rows = await this.rows<OutputRow>('SELECT * FROM outputs WHERE created_at < $1 ORDER BY created_at LIMIT $2', [
      cutoff,
      limit,
    ]);
    return rows.map(outputFromRow);
  }

  async knownBlobKeys(keys: readonly string[]): Promise<Set<string>> {
    const rows = await this.rows<{ blob_key: string }>(
      'SELECT blob_key FROM files WHERE blob_key = ANY($1::text[]) UNION SELECT blob_key FROM outputs WHERE blob_key = ANY($1::text[])',
      [keys],
    );
    return new Set(rows.map((r) => r.blob_key));
  }

  /** answers within PING_TIMEOUT_MS or fails: a frozen server must not hang /readyz */
  async ping(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new MetadataStoreUnavailableError(new Error(`no answer within ${PING_TIMEOUT_MS} ms`))), PING_TIMEOUT_MS);
    });
    try {
      await Promise.race([this.pool.query('SELECT 1'), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** the pool is shared with the queue and the event bus: `openDistributedStores` closes it */
  async close(): Promise<void> {}
}
