// Server configuration: defaults ← optional JSON config file ← environment variables ← CLI flags.
// docs/configuration.md lists every key.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';

export interface ServiceConfig {
  port: number;
  host: string;
  /** holds stratum.db and blobs/ */
  dataDir: string;
  /** slicing worker threads */
  workers: number;
  /** threads one slice spreads its layers over (large models only); 0 = cores ÷ workers */
  layerThreads: number;
  /** how long those threads stay after a slice for the next large one, seconds (0: they end with it) */
  layerThreadsIdleS: number;
  maxUploadBytes: number;
  /** files and outputs older than this are deleted (task records stay) */
  retentionDays: number;
  /** how often the retention sweeper runs */
  sweepIntervalS: number;
  /** a task is tried this often when its worker dies or fails unexpectedly */
  maxAttempts: number;
  /** a task whose slice broke waits this long before its second attempt, 4× longer before each later one, seconds */
  retryDelayS: number;
  /** a slice running longer fails with SF000 */
  taskTimeoutS: number;
  /** a worker's claim on a task lasts this long without a heartbeat */
  leaseS: number;
  /** on SIGTERM, requests in flight and running slices get this long to finish; slices not done by then go back in the queue */
  shutdownGraceS: number;
  /** heap limit of each worker thread, MiB (0 = Node's default) */
  workerMaxMemoryMb: number;
  /** the most memory one task's toolpath may take, MiB (packed plans and machine moves; 0 = no limit) */
  taskMaxToolpathMb: number;
  /** scheduling niceness added to worker threads (Linux), so HTTP keeps priority over slicing */
  workerNice: number;
  /** each slicing worker slices a small built-in part before it takes tasks, so the first task runs warm code */
  warmUp: boolean;
  /** longest time a client may take to send one request (uploads), seconds */
  requestTimeoutS: number;
  /** most MB of large legacy JSON bodies (inline workspaces) held in memory at once */
  inlineBodiesMb: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** a verified key or token is trusted this long before the store is asked again, seconds */
  authCacheS: number;
  /** /metrics without credentials (scrapers usually have none) */
  metricsPublic: boolean;
  /** trust X-Forwarded-* from a reverse proxy */
  trustProxy: boolean;
  /** what this process does: `all` (HTTP API and slicing), `api` (HTTP only) or `worker` (slicing only) */
  role: ServiceRole;
  /** PostgreSQL URL: set, the process runs distributed (metadata and the queue in PostgreSQL) */
  databaseUrl: string;
  /** S3-compatible endpoint, e.g. http://minio:9000 (empty: AWS S3 itself) */
  s3Endpoint: string;
  s3Bucket: string;
  s3Region: string;
  s3AccessKeyId: string;
  s3SecretAccessKey: string;
  /** prefix of every object key, so the bucket can hold other things too */
  s3Prefix: string;
  /** a worker process (role `worker`) serves /healthz, /readyz and /metrics on this port; 0 = none */
  opsPort: number;
}

export type ServiceRole = 'all' | 'api' | 'worker';
const ROLES: readonly string[] = ['all', 'api', 'worker'];

/** distributed when a database URL is configured; otherwise the zero-config embedded store */
export function isDistributed(config: Pick<ServiceConfig, 'databaseUrl'>): boolean {
  return config.databaseUrl !== '';
}

/** Layer threads per slice: the cores shared out among the slicing workers (1 = no extra threads). */
export function layerThreadsFor(config: Pick<ServiceConfig, 'layerThreads' | 'workers'>): number {
  if (config.layerThreads > 0) return config.layerThreads;
  return Math.max(1, Math.floor(availableParallelism() / config.workers));
}

export function defaultWorkers(): number {
  // One core stays with the HTTP event loop so reads stay fast while slices run.
  return Math.max(1, availableParallelism() - 1);
}

