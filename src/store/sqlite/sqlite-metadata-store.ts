// MetadataStore on better-sqlite3. Statements are prepared once; calls run synchronously inside
// the promise-returning methods (SQLite answers in microseconds, far below an HTTP round trip).
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
import { patchedTask } from '../../service/model.js';
import { InvalidCursorError, type MetadataStore, type TaskPage } from '../../service/ports.js';
import type { SqliteDatabase } from './open-database.js';
import { fileFromRow, keyFromRow, outputFromRow, type FileRow, type KeyRow, type OutputRow } from './record-rows.js';
import { TaskCache } from './task-cache.js';
import {
  TASK_COLUMNS,
  TASK_PLACEHOLDERS,
  decodeCursor,
  encodeCursor,
  rowToTask,
  taskToRow,
  type TaskRow,
} from './task-rows.js';

const ACTIVE = "('queued', 'started', 'running')";

export class SqliteMetadataStore implements MetadataStore {
  private readonly s;
  private readonly tasks = new TaskCache();

  constructor(private readonly db: SqliteDatabase) {
    this.s = {
      insertAccount: db.prepare('INSERT INTO accounts (id, name, created_at) VALUES (?, ?, ?)'),
      accountById: db.prepare('SELECT id, name, created_at FROM accounts WHERE id = ?'),
      accountByName: db.prepare('SELECT id, name, created_at FROM accounts WHERE name = ? ORDER BY created_at LIMIT 1'),
      insertKey: db.prepare(
        'INSERT INTO api_keys (id, account_id, name, key_hash, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      activeKeyByHash: db.prepare('SELECT * FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL'),
      listKeys: db.prepare('SELECT * FROM api_keys ORDER BY created_at, id'),
      revokeKey: db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
      deleteTokensOfKey: db.prepare('DELETE FROM access_tokens WHERE key_id = ?'),
      countActiveKeys: db.prepare('SELECT count(*) AS n FROM api_keys WHERE revoked_at IS NULL'),
      insertToken: db.prepare(
        'INSERT INTO access_tokens (token_hash, account_id, key_id, expires_at) VALUES (?, ?, ?, ?)',
      ),
      findToken: db.prepare(
        `SELECT t.token_hash, t.account_id, t.key_id, t.expires_at FROM access_tokens t
         JOIN api_keys k ON k.id = t.key_id AND k.revoked_at IS NULL
         WHERE t.token_hash = ? AND t.expires_at > ?`,
      ),
      deleteExpiredTokens: db.prepare('DELETE FROM access_tokens WHERE expires_at <= ?'),

      insertFile: db.prepare(
        `INSERT INTO files (id, account_id, file_name, type, size, blob_key, created_at)
         VALUES (@id, @account_id, @file_name, @type, @size, @blob_key, @created_at)`,
      ),
      getFile: db.prepare('SELECT * FROM files WHERE id = ? AND account_id = ?'),
      deleteFile: db.prepare('DELETE FROM files WHERE id = ?'),
      expiredFiles: db.prepare(
        `SELECT f.* FROM files f WHERE f.created_at < ? AND NOT EXISTS (
           SELECT 1 FROM task_files tf JOIN tasks t ON t.id = tf.task_id
           WHERE tf.file_id = f.id AND t.status IN ${ACTIVE})
         ORDER BY f.created_at LIMIT ?`,
      ),

      insertTask: db.prepare(`INSERT INTO tasks (${TASK_COLUMNS}) VALUES (${TASK_PLACEHOLDERS})`),
      insertTaskFile: db.prepare('INSERT OR IGNORE INTO task_files (task_id, file_id) VALUES (?, ?)'),
      getTask: db.prepare(`SELECT ${TASK_COLUMNS} FROM tasks WHERE id = ?`),
      replaceTask: db.prepare(
        `UPDATE tasks SET status = @status, progress = @progress, start_date = @start_date,
           end_date = @end_date, files_json = @files_json, settings_json = @settings_json,
           request_json = @request_json, info_json = @info_json, output_json = @output_json,
           error_json = @error_json, warnings_json = @warnings_json, stats_json = @stats_json
         WHERE id = @id`,
      ),
      listFirst: db.prepare(
        `SELECT ${TASK_COLUMNS} FROM tasks WHERE account_id = ? AND kind = ?
         ORDER BY queue_date DESC, id DESC LIMIT ?`,
      ),
      listAfter: db.prepare(
        `SELECT ${TASK_COLUMNS} FROM tasks WHERE account_id = ? AND kind = ?
           AND (queue_date < ? OR (queue_date = ? AND id < ?))
         ORDER BY queue_date DESC, id DESC LIMIT ?`,
      ),
      deleteTask: db.prepare('DELETE FROM tasks WHERE id = ?'),
      deleteTaskFiles: db.prepare('DELETE FROM task_files WHERE task_id = ?'),
      idsByStatus: db.prepare('SELECT id FROM tasks WHERE status = ? ORDER BY queue_date'),
      countByStatus: db.prepare('SELECT status, count(*) AS n FROM tasks GROUP BY status'),

      insertOutput: db.prepare(
        `INSERT INTO outputs (id, account_id, task_id, output_name, format, size, blob_key, created_at)
         VALUES (@id, @account_id, @task_id, @output_name, @format, @size, @blob_key, @created_at)`,
      ),
      getOutput: db.prepare('SELECT * FROM outputs WHERE id = ? AND account_id = ?'),
      outputOfTask: db.prepare('SELECT * FROM outputs WHERE task_id = ?'),
      deleteOutput: db.prepare('DELETE FROM outputs WHERE id = ?'),
      claimDownload: db.prepare(
        'INSERT INTO download_claims (output_id, until) VALUES (?, ?) ON CONFLICT (output_id) DO UPDATE SET until = excluded.until WHERE download_claims.until <= ?',
      ),
      releaseDownload: db.prepare('DELETE FROM download_claims WHERE output_id = ?'),
      downloadClaimed: db.prepare('SELECT 1 FROM download_claims WHERE output_id = ? AND until > ?'),
      expiredOutputs: db.prepare('SELECT * FROM outputs WHERE created_at < ? ORDER BY created_at LIMIT ?'),
      ping: db.prepare('SELECT 1'),
      knownBlobKeys: db.prepare(
        `SELECT blob_key FROM files WHERE blob_key IN (SELECT value FROM json_each(?))
         UNION SELECT blob_key FROM outputs WHERE blob_key IN (SELECT value FROM json_each(?))`,
      ),
    };
  }

  // ── accounts, keys, tokens ────────────────────────────────────────────────
  async insertAccount(a: Account): Promise<void> {
    this.s.insertAccount.run(a.id, a.name, a.createdAt);
  }

  async findAccount(idOrName: string): Promise<Account | null> {
    const r = (this.s.accountById.get(idOrName) ?? this.s.accountByName.get(idOrName)) as
      | { id: string; name: string; created_at: number }
      | undefined;
    return r ? { id: r.id, name: r.name, createdAt: r.created_at } : null;
  }

  async insertApiKey(k: ApiKeyRecord): Promise<void> {
    this.s.insertKey.run(k.id, k.accountId, k.name, k.keyHash, k.createdAt, k.revokedAt);
  }

  async findActiveKeyByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    const r = this.s.activeKeyByHash.get(keyHash) as KeyRow | undefined;
    return r ? keyFromRow(r) : null;
  }

