// Starts the embedded service: stores, workers and sweeper, then the HTTP server. `stratum serve`,
// the tests and the API benchmark all start it this way.
import pino, { type Logger } from 'pino';
import type { FastifyInstance } from 'fastify';
import type { ServiceConfig } from '../service/config.js';
import { EmbeddedRuntime, type EmbeddedRuntimeOptions } from '../service/embedded-runtime.js';
import { buildApp } from './build-app.js';
import { closeWithinGrace } from './close-app.js';

export interface RunningServer {
  app: FastifyInstance;
  runtime: EmbeddedRuntime;
  /** http://host:port of the listening socket */
  url: string;
  /**
   * graceful stop: no new requests; requests in flight, then the slices still running, have the grace
   * period (default the config's) between them; slices run on while the requests finish
   */
  close(graceMs?: number): Promise<void>;
}

export function createLogger(config: ServiceConfig): Logger {
  return pino({ level: config.logLevel, base: { service: 'stratum', pid: process.pid } });
}

export async function startServer(
  config: ServiceConfig,
  opts: EmbeddedRuntimeOptions & { log?: Logger } = {},
): Promise<RunningServer> {
  const log = opts.log ?? createLogger(config);
  const runtime = EmbeddedRuntime.open(config, log, opts);
  let app: FastifyInstance;
  try {
    await runtime.start();
    app = await buildApp(runtime);
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    await runtime.close(0).catch(() => undefined);
    throw err;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  let closing: Promise<void> | null = null;
  return {
    app,
    runtime,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close(graceMs?: number) {
      closing ??= (async () => {
        await closeWithinGrace(app, graceMs ?? config.shutdownGraceS * 1000, (ms) => runtime.close(ms));
      })();
      return closing;
    },
  };
}
