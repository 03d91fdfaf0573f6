// Operations: /healthz (the process answers), /readyz (it can serve: store reachable), /metrics
// (Prometheus text) and /openapi.json (generated from the route schemas).
import type { FastifyInstance } from 'fastify';
import type { ServiceCore } from '../service/embedded-runtime.js';
import { authenticate } from './auth.js';
import { V1_SECURITY } from './schemas.js';

export async function opsRoutes(app: FastifyInstance, opts: { core: ServiceCore }): Promise<void> {
  const { core } = opts;
  const status = { type: 'object', properties: { status: { type: 'string' } }, required: ['status'] };

  app.get('/healthz', { schema: { summary: 'Liveness', tags: ['operations'], security: [], response: { 200: status, 431: { $ref: 'ApiError#' } } } }, async () => ({
    status: 'ok',
  }));

  app.get(
    '/readyz',
    { schema: { summary: 'Readiness', tags: ['operations'], security: [], response: { 200: status, 503: status, 431: { $ref: 'ApiError#' } } } },
    async (_req, reply) => {
      const ready = await core.ready();
      return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready' });
    },
  );

  app.get(
    '/metrics',
    {
      schema: {
        summary: 'Prometheus metrics',
        tags: ['operations'],
        // public unless STRATUM_METRICS_PUBLIC=false: the document says what this server does
        ...(core.config.metricsPublic ? { security: [] } : { security: V1_SECURITY }),
        response: {
          200: { description: 'text exposition format 0.0.4', content: { 'text/plain': { schema: { type: 'string' } } } },
          ...(core.config.metricsPublic ? {} : { 401: { $ref: 'GatewayError#' } }),
          // headers over the limit, refused before any route
          431: { $ref: 'ApiError#' },
        },
      },
      ...(core.config.metricsPublic ? {} : { onRequest: authenticate(core.accounts) }),
    },
    async (_req, reply) => {
      const text = core.metrics.render(await core.gauges());
      return reply.header('content-type', 'text/plain; version=0.0.4; charset=utf-8').send(text);
    },
  );

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