  async listApiKeys(): Promise<ApiKeyRecord[]> {
    return (this.s.listKeys.all() as KeyRow[]).map(keyFromRow);
  }

  async revokeApiKey(keyId: string, at: number): Promise<boolean> {
    return this.db.transaction(() => {
      const changed = this.s.revokeKey.run(at, keyId).changes > 0;
      if (changed) this.s.deleteTokensOfKey.run(keyId);
      return changed;
    })();
  }

  async countActiveKeys(): Promise<number> {
    return (this.s.countActiveKeys.get() as { n: number }).n;
  }

  async insertAccessToken(t: AccessTokenRecord): Promise<void> {
    this.s.insertToken.run(t.tokenHash, t.accountId, t.keyId, t.expiresAt);
  }

  async findAccessToken(tokenHash: string, now: number): Promise<AccessTokenRecord | null> {
    const r = this.s.findToken.get(tokenHash, now) as
      | { token_hash: string; account_id: string; key_id: string; expires_at: number }
      | undefined;
    return r ? { tokenHash: r.token_hash, accountId: r.account_id, keyId: r.key_id, expiresAt: r.expires_at } : null;
  }

  async deleteExpiredTokens(now: number): Promise<number> {
    return this.s.deleteExpiredTokens.run(now).changes;
  }

  // ── files ─────────────────────────────────────────────────────────────────
  async insertFile(f: FileRecord): Promise<void> {
    this.s.insertFile.run({
      id: f.id,
      account_id: f.accountId,
      file_name: f.fileName,
      type: f.type,
      size: f.size,
      blob_key: f.blobKey,
      created_at: f.createdAt,
    });
  }

  async getFile(accountId: string, fileId: string): Promise<FileRecord | null> {
    const r = this.s.getFile.get(fileId, accountId) as FileRow | undefined;
    return r ? fileFromRow(r) : null;
  }

  async deleteFile(accountId: string, fileId: string): Promise<FileRecord | null> {
    return this.db.transaction(() => {
      const r = this.s.getFile.get(fileId, accountId) as FileRow | undefined;
      if (!r) return null;
      this.s.deleteFile.run(fileId);
      return fileFromRow(r);
    })();
  }

  async listExpiredFiles(cutoff: number, limit: number): Promise<FileRecord[]> {
    return (this.s.expiredFiles.all(cutoff, limit) as FileRow[]).map(fileFromRow);
  }

  async deleteFileRecord(fileId: string): Promise<void> {
    this.s.deleteFile.run(fileId);
  }

