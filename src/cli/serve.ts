// `stratum serve`: runs the slicing service until SIGTERM or SIGINT, then shuts down gracefully
// (requests in flight and running slices share the grace period; slices not done by then resume at
// the next start).
import { parseCommandArgs } from './parse-command-args.js';
import type { Logger } from 'pino';
import { startServer } from '../api/start-server.js';
import { ConfigError, isDistributed, loadConfig, type ServiceConfig } from '../service/config.js';

const HELP = `usage: stratum serve [--role all|api|worker] [--port N] [--host ADDR] [--data-dir DIR] [--workers N] [--config FILE]
       stratum worker [--workers N] [--config FILE]        (the same as serve --role worker)

Runs the slicing service (HTTP API; interface versions under /v1/…). Every option can also be set
by environment variable (PORT, HOST, STRATUM_DATA_DIR, STRATUM_WORKERS, …) or in a JSON config
file (--config or STRATUM_CONFIG); see docs/configuration.md. Flags win over the environment, the
environment over the file.

Without DATABASE_URL the service is one process on the embedded store (SQLite and files under the
data directory). With DATABASE_URL (PostgreSQL) and S3_BUCKET (plus S3_ENDPOINT,
S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_REGION) it runs distributed: any number of processes
share the database and the bucket, each with a role (STRATUM_ROLE or --role): api serves HTTP,
worker slices, all does both. See docs/deployment.md.
`;

/** How long past the grace period a shutdown may take (requests finishing, stores closing), ms. */
const CLOSE_MARGIN_MS = 15_000;
/** How long the process may take to end by itself once everything is closed, ms. */
const DRAIN_MS = 2_000;

/** the server of either mode, as far as this command needs it */
interface Started {
  url: string | null;
  log: Pick<Logger, 'info' | 'warn' | 'error'>;
  hasKeys(): Promise<boolean>;
  close(): Promise<void>;
}

async function start(config: ServiceConfig): Promise<Started> {
  if (isDistributed(config)) {
    // loaded only when used: the embedded server does without pg, pg-boss and the AWS SDK
    const { startDistributed } = await import('./serve-distributed.js');
    const p = await startDistributed(config);
    return { url: p.url, log: p.runtime.log, hasKeys: () => p.runtime.accounts.hasActiveKeys(), close: () => p.close() };
  }
  const s = await startServer(config);
  return { url: s.url, log: s.runtime.log, hasKeys: () => s.runtime.accounts.hasActiveKeys(), close: () => s.close() };
}

export async function run(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'data-dir': { type: 'string' },
      workers: { type: 'string' },
      config: { type: 'string' },
      role: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  let config;
  try {
    config = loadConfig({
      ...(values.config ? { configFile: values.config } : {}),
      overrides: { port: values.port, host: values.host, dataDir: values['data-dir'], workers: values.workers, role: values.role },
    });
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`stratum serve: ${err.message}\n`);
      return 2;
    }
    throw err;
  }

  const server = await start(config);
  const log = server.log;
  const distributed = isDistributed(config);
  // (a distributed process's logger names its role on every line already: serve-distributed.ts)
  if (server.url && config.role === 'worker') {
    log.info({ workers: config.workers, opsUrl: server.url }, 'stratum worker is running');
  } else if (server.url) {
    const where = distributed ? { s3Bucket: config.s3Bucket } : { dataDir: config.dataDir };
    log.info({ url: server.url, ...where, workers: config.role === 'api' ? 0 : config.workers }, 'stratum is listening');
  } else {
    log.info({ workers: config.workers }, 'stratum worker is running');
  }
  if (server.url && config.role !== 'worker' && !(await server.hasKeys())) {
    process.stderr.write(
      `\nNo API key exists yet. Create one (${distributed ? 'same DATABASE_URL' : 'same data directory'}) with:\n\n` +
        `    npx stratum keys create --name NAME\n\n` +
        `and send it as the Ocp-Apim-Subscription-Key header. API reference: ${server.url}/docs\n\n`,
    );
  }

  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    const onSignal = (s: NodeJS.Signals) => {
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
      // a second signal while shutting down stops at once
      const force = () => process.exit(1);
      process.once('SIGTERM', force);
      process.once('SIGINT', force);
      resolve(s);
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  });
  log.info({ signal }, 'shutting down');
  // a close still going well past the grace period is stuck: say what is still open, and leave
  const stuck = setTimeout(() => {
    log.error({ openResources: process.getActiveResourcesInfo() }, 'shutdown did not finish; exiting anyway');
    process.exit(1);
  }, config.shutdownGraceS * 1000 + CLOSE_MARGIN_MS);
  stuck.unref();
  await server.close();
  clearTimeout(stuck);
  log.info('stopped');
  // Everything is closed, so the event loop empties now. The process then leaves by process.exit
  // rather than by running off the end: Node 20.10 ran a pending FinalizationRegistry cleanup while
  // it tore the environment down, and that spun at full CPU for good in about 1 of 100 stops (gdb:
  // FreeEnvironment → DrainTasks → InvokeFinalizationRegistryCleanupFromTask), a server that a
  // SIGTERM did not stop; process.exit does not go that way.
  process.once('beforeExit', () => process.exit(0));
  // Should anything still hold the loop (a library's timer or socket), it would stay up for good
  // too: it exits all the same after a moment, naming what was left. (unref: a clean end does not wait.)
  setTimeout(() => {
    log.warn({ openResources: process.getActiveResourcesInfo() }, 'still open after shutdown; exiting');
    process.exit(0);
  }, DRAIN_MS).unref();
  return 0;
}
