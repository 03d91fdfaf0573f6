// Starts a throw-away PostgreSQL server for the distributed tests (scripts/dist/postgres.sh, which
// installs PostgreSQL from Debian's packages when it is missing) and hands out empty databases.
import { execFile, execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { REPO_ROOT } from '../api-helpers.js';

const run = promisify(execFile);
const SCRIPT = join(REPO_ROOT, 'scripts', 'dist', 'postgres.sh');

export interface PgServer {
  /** the server's maintenance database URL */
  url: string;
  /** a new, empty database on the server; returns its URL */
  createDatabase(prefix?: string): Promise<string>;
  /** stops the server and deletes its files */
  stop(): Promise<void>;
}

let counter = 0;

/** Uses DATABASE_URL when set (an existing server; databases are still created per test). */
export async function startPgServer(): Promise<PgServer> {
  let url = process.env.STRATUM_TEST_DATABASE_URL;
  let dir: string | null = null;
  if (!url) {
    // installing the package on a fresh machine can take a minute
    const { stdout } = await run(SCRIPT, ['start'], { timeout: 300_000 });
    const vars = Object.fromEntries(
      stdout
        .split('\n')
        .filter((l) => l.includes('='))
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
    url = vars.DATABASE_URL;
    dir = vars.STRATUM_PG_DIR ?? null;
    if (!url || !dir) throw new Error(`postgres.sh printed no DATABASE_URL:\n${stdout}`);
  }
  const admin = url;
  let stopped = false;
  // a test process that ends without running its `after` hooks still takes the server down
  const onExit = () => {
    if (dir && !stopped) execFileSync(SCRIPT, ['stop', dir], { stdio: 'ignore', timeout: 30_000 });
  };
  process.once('exit', onExit);
  return {
    url: admin,
    async createDatabase(prefix = 'stratum_test') {
      const name = `${prefix}_${process.pid}_${++counter}_${Date.now().toString(36)}`;
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      try {
        await c.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
      } finally {
        await c.end();
      }
      const u = new URL(admin);
      u.pathname = `/${name}`;
      return u.toString();
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      process.removeListener('exit', onExit);
      if (dir) await run(SCRIPT, ['stop', dir], { timeout: 60_000 });
    },
  };
}
