// Opens the pg connection pool the PostgreSQL stores share, and runs work in a transaction.
import pg from 'pg';
import { MetadataStoreUnavailableError } from '../../service/ports.js';

/** BIGINT (epoch ms, sizes) as a JS number: every value we store is far below 2^53. */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === pg.types.builtins.INT8) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format);
  },
};

/** How long a new connection may take to be ready. */
export const CONNECT_TIMEOUT_MS = 10_000;

export interface PoolOptions {
  /** connections at most (default 10) */
  max?: number;
  /** shown in pg_stat_activity */
  applicationName?: string;
  /** an idle connection's error (server restart, network): reported, the pool replaces it */
  onError?(err: unknown): void;
}

export function openPool(databaseUrl: string, opts: PoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: opts.max ?? 10,
    application_name: opts.applicationName ?? 'stratum',
    types,
    // a host that takes the connection but never answers (a frozen server, a wrong port behind a
    // proxy) fails the connect instead of hanging start-up and every request on it
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
  });
  // an idle client that loses its server emits here; without a listener the process would crash
  pool.on('error', (err) => opts.onError?.(err));
  // pg-pool takes that listener off a client while it is checked out (a transaction between its
  // queries, the start-up lock): a server lost then emitted 'error' on the client with no listener,
  // which ended a worker process for good. Every client keeps a listener of its own; its pending
  // queries fail, and the pool drops it when it is released.
  pool.on('connect', (client) => {
    client.on('error', (err) => opts.onError?.(err));
  });
  // a query that fails because the server is gone says so (the API answers 503, not 500)
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  pool.query = ((...args: unknown[]) => query(...args).catch((err: unknown) => {
    throw unavailableOr(err);
  })) as typeof pool.query;
  return pool;
}

/**
 * PostgreSQL's connection-level failures: no connection (refused, unknown host, timed out), a
 * connection lost, SQLSTATE class 08 (connection exception), 57P01–57P03 (the server shutting
 * down or starting) and 53300 (too many connections). Anything else (a constraint, a syntax error) is the query's own error.
 */
export function unavailableOr(err: unknown): unknown {
  if (err instanceof MetadataStoreUnavailableError) return err;
  const e = err as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  const message = typeof e?.message === 'string' ? e.message : '';
  const lost =
    ['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'EPIPE', '57P01', '57P02', '57P03', '53300'].includes(code) ||
    code.startsWith('08') ||
    /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/.test(message);
  return lost ? new MetadataStoreUnavailableError(err) : err;
}

/** Runs `fn` in a transaction on one client: commit when it resolves, roll back when it throws. */
export async function withTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect().catch((err: unknown) => {
    throw unavailableOr(err);
  });
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw unavailableOr(err);
  } finally {
    client.release();
  }
}
