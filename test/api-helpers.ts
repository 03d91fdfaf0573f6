// Shared helpers of the service tests: a real server on a loopback port with a temporary data
// directory, a small HTTP client, polling, and the G-code header reader. No tests in here.
import './exit-promptly.js';
import { MODELS } from './shared-dir.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, type RunningServer } from '../src/api/start-server.js';
import { defaultConfig, type ServiceConfig } from '../src/service/config.js';
import { serviceEnv } from '../bench/service-process.js';
import { request as httpRequest } from 'node:http';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CUBE_STL = join(MODELS, 'xyz_calibration_cube.stl');
export const STRATUM_BIN = join(REPO_ROOT, 'bin', 'stratum.js');

/**
 * Settings that make the calibration cube slice for several seconds (cancel and kill tests): fine
 * layers of dense gyroid, which differs on every layer (at 100 % the infill would be skin lines,
 * which repeat from layer to layer, and the slice took under a second). About 4.5 s from the
 * command line here; the service's warm workers take a little over half that.
 */
export const SLOW_OVERRIDES = { layerHeight: 0.05, firstLayerHeight: 0.1, infillDensity: 95, infillPattern: 'gyroid' };
/** About half of that (2.4 s from the command line): long enough to stop a process mid-slice, short enough to redo. */
export const MEDIUM_OVERRIDES = { layerHeight: 0.1, infillDensity: 95, infillPattern: 'gyroid' };

/** The bench's service environment (bench/service-process.ts) with one worker and info-level logs. */
export function serveEnv(dataDir: string, over: Record<string, string> = {}): NodeJS.ProcessEnv {
  return serviceEnv(dataDir, { STRATUM_WORKERS: '1', STRATUM_LOG_LEVEL: 'info', ...over });
}

export interface ServeProcess {
  proc: ChildProcess;
  url: string;
  stderr: () => string;
  /** the JSON log lines so far */
  stdout: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** How long a served process may take to start listening, or to exit once asked (ms): far past what it needs. */
export const SERVE_PROCESS_LIMIT_MS = 60_000;

/** The last `chars` characters of a process's output, for a failure message. */
function tail(text: string, chars = 4000): string {
  return text.length > chars ? `…${text.slice(-chars)}` : text;
}

/**
 * A deadline for a served process: after `ms` it is killed and `rejected` fails with what it printed
 * (a test that waited on it for ever would hang the whole suite); `cancel` once it did what was awaited.
 */
function deadline(proc: ChildProcess, output: () => { stdout: string; stderr: string }, ms: number, what: string) {
  let timer: NodeJS.Timeout | undefined;
  const rejected = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      proc.kill('SIGKILL');
      const { stdout, stderr } = output();
      reject(new Error(`serve did not ${what} within ${ms} ms; stdout:\n${tail(stdout)}\nstderr:\n${tail(stderr)}`));
    }, ms);
  });
  rejected.catch(() => undefined); // a cancelled deadline is never awaited
  return { rejected, cancel: () => clearTimeout(timer) };
}

/**
 * Starts `node SCRIPT serve` (default bin/stratum.js) and resolves once it logs the address it listens
 * on. A process that neither listens nor exits within SERVE_PROCESS_LIMIT_MS is killed and the start
 * fails with what it printed: a test that waited on it for ever would hang the whole suite.
 */
export async function startServeProcess(env: NodeJS.ProcessEnv, script = STRATUM_BIN, shellFirst?: string): Promise<ServeProcess> {
  // shellFirst: shell commands run before the process becomes `node SCRIPT serve` (`ulimit -f …`)
  const proc = shellFirst
    ? spawn('bash', ['-c', `${shellFirst}; exec "$0" "$@"`, process.execPath, script, 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(process.execPath, [script, 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let stdout = '';
  proc.stderr!.on('data', (c) => (stderr += c));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal })));
  const late = deadline(proc, () => ({ stdout, stderr }), SERVE_PROCESS_LIMIT_MS, 'listen');
  const listening = new Promise<string>((resolve, reject) => {
    proc.stdout!.on('data', (c) => {
      stdout += c;
      const m = /"url":"(http:\/\/[^"]+)".*"msg":"stratum is listening"/.exec(stdout);
      if (m) resolve(m[1]!);
    });
    void exit.then(() => reject(new Error(`serve exited early: ${stderr}`)));
  });
  const url = await Promise.race([listening, late.rejected]).finally(late.cancel);
  return { proc, url, stderr: () => stderr, stdout: () => stdout, exit };
}

/**
 * The exit of a served process, which the caller has just signalled. One that has not exited within
 * `ms` is killed, and this fails with what it printed (the test would otherwise wait for ever).
 */
export async function exitOf(s: ServeProcess, ms = SERVE_PROCESS_LIMIT_MS): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const late = deadline(s.proc, () => ({ stdout: s.stdout(), stderr: s.stderr() }), ms, 'exit');
  return Promise.race([s.exit, late.rejected]).finally(late.cancel);
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `stratum-${prefix}-`));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export interface TestServer {
  server: RunningServer;
  url: string;
  key: string;
  dataDir: string;
  close(): Promise<void>;
}

