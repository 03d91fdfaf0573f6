// The HTTP server: fastify with request ids in every log line, metrics per route, the OpenAPI
// document built from the route schemas (/openapi.json) and its reference page (/docs), the
// operations endpoints, OAuth2, and each interface version under its own prefix.
import swagger from '@fastify/swagger';
import scalar from '@scalar/fastify-api-reference';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { ENGINE_VERSION } from '../engine/version.js';
import type { ServiceCore } from '../service/embedded-runtime.js';
import { labelKey } from '../service/metrics.js';
import { clientErrorHandler, noteRequest } from './client-error.js';
import { ApiError } from '../service/errors.js';
import { interfaceErrorHandler, notFoundHandler } from './errors.js';
import { frameworkErrorHandler } from './framework-errors.js';
import { oauthRoutes } from './oauth-routes.js';
import { addOperationIds } from './operation-ids.js';
import { opsRoutes } from './ops-routes.js';
import { SHARED_SCHEMAS } from './schemas.js';
import { v0_1Api } from './v0_1/index.js';
import { v0_2Api } from './v0_2/index.js';
import { v0_3Api } from './v0_3/index.js';
import { v1Api } from './v1/index.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
// path parameters, percent-encoded: a 255-byte file name takes at most 765
const MAX_PARAM_LENGTH = 1000;

/** Node's HTTP server options that make a request timeout of `ms` hold (0: none). */
export function requestTimeoutOptions(ms: number): { requestTimeout: number; headersTimeout: number; connectionsCheckingInterval: number } {
  return {
    requestTimeout: ms,
    headersTimeout: ms > 0 ? Math.min(60_000, ms) : 60_000,
    connectionsCheckingInterval: ms > 0 ? Math.min(30_000, Math.max(250, Math.round(ms / 10))) : 30_000,
  };
}