  // ── tasks ─────────────────────────────────────────────────────────────────
  async insertTask(t: TaskRecord): Promise<void> {
    this.db.transaction(() => {
      this.s.insertTask.run(taskToRow(t));
      for (const f of t.files) this.s.insertTaskFile.run(t.id, f.fileId);
    })();
    this.tasks.set(t);
  }

  async getTask(taskId: string): Promise<TaskRecord | null> {
    return this.readTask(taskId);
  }

  async getTaskOf(accountId: string, taskId: string): Promise<TaskRecord | null> {
    const task = this.readTask(taskId);
    return task && task.accountId === accountId ? task : null;
  }

  private readTask(taskId: string): TaskRecord | null {
    const cached = this.tasks.get(taskId);
    if (cached) return cached;
    const r = this.s.getTask.get(taskId) as TaskRow | undefined;
    if (!r) return null;
    const task = rowToTask(r);
    this.tasks.set(task);
    return task;
  }

  async listTasks(accountId: string, kind: TaskKind, limit: number, cursor: string | null): Promise<TaskPage> {
    const after = cursor ? decodeCursor(cursor) : null;
    if (cursor && !after) throw new InvalidCursorError();
    const rows = (
      after
        ? this.s.listAfter.all(accountId, kind, after.queueDate, after.queueDate, after.id, limit + 1)
        : this.s.listFirst.all(accountId, kind, limit + 1)
    ) as TaskRow[];
    const more = rows.length > limit;
    const tasks = rows.slice(0, limit).map(rowToTask);
    const last = tasks[tasks.length - 1];
    return { tasks, nextCursor: more && last ? encodeCursor(last.queueDate, last.id) : null };
  }

  async updateTask(
    taskId: string,
    from: readonly TaskStatus[],
    patch: Partial<TaskRecord>,
  ): Promise<TaskRecord | null> {
    const next = this.db.transaction(() => {
      const r = this.s.getTask.get(taskId) as TaskRow | undefined;
      if (!r) return null;
      const current = rowToTask(r);
      if (!from.includes(current.status)) return null;
      const next = patchedTask(current, patch);
      this.s.replaceTask.run(taskToRow(next));
      return next;
    })();
    if (next) this.tasks.set(next);
    return next;
  }

  async deleteTask(taskId: string): Promise<void> {
    this.tasks.delete(taskId);
    this.db.transaction(() => {
      this.s.deleteTask.run(taskId);
      this.s.deleteTaskFiles.run(taskId);
    })();
  }

  async listTaskIdsByStatus(status: TaskStatus): Promise<string[]> {
    return (this.s.idsByStatus.all(status) as { id: string }[]).map((r) => r.id);
  }

  async countTasksByStatus(): Promise<Record<TaskStatus, number>> {
    const counts: Record<TaskStatus, number> = {
      queued: 0,
      started: 0,
      running: 0,
      finished: 0,
      failed: 0,
      cancelled: 0,
    };
    for (const r of this.s.countByStatus.all() as { status: TaskStatus; n: number }[]) counts[r.status] = r.n;
    return counts;
  }

  // ── outputs ───────────────────────────────────────────────────────────────
  async insertOutput(o: OutputRecord): Promise<void> {
    this.s.insertOutput.run({
      id: o.id,
      account_id: o.accountId,
      task_id: o.taskId,
      output_name: o.outputName,
      format: o.format,
      size: o.size,
      blob_key: o.blobKey,
      created_at: o.createdAt,
    });
  }

  async getOutput(accountId: string, outputId: string): Promise<OutputRecord | null> {
    const r = this.s.getOutput.get(outputId, accountId) as OutputRow | undefined;
    return r ? outputFromRow(r) : null;
  }

  async getOutputOfTask(taskId: string): Promise<OutputRecord | null> {
    const r = this.s.outputOfTask.get(taskId) as OutputRow | undefined;
    return r ? outputFromRow(r) : null;
  }

  async deleteOutput(outputId: string): Promise<void> {
    this.s.deleteOutput.run(outputId);
  }

  async claimDownload(outputId: string, nowMs: number, untilMs: number): Promise<boolean> {
    return this.s.claimDownload.run(outputId, untilMs, nowMs).changes === 1;
  }

  async releaseDownload(outputId: string): Promise<void> {
    this.s.releaseDownload.run(outputId);
  }

  async downloadClaimed(outputId: string, nowMs: number): Promise<boolean> {
    return this.s.downloadClaimed.get(outputId, nowMs) !== undefined;
  }

  async listExpiredOutputs(cutoff: number, limit: number): Promise<OutputRecord[]> {
    return (this.s.expiredOutputs.all(cutoff, limit) as OutputRow[]).map(outputFromRow);
  }

  async knownBlobKeys(keys: readonly string[]): Promise<Set<string>> {
    const list = JSON.stringify(keys);
    return new Set((this.s.knownBlobKeys.all(list, list) as Array<{ blob_key: string }>).map((r) => r.blob_key));
  }

  async ping(): Promise<void> {
    this.s.ping.get();
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