export function defaultConfig(): ServiceConfig {
  return {
    port: 8080,
    host: '0.0.0.0',
    dataDir: './data',
    workers: defaultWorkers(),
    layerThreads: 0,
    layerThreadsIdleS: 60,
    maxUploadBytes: 512 * 1024 * 1024,
    retentionDays: 7,
    sweepIntervalS: 3600,
    maxAttempts: 3,
    retryDelayS: 5,
    taskTimeoutS: 1800,
    leaseS: 30,
    shutdownGraceS: 10,
    workerMaxMemoryMb: 0,
    taskMaxToolpathMb: 2048,
    workerNice: 10,
    warmUp: true,
    requestTimeoutS: 600,
    inlineBodiesMb: 1024,
    logLevel: 'info',
    authCacheS: 5,
    metricsPublic: true,
    trustProxy: false,
    role: 'all',
    databaseUrl: '',
    s3Endpoint: '',
    s3Bucket: '',
    s3Region: 'us-east-1',
    s3AccessKeyId: '',
    s3SecretAccessKey: '',
    s3Prefix: '',
    opsPort: 0,
  };
}

/** Environment variable → config key. */
const ENV_KEYS: Record<string, keyof ServiceConfig> = {
  PORT: 'port',
  HOST: 'host',
  STRATUM_PORT: 'port',
  STRATUM_HOST: 'host',
  STRATUM_DATA_DIR: 'dataDir',
  STRATUM_WORKERS: 'workers',
  STRATUM_LAYER_THREADS: 'layerThreads',
  STRATUM_LAYER_THREADS_IDLE_S: 'layerThreadsIdleS',
  STRATUM_MAX_UPLOAD_BYTES: 'maxUploadBytes',
  STRATUM_RETENTION_DAYS: 'retentionDays',
  STRATUM_SWEEP_INTERVAL_S: 'sweepIntervalS',
  STRATUM_MAX_ATTEMPTS: 'maxAttempts',
  STRATUM_RETRY_DELAY_S: 'retryDelayS',
  STRATUM_TASK_TIMEOUT_S: 'taskTimeoutS',
  STRATUM_LEASE_S: 'leaseS',
  STRATUM_SHUTDOWN_GRACE_S: 'shutdownGraceS',
  STRATUM_WORKER_MAX_MEMORY_MB: 'workerMaxMemoryMb',
  STRATUM_TASK_MAX_TOOLPATH_MB: 'taskMaxToolpathMb',
  STRATUM_WORKER_NICE: 'workerNice',
  STRATUM_WARM_UP: 'warmUp',
  STRATUM_REQUEST_TIMEOUT_S: 'requestTimeoutS',
  STRATUM_INLINE_BODIES_MB: 'inlineBodiesMb',
  STRATUM_LOG_LEVEL: 'logLevel',
  STRATUM_AUTH_CACHE_S: 'authCacheS',
  STRATUM_METRICS_PUBLIC: 'metricsPublic',
  STRATUM_TRUST_PROXY: 'trustProxy',
  STRATUM_ROLE: 'role',
  DATABASE_URL: 'databaseUrl',
  S3_ENDPOINT: 's3Endpoint',
  S3_BUCKET: 's3Bucket',
  S3_REGION: 's3Region',
  S3_ACCESS_KEY_ID: 's3AccessKeyId',
  S3_SECRET_ACCESS_KEY: 's3SecretAccessKey',
  S3_PREFIX: 's3Prefix',
  STRATUM_OPS_PORT: 'opsPort',
};

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Coerces one raw value (string from env/flags, or JSON value from the file) into the key's type. */
function coerce(key: keyof ServiceConfig, raw: unknown, source: string): ServiceConfig[keyof ServiceConfig] {
  const template = defaultConfig()[key];
  if (typeof template === 'number') {
    const n = typeof raw === 'number' ? raw : Number(String(raw).trim());
    const integer = key !== 'retentionDays' && key !== 'authCacheS' && key !== 'retryDelayS';
    if (!Number.isFinite(n) || n < 0 || (integer && !Number.isInteger(n))) {
      throw new ConfigError(`${source}: '${String(raw)}' is not a valid ${integer ? 'whole number' : 'number'} ≥ 0`);
    }
    // a lease of 0 s expired at once (every slice counted as a dead worker's, and failed); a task
    // timeout of 0 s stopped every slice
    if ((key === 'workers' || key === 'maxAttempts' || key === 'maxUploadBytes' || key === 'leaseS' || key === 'taskTimeoutS' || key === 'inlineBodiesMb') && n < 1) {
      throw new ConfigError(`${source}: must be at least 1`);
    }
    if ((key === 'port' || key === 'opsPort') && n > 65535) throw new ConfigError(`${source}: not a port number`);
    if (key === 'workerNice' && n > 19) throw new ConfigError(`${source}: niceness goes up to 19`);
    return n;
  }
  if (typeof template === 'boolean') {
    if (typeof raw === 'boolean') return raw;
    const s = String(raw).trim().toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(s)) return true;
    if (['0', 'false', 'no', 'off'].includes(s)) return false;
    throw new ConfigError(`${source}: '${String(raw)}' is not true/false`);
  }
  const s = String(raw);
  if (key === 'logLevel' && !LOG_LEVELS.includes(s)) {
    throw new ConfigError(`${source}: log level must be one of ${LOG_LEVELS.join(', ')}`);
  }
  if (key === 'role' && !ROLES.includes(s)) throw new ConfigError(`${source}: role must be one of ${ROLES.join(', ')}`);
  return s;
}

