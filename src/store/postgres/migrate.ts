// Applies the PostgreSQL migrations on start. All of it runs in one transaction under an advisory
// lock, so two processes starting at once do not race: the second waits, then finds nothing to do.
import type pg from 'pg';
import { MIGRATIONS } from './migrations/index.js';
import { withTransaction } from './pg-pool.js';

/** an arbitrary constant that names "Stratum's schema migrations" among advisory locks */
const MIGRATION_LOCK = 0x5354524d; // 'STRM'

export interface MigrateOptions {
  /**
   * Runs inside the migrations' transaction when the database has no Stratum schema yet, before any
   * is made; a throw leaves the database as it was (the DistributedRuntime refuses a new schema beside
   * a bucket that already holds stored files).
   */
  beforeCreate?(): Promise<void>;
}

/** Returns the versions it applied (empty when the schema was up to date). */
export async function applyMigrations(pool: pg.Pool, opts: MigrateOptions = {}): Promise<number[]> {
  return withTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         version INTEGER PRIMARY KEY,
         name TEXT NOT NULL,
         applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
       )`,
    );
    const done = new Set(
      (await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version),
    );
    if (done.size === 0) await opts.beforeCreate?.();
    const applied: number[] = [];
    for (const m of MIGRATIONS) {
      if (done.has(m.version)) continue;
      await client.query(m.sql);
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      applied.push(m.version);
    }
    return applied;
  });
}
