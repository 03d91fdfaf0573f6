// A fair line between accounts (pg-job-queue.ts): each job's place in it (slot), each account's next
// slot, and the slot of the job claimed last. Jobs waiting at the upgrade keep their tickets and
// their order, before any queued after it.
export const name = 'fair-queue';

export const sql = `
ALTER TABLE task_jobs ADD COLUMN slot BIGINT NOT NULL DEFAULT 0;
CREATE TABLE queue_accounts (
  account_id TEXT COLLATE "C" PRIMARY KEY,
  next_slot BIGINT NOT NULL
);
CREATE TABLE queue_clock (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  slot BIGINT NOT NULL
);
INSERT INTO queue_clock (id, slot) VALUES (1, 0);
`;
