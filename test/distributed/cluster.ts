// A distributed Stratum on one machine for tests and the throughput bench: a throwaway PostgreSQL
// database, an s3rver, and real `stratum serve --role …` processes started with the environment a
// deployment would give them. Processes log JSON to stdout; the harness keeps their lines.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { REPO_ROOT } from '../api-helpers.js';
import { startPgServer, type PgServer } from './pg-server.js';
import { startS3, type S3Server } from './s3-server.js';

const MAIN = join(REPO_ROOT, 'dist', 'src', 'cli', 'main.js');

export interface LogLine {
  msg?: string;
  taskId?: string;
  [k: string]: unknown;
}

export class StratumProcess {
  readonly lines: LogLine[] = [];
  readonly exited: Promise<number | null>;
  /** http://127.0.0.1:port for api/all roles (a worker's operations port, if any), once listening */
  url = '';

  constructor(
    readonly role: 'api' | 'worker' | 'all',
    readonly child: ChildProcess,
  ) {
    this.exited = once(child, 'exit').then(([code]) => code as number | null);
    createInterface({ input: child.stdout! }).on('line', (l) => {
      try {
        this.lines.push(JSON.parse(l) as LogLine);
      } catch {
        this.lines.push({ msg: l });
      }
    });
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** resolves with the first log line `match` accepts (earlier lines count too) */
  async waitForLine(match: (l: LogLine) => boolean, timeoutMs = 30_000): Promise<LogLine> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const found = this.lines.find(match);
      if (found) return found;
      if (this.child.exitCode !== null) throw new Error(`${this.role} process exited (${this.child.exitCode}) while waiting`);
      if (Date.now() > end) {
        const last = this.lines.slice(-8).map((l) => JSON.stringify(l)).join('\n');
        throw new Error(`${this.role} process ${this.pid}: timed out waiting for a log line; its last lines:\n${last}`);
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  kill(signal: NodeJS.Signals): Promise<number | null> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    return this.exited;
  }
}

export interface ClusterOptions {
  /** extra environment for every process */
  env?: Record<string, string>;
}

export class Cluster {
  readonly processes: StratumProcess[] = [];
  env: Record<string, string> = {};

  private constructor(
    readonly pgServer: PgServer,
    readonly s3: S3Server,
    readonly databaseUrl: string,
  ) {}

  static async start(opts: ClusterOptions = {}): Promise<Cluster> {
    const [pgServer, s3] = await Promise.all([startPgServer(), startS3()]);
    const databaseUrl = await pgServer.createDatabase('stratum_cluster');
    const cluster = new Cluster(pgServer, s3, databaseUrl);
    cluster.env = {
      DATABASE_URL: databaseUrl,
      ...s3.env,
      HOST: '127.0.0.1',
      PORT: '0',
      STRATUM_WORKERS: '1',
      STRATUM_LAYER_THREADS: '1',
      STRATUM_WORKER_NICE: '0',
      STRATUM_LEASE_S: '2',
      STRATUM_SHUTDOWN_GRACE_S: '0',
      STRATUM_SWEEP_INTERVAL_S: '0',
      STRATUM_LOG_LEVEL: 'info',
      ...(opts.env ?? {}),
    };
    return cluster;
  }

  private childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    // only what a deployment sets: nothing of the test runner's STRATUM_* leaks in
    const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(STRATUM_|S3_|DATABASE_URL$|PORT$|HOST$)/.test(k)));
    return { ...base, ...this.env, ...extra };
  }

  /** starts `stratum serve --role ROLE` and waits until it listens (api/all) or runs (worker) */
  async spawn(role: 'api' | 'worker' | 'all', extraEnv: Record<string, string> = {}): Promise<StratumProcess> {
    const args = role === 'worker' ? [MAIN, 'worker'] : [MAIN, 'serve', '--role', role];
    const child = spawn(process.execPath, args, { env: this.childEnv(extraEnv), stdio: ['ignore', 'pipe', 'pipe'] });
    const p = new StratumProcess(role, child);
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    this.processes.push(p);
    try {
      const ready = await p.waitForLine((l) => l.msg === 'stratum is listening' || l.msg === 'stratum worker is running', 60_000);
      if (typeof ready.url === 'string') p.url = ready.url;
      if (typeof ready.opsUrl === 'string') p.url = ready.opsUrl;
    } catch (err) {
      throw new Error(`${(err as Error).message}\n${stderr}`);
    }
    return p;
  }

  /** `stratum keys create` against the cluster's database; returns the key */
  async createKey(name: string): Promise<string> {
    const child = spawn(process.execPath, [MAIN, 'keys', 'create', '--name', name], { env: this.childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    const [code] = await once(child, 'exit');
    if (code !== 0) throw new Error(`keys create failed (${code}): ${err}`);
    return out.trim();
  }

  async stop(): Promise<void> {
    await Promise.all(this.processes.map((p) => p.kill('SIGKILL')));
    await this.s3.stop();
    await this.pgServer.stop();
  }
}
