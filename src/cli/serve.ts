// `stratum serve`: runs the slicing service until SIGTERM or SIGINT, then shuts down gracefully
// (requests in flight complete; running slices get the grace period, then resume at next start).
import { parseArgs } from 'node:util';
import { startServer } from '../api/start-server.js';
import { ConfigError, loadConfig } from '../service/config.js';

const HELP = `usage: stratum serve [--port N] [--host ADDR] [--data-dir DIR] [--workers N] [--config FILE]

Runs the slicing service (HTTP API; interface versions under /v1/…). Every option can also be set
by environment variable (PORT, HOST, STRATUM_DATA_DIR, STRATUM_WORKERS, …) or in a JSON config
file (--config or STRATUM_CONFIG); see docs/configuration.md. Flags win over the environment, the
environment over the file.
`;

export async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'data-dir': { type: 'string' },
      workers: { type: 'string' },
      config: { type: 'string' },
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
      overrides: { port: values.port, host: values.host, dataDir: values['data-dir'], workers: values.workers },
    });
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`stratum serve: ${err.message}\n`);
      return 2;
    }
    throw err;
  }

  const server = await startServer(config);
  const log = server.runtime.log;
  log.info({ url: server.url, dataDir: config.dataDir, workers: config.workers }, 'stratum is listening');
  if (!(await server.runtime.accounts.hasActiveKeys())) {
    process.stderr.write(
      `\nNo API key exists yet. Create one (same data directory) with:\n\n` +
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
  await server.close();
  log.info('stopped');
  return 0;
}