export async function buildApp(core: ServiceCore): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: core.log as FastifyBaseLogger,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // one log line per request is written by the onResponse hook below
    logController: new LogController({ requestIdLogLabel: 'requestId', disableRequestLogging: true }),
    trustProxy: core.config.trustProxy,
    bodyLimit: 1024 * 1024,
    requestTimeout: core.config.requestTimeoutS * 1000,
    // Node checks for late requests on a timer (every 30 s by default, and a request timeout
    // set after the server is made waited for the headers' 60 s too: 1 s answered after 80-90 s);
    // the check runs often enough here for the deadline to hold within a tenth of it
    http: requestTimeoutOptions(core.config.requestTimeoutS * 1000),
    // scalars are coerced (query strings), but not fastify's default 'array' coercion, which took
    // ["Creality Ender 3"] for a printer name: every documented field holding a string is a string
    ajv: { customOptions: { coerceTypes: true } },
    // paths in any letter case (`/v0.2/getProgress`, `/V1/STL/tasks`): clients write the same segments
    // both ways (`/upload/WS/…` beside `/ws/tasks`) and how the hosted service matched them is not
    // documented, so none is refused for its case; the parameters keep the case they came in
    routerOptions: { ignoreTrailingSlash: true, caseSensitive: false, maxParamLength: MAX_PARAM_LENGTH },
    // longer parameters and undecodable paths: the interface's error bodies, not fastify's
    frameworkErrors: frameworkErrorHandler(MAX_PARAM_LENGTH, (req, reply) => countRequest(req, reply, 'unmatched')),
    // and what Node's HTTP parser refuses before fastify sees a request
    clientErrorHandler: clientErrorHandler(core.log as FastifyBaseLogger),
  });

  app.server.on('request', noteRequest);
  const streams = new Set<ServerResponse>();
  app.decorateRequest('accountId', '');
  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
    // no call takes a compressed body: said as such (415), not read as broken JSON with the gzip
    // bytes echoed back, nor stored compressed as an upload
    const encoding = req.headers['content-encoding'];
    const hasBody =
      req.method !== 'GET' && req.method !== 'HEAD' &&
      ((req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0') || req.headers['transfer-encoding'] !== undefined);
    if (hasBody && encoding !== undefined && !/^\s*identity\s*$/i.test(encoding)) {
      throw new ApiError('URE000', `Content-Encoding '${encoding.slice(0, 40)}' is not supported: send the body uncompressed`, undefined, 415);
    }
  });
  // rendered metric labels per (method, route, status): label rendering stays off the hot path
  const labelCache = new Map<string, [string, string]>();
  function countRequest(req: FastifyRequest, reply: FastifyReply, route: string): void {
    const status = reply.statusCode;
    const seconds = reply.elapsedTime / 1000;
    const cacheKey = `${req.method} ${status} ${route}`;
    let keys = labelCache.get(cacheKey);
    if (!keys) {
      keys = [labelKey({ method: req.method, route, status: String(status) }), labelKey({ route })];
      if (labelCache.size < 1000) labelCache.set(cacheKey, keys);
    }
    core.metrics.httpRequests.incKey(keys[0]);
    core.metrics.httpDuration.observeKey(keys[1], seconds);
    // a 503 from /readyz is its answer, not a failure (Readiness logs the change once)
    const level = status >= 500 && route !== '/readyz' ? 'error' : 'info';
    req.log[level]({ method: req.method, url: req.url.split('?')[0]!.slice(0, 200), status, ms: Math.round(seconds * 1000) }, 'request');
  }
  app.addHook('onResponse', async (req, reply) => {
    countRequest(req, reply, req.routeOptions.url ?? 'unmatched');
  });
  // open event streams end before the server waits for its connections to close
  app.addHook('preClose', async () => {
    for (const res of streams) res.end();
  });
  app.setErrorHandler(interfaceErrorHandler);
  app.setNotFoundHandler(notFoundHandler);
  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Stratum',
        version: ENGINE_VERSION,
        description:
          'Self-hosted cloud slicing service (Cloud Slicing Service Interface v1, and the earlier v0.3, v0.2 and v0.1). Upload files, start a task, follow it, download the G-code or FCode.',
      },
      components: {
        securitySchemes: {
          subscriptionKey: { type: 'apiKey', in: 'header', name: 'Ocp-Apim-Subscription-Key' },
          subscriptionKeyQuery: { type: 'apiKey', in: 'query', name: 'subscription-key' },
          bearer: { type: 'http', scheme: 'bearer', description: 'a token from POST /oauth2/token' },
          oauth2: {
            type: 'oauth2',
            description: 'client credentials: client_id = the key id (`stratum keys list`), client_secret = the key',
            flows: { clientCredentials: { tokenUrl: '/oauth2/token', scopes: {} } },
          },
        },
      },
      tags: [
        { name: 'files', description: 'uploads' },
        { name: 'tasks', description: 'slicing tasks' },
        { name: 'outputs', description: 'printer files' },
        { name: 'auth', description: 'OAuth2' },
        { name: 'operations', description: 'health and metrics' },
        { name: 'v0.3', description: 'interface v0.3: task routes (uploads and downloads as v1)' },
        { name: 'v0.2 (legacy)', description: 'interface v0.2: RPC calls in the legacy envelope (docs/api-legacy.md)' },
        { name: 'v0.1 (legacy)', description: 'interface v0.1: RPC calls with the workspace inline' },
      ],
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  });
  await app.register(scalar, {
    routePrefix: '/docs',
    configuration: { title: 'Stratum API', withDefaultFonts: false },
  });

  addOperationIds(app);
  await app.register(opsRoutes, { core });
  await app.register(oauthRoutes, { core });
  // an event stream the client closed never finishes, so onResponse never sees it: counted and logged here
  const streamGone = (req: FastifyRequest, reply: FastifyReply) => countRequest(req, reply, req.routeOptions.url ?? 'unmatched');
  await app.register(v1Api, { prefix: '/v1', core, streams, streamGone });
  await app.register(v0_3Api, { prefix: '/v0.3', core });
  await app.register(v0_2Api, { prefix: '/v0.2', core });
  await app.register(v0_1Api, { prefix: '/v0.1', core });
  return app;
}
