// The embedded database's schema, as an append-only list of migrations (index + 1 = version).
// Never edit a released entry: add a new one.

export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX accounts_name ON accounts (name);

  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    name TEXT NOT NULL,
    key_hash TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    revoked_at INTEGER
  );

  CREATE TABLE access_tokens (
    token_hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    key_id TEXT NOT NULL,
    expires_at INTEGER NOT NULL
  );
  CREATE INDEX access_tokens_expiry ON access_tokens (expires_at);

  CREATE TABLE files (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    file_name TEXT NOT NULL,
    type TEXT NOT NULL,
    size INTEGER NOT NULL,
    blob_key TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX files_created ON files (created_at);

  CREATE TABLE tasks (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    status TEXT NOT NULL,
    progress REAL NOT NULL,
    queue_date TEXT NOT NULL,
    start_date TEXT,
    end_date TEXT,
    files_json TEXT NOT NULL,
    settings_json TEXT NOT NULL,
    request_json TEXT NOT NULL,
    info_json TEXT,
    output_json TEXT,
    error_json TEXT,
    warnings_json TEXT NOT NULL,
    stats_json TEXT
  );
  CREATE INDEX tasks_by_account ON tasks (account_id, kind, queue_date DESC, id DESC);
  CREATE INDEX tasks_by_status ON tasks (status);

  CREATE TABLE task_files (
    task_id TEXT NOT NULL,
    file_id TEXT NOT NULL,
    PRIMARY KEY (task_id, file_id)
  );
  CREATE INDEX task_files_by_file ON task_files (file_id);

  CREATE TABLE outputs (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    task_id TEXT NOT NULL,
    output_name TEXT NOT NULL,
    format TEXT NOT NULL,
    size INTEGER NOT NULL,
    blob_key TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX outputs_by_task ON outputs (task_id);
  CREATE INDEX outputs_created ON outputs (created_at);

  CREATE TABLE jobs (
    task_id TEXT PRIMARY KEY,
    seq INTEGER NOT NULL,
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    lease_owner TEXT,
    lease_until INTEGER
  );
  CREATE INDEX jobs_ready ON jobs (state, seq);
  `,
  // 2: claims of one-time (legacy) downloads, so that only one of two simultaneous first downloads wins
  `
  CREATE TABLE download_claims (
    output_id TEXT PRIMARY KEY,
    until INTEGER NOT NULL
  );
  `,
  // 3: a fair line between accounts (sqlite-job-queue.ts): each job's place in it (slot), each
  // account's next slot, and the slot of the job claimed last. Jobs waiting at the upgrade keep
  // their order, before any queued after it.
  `
  ALTER TABLE jobs ADD COLUMN slot INTEGER NOT NULL DEFAULT 0;
  DROP INDEX jobs_ready;
  CREATE INDEX jobs_ready ON jobs (state, slot, seq);
  CREATE TABLE queue_accounts (
    account_id TEXT PRIMARY KEY,
    next_slot INTEGER NOT NULL
  );
  CREATE TABLE queue_clock (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    slot INTEGER NOT NULL
  );
  INSERT INTO queue_clock (id, slot) VALUES (1, 0);
  `,
];
