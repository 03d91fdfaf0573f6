// The first PostgreSQL schema: the same tables as the embedded SQLite schema (see
// src/store/sqlite/schema.ts), plus `task_jobs`, the lease side of the job queue (pg-boss keeps
// the waiting tickets in its own schema). Times the service passes in are epoch ms (BIGINT);
// lease deadlines are the database's clock (TIMESTAMPTZ), so worker machines may disagree on the
// time without stealing each other's leases. Text that is compared or sorted uses COLLATE "C"
// so the order is bytewise, as in SQLite.
export const name = 'initial';

export const sql = `
CREATE TABLE accounts (
  id TEXT COLLATE "C" PRIMARY KEY,
  name TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE INDEX accounts_name ON accounts (name);

CREATE TABLE api_keys (
  id TEXT COLLATE "C" PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  name TEXT NOT NULL,
  key_hash TEXT NOT NULL UNIQUE,
  created_at BIGINT NOT NULL,
  revoked_at BIGINT
);

CREATE TABLE access_tokens (
  token_hash TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  key_id TEXT NOT NULL,
  expires_at BIGINT NOT NULL
);
CREATE INDEX access_tokens_expiry ON access_tokens (expires_at);
CREATE INDEX access_tokens_key ON access_tokens (key_id);

CREATE TABLE files (
  id TEXT COLLATE "C" PRIMARY KEY,
  account_id TEXT NOT NULL,
  file_name TEXT NOT NULL,
  type TEXT NOT NULL,
  size BIGINT NOT NULL,
  blob_key TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE INDEX files_created ON files (created_at);

CREATE TABLE tasks (
  id TEXT COLLATE "C" PRIMARY KEY,
  account_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  status TEXT NOT NULL,
  progress DOUBLE PRECISION NOT NULL,
  queue_date TEXT COLLATE "C" NOT NULL,
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
  id TEXT COLLATE "C" PRIMARY KEY,
  account_id TEXT NOT NULL,
  task_id TEXT NOT NULL,
  output_name TEXT NOT NULL,
  format TEXT NOT NULL,
  size BIGINT NOT NULL,
  blob_key TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE INDEX outputs_by_task ON outputs (task_id);
CREATE INDEX outputs_created ON outputs (created_at);

CREATE TABLE task_jobs (
  task_id TEXT PRIMARY KEY,
  state TEXT NOT NULL CHECK (state IN ('queued', 'leased')),
  attempts INTEGER NOT NULL DEFAULT 0,
  -- the pg-boss job that stands for this task in the waiting line (null while leased)
  ticket_id UUID,
  lease_owner TEXT,
  lease_until TIMESTAMPTZ
);
CREATE INDEX task_jobs_leases ON task_jobs (lease_until) WHERE state = 'leased';
CREATE INDEX task_jobs_queued ON task_jobs (state) WHERE state = 'queued';
`;