export function testConfig(dataDir: string, over: Partial<ServiceConfig> = {}): ServiceConfig {
  return {
    ...defaultConfig(),
    port: 0,
    host: '127.0.0.1',
    dataDir,
    workers: 1,
    logLevel: 'silent',
    sweepIntervalS: 0,
    shutdownGraceS: 0,
    // retries at once, unless a test is about the wait itself
    retryDelayS: 0,
    ...over,
  };
}

export async function startTestServer(over: Partial<ServiceConfig> = {}, workerFile?: string): Promise<TestServer> {
  const dataDir = tempDir('api');
  // a test's own worker module has no warm-up job
  const config = testConfig(dataDir, workerFile ? { warmUp: false, ...over } : over);
  const server = await startServer(config, workerFile ? { workerFile } : {});
  const { key } = await server.runtime.accounts.createKey('test');
  return {
    server,
    url: server.url,
    key,
    dataDir,
    async close() {
      await server.close(0);
      removeDir(dataDir);
    },
  };
}

export interface CallOptions {
  method?: string;
  key?: string | null;
  /** JSON body (sets Content-Type) */
  json?: unknown;
  /** raw body */
  body?: Uint8Array | string;
  headers?: Record<string, string>;
  /** the whole exchange must end within this (ms); default CALL_LIMIT_MS */
  timeoutMs?: number;
}

/** No request of the tests takes seconds; one that has not answered in this long never will. */
export const CALL_LIMIT_MS = 60_000;

export interface CallResult {
  status: number;
  headers: Headers;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  bytes: Uint8Array;
}

export async function call(base: string, path: string, opts: CallOptions = {}): Promise<CallResult> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.key) headers['Ocp-Apim-Subscription-Key'] = opts.key;
  let body: Uint8Array | string | undefined = opts.body;
  if (opts.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.json);
  }
  // a plain timer, not AbortSignal.timeout: Node 20 puts those signals in a FinalizationRegistry, and
  // a cleanup of such a registry still pending as a process ends is what spun Node 20.10 at exit
  // (src/cli/serve.ts); the test files end the same way
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new Error(`no answer to ${path} within ${opts.timeoutMs ?? CALL_LIMIT_MS} ms`)), opts.timeoutMs ?? CALL_LIMIT_MS);
  let res: Response;
  let bytes: Uint8Array;
  try {
    res = await fetch(base + path, {
      method: opts.method ?? (body !== undefined ? 'POST' : 'GET'),
      headers,
      body: body as BodyInit | undefined,
      signal: abort.signal,
    });
    bytes = new Uint8Array(await res.arrayBuffer());
  } finally {
    clearTimeout(timer);
  }
  const text = Buffer.from(bytes).toString('utf8');
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, text, body: parsed, bytes };
}

export async function upload(t: { url: string; key: string }, type: string, name: string, bytes: Uint8Array | string): Promise<CallResult> {
  return call(t.url, `/v1/upload/${type}/${encodeURIComponent(name)}`, {
    key: t.key,
    body: bytes,
    headers: { 'Content-Type': 'application/octet-stream', 'Cache-Control': 'no-cache' },
  });
}

export async function waitFor<T>(what: string, fn: () => Promise<T | undefined | null | false>, timeoutMs = 15_000, everyMs = 50): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Polls a task until its status is one of `statuses`. */
export async function waitForStatus(
  t: { url: string; key: string },
  kind: 'ws' | 'stl',
  taskId: string,
  statuses: string[],
  timeoutMs = 15_000,
): Promise<CallResult['body']> {
  return waitFor(`task ${taskId} to be ${statuses.join('|')}`, async () => {
    const r = await call(t.url, `/v1/${kind}/tasks/${taskId}`, { key: t.key });
    return statuses.includes(r.body?.status) ? r.body : undefined;
  }, timeoutMs);
}

/** The totals of a Cura-style G-code header: `;TIME:` seconds, `;Filament used:` metres, `;Filament weight:` grams. */
export function gcodeHeaderTotals(gcode: string): { timeS: number; filamentM: number; weightG: number } {
  const head = gcode.slice(0, 4000);
  const num = (re: RegExp) => {
    const m = re.exec(head);
    if (!m) throw new Error(`header line ${re} missing`);
    return Number(m[1]);
  };
  return {
    timeS: num(/^;TIME:([\d.]+)/m),
    filamentM: num(/^;Filament used: ([\d.]+)m/m),
    weightG: num(/^;Filament weight: ([\d.]+)g/m),
  };
}

export const STL_SETTINGS = { printerModel: 'Creality Ender 3', supportType: 'n', filamentPresetName: 'Createch_PLA' };

/**
 * Sends the headers of a request declaring `length` bytes of body and only `sent` of them, and gives
 * the answer: a route that waits for the whole body answers nothing within `waitMs`, which counts as
 * a failure. (fetch, sending a whole body the server refuses early, fails on Node 20.10's undici
 * with "fetch failed" instead of giving the answer.)
 */
export function postDeclaring(url: string, path: string, key: string, type: string, length: number, sent: string, waitMs = 5000, method = 'POST') {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest(url + path, { method, headers: { 'Ocp-Apim-Subscription-Key': key, 'Content-Type': type, 'Content-Length': String(length) } });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`no answer to ${path} within ${waitMs} ms`));
    }, waitMs);
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        clearTimeout(timer);
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.write(sent);
  });
}
