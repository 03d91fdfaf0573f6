// Work that one process of a deployment at a time should do (the retention sweep): a PostgreSQL
// session advisory lock, taken without waiting. The lock goes with the connection, so a process that
// dies mid-way frees it.
import type pg from 'pg';
import { unavailableOr } from './pg-pool.js';

/** an arbitrary constant naming "the retention sweep" among advisory locks */
export const SWEEP_LOCK = 0x53575050; // 'SWPP'

/** Runs `work` while holding advisory lock `key`; null at once when another session holds it. */
export async function whileHolding<T>(pool: pg.Pool, key: number, work: () => Promise<T>): Promise<T | null> {
  const client = await pool.connect().catch((err: unknown) => {
    throw unavailableOr(err);
  });
  try {
    const got = (await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [key])).rows[0]?.ok === true;
    if (!got) return null;
    try {
      return await work();
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [key]).catch(() => undefined);
    }
  } finally {
    client.release();
  }
}
