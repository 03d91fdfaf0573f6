// Starts one process of the distributed mode: the runtime on PostgreSQL + S3, and the HTTP API
// unless the role is `worker` (a worker has no port; it only claims and slices).
import Fastify, { type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from '../api/build-app.js';
import { closeWithinGrace } from '../api/close-app.js';
import { opsRoutes } from '../api/ops-routes.js';
import { SHARED_SCHEMAS } from '../api/schemas.js';
import { createLogger } from '../api/start-server.js';
import type { ServiceConfig } from '../service/config.js';
import { DistributedRuntime, type DistributedRuntimeOptions } from '../service/distributed-runtime.js';

export interface DistributedProcess {
  runtime: DistributedRuntime;
  /** the HTTP API, or for a worker its operations endpoints (STRATUM_OPS_PORT), or null */
  app: FastifyInstance | null;
  /** where `app` listens */
  url: string | null;
  close(graceMs?: number): Promise<void>;
}

export async function startDistributed(
  config: ServiceConfig,
  opts: DistributedRuntimeOptions & { log?: Logger } = {},
): Promise<DistributedProcess> {
  const log = (opts.log ?? createLogger(config)).child({ role: config.role });
  const runtime = await DistributedRuntime.open(config, log, opts);
  let app: FastifyInstance | null = null;
  try {
    await runtime.start();
    if (config.role !== 'worker') {
      app = await buildApp(runtime);
      await app.listen({ port: config.port, host: config.host });
    } else if (config.opsPort > 0) {
      // health and metrics of a worker (its slice durations are counted here, not in the API processes)
      app = Fastify({ logger: false });
      // the error bodies the routes declare by reference (431; a private /metrics' 401)
      for (const schema of SHARED_SCHEMAS) app.addSchema(schema);
      await app.register(opsRoutes, { core: runtime });
      await app.listen({ port: config.opsPort, host: config.host });
    }
  } catch (err) {
    await app?.close().catch(() => undefined);
    await runtime.close(0).catch(() => undefined);
    throw err;
  }
  let url: string | null = null;
  const address = app?.server.address();
  if (address && typeof address === 'object') {
    const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
    url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  }
  let closing: Promise<void> | null = null;
  return {
    runtime,
    app,
    url,
    close(graceMs?: number) {
      closing ??= (async () => {
        await closeWithinGrace(app, graceMs ?? config.shutdownGraceS * 1000, (ms) => runtime.close(ms));
      })();
      return closing;
    },
  };
}