export interface LoadConfigOptions {
  env?: NodeJS.ProcessEnv;
  /** path of a JSON config file; else STRATUM_CONFIG */
  configFile?: string;
  /** highest precedence (command-line flags) */
  overrides?: Partial<Record<keyof ServiceConfig, unknown>>;
}

export function loadConfig(opts: LoadConfigOptions = {}): ServiceConfig {
  const env = opts.env ?? process.env;
  const config = defaultConfig() as unknown as Record<string, unknown>;
  const file = opts.configFile ?? env.STRATUM_CONFIG;
  if (file) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8'));
    } catch (err) {
      throw new ConfigError(`config file ${file}: ${(err as Error).message}`);
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new ConfigError(`config file ${file}: expected a JSON object`);
    }
    for (const [k, v] of Object.entries(parsed)) {
      if (!(k in config)) throw new ConfigError(`config file ${file}: unknown key '${k}'`);
      config[k] = coerce(k as keyof ServiceConfig, v, `config file ${file}, key ${k}`);
    }
  }
  for (const [name, key] of Object.entries(ENV_KEYS)) {
    const v = env[name];
    if (v !== undefined && v !== '') config[key] = coerce(key, v, `environment variable ${name}`);
  }
  for (const [k, v] of Object.entries(opts.overrides ?? {})) {
    if (v !== undefined) config[k] = coerce(k as keyof ServiceConfig, v, `option --${k}`);
  }
  const result = config as unknown as ServiceConfig;
  result.dataDir = resolve(result.dataDir);
  checkModeKeys(result);
  return result;
}

/** The embedded store is one process; the distributed one needs both PostgreSQL and a bucket. */
function checkModeKeys(config: ServiceConfig): void {
  const s3Given = config.s3Endpoint !== '' || config.s3Bucket !== '';
  if (!isDistributed(config)) {
    if (config.role !== 'all') {
      throw new ConfigError(`role '${config.role}' needs the distributed mode (DATABASE_URL and S3_*); the embedded store serves one process`);
    }
    if (s3Given) throw new ConfigError('S3_ENDPOINT/S3_BUCKET are set but DATABASE_URL is not: the distributed mode needs both');
    return;
  }
  if (config.s3Bucket === '') throw new ConfigError('DATABASE_URL is set but S3_BUCKET is not: the distributed mode needs both');
  if (!/^postgres(ql)?:\/\//.test(config.databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  if (config.s3Endpoint !== '' && !/^https?:\/\//.test(config.s3Endpoint)) {
    throw new ConfigError('S3_ENDPOINT must be an http:// or https:// URL');
  }
}
