// A `stratum serve` process for the benchmarks: the embedded service on a loopback port with a data
// directory of its own, and an API key made with the CLI, as an operator would.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BIN = join(fileURLToPath(new URL('../../', import.meta.url)), 'bin', 'stratum.js');

export interface ServiceProcess {
  proc: ChildProcess;
  url: string;
  /** SIGTERM, and resolves once the process has exited */
  stop: () => Promise<void>;
}

/** The environment of a service on a free loopback port keeping its data in `dataDir`. */
export function serviceEnv(dataDir: string, over: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    STRATUM_DATA_DIR: dataDir,
    STRATUM_LOG_LEVEL: 'warn',
    STRATUM_SHUTDOWN_GRACE_S: '0',
    ...over,
  };
}

/** `stratum keys create`: a new key for the service that will use `env`'s data directory. */
export function createKey(env: NodeJS.ProcessEnv, name = 'bench'): string {
  const created = spawnSync(process.execPath, [BIN, 'keys', 'create', '--name', name], { env, encoding: 'utf8' });
  if (created.status !== 0) throw new Error(`stratum keys create: ${created.stderr}`);
  return created.stdout.trim();
}

/** Starts `stratum serve` and resolves with its URL once it listens (read from its start-up log line). */
export function startService(env: NodeJS.ProcessEnv): Promise<ServiceProcess> {
  const proc = spawn(process.execPath, [BIN, 'serve'], { env: { ...env, STRATUM_LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (c) => {
      out += c;
      const m = /"url":"(http:\/\/[^"]+)"/.exec(out);
      if (m) {
        proc.stdout!.removeAllListeners('data');
        proc.stdout!.resume();
        resolve({ proc, url: m[1]!, stop });
      }
    });
    proc.once('exit', (code) => reject(new Error(`stratum serve exited (${code}) before listening`)));
  });
}
