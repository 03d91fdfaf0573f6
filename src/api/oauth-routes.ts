// POST /oauth2/token: OAuth2 client credentials (RFC 6749 §4.4). client_id is an API key's id,
// client_secret the key; credentials come in the form body or as HTTP Basic. The token is a bearer
// token for `Authorization: Bearer …`, valid for an hour.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ServiceCore } from '../service/embedded-runtime.js';
import { badRequest } from '../service/errors.js';
import { interfaceErrorHandler, toApiError } from './errors.js';

interface TokenBody {
  grant_type?: string;
  client_id?: string;
  client_secret?: string;
}

function oauthError(reply: FastifyReply, status: number, error: string, description: string): FastifyReply {
  return reply.code(status).header('cache-control', 'no-store').send({ error, error_description: description });
}

/** HTTP Basic client credentials: null when there are none, 'malformed' when they cannot be decoded. */
function basicCredentials(header: string | undefined): { id: string; secret: string } | null | 'malformed' {
  if (!header || !/^basic\s+/i.test(header)) return null;
  const decoded = Buffer.from(header.replace(/^basic\s+/i, ''), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  try {
    return { id: decodeURIComponent(decoded.slice(0, colon)), secret: decodeURIComponent(decoded.slice(colon + 1)) };
  } catch {
    // id and secret are percent-encoded (RFC 6749 §2.3.1): a bad escape is a malformed request
    return 'malformed';
  }
}

export async function oauthRoutes(app: FastifyInstance, opts: { core: ServiceCore }): Promise<void> {
  const { accounts } = opts.core;
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16 * 1024 }, (_req, body, done) => {
    const params = new URLSearchParams(String(body));
    // RFC 6749 3.1: a parameter must not be sent more than once (which client_id would be meant?)
    for (const name of new Set(params.keys())) {
      if (params.getAll(name).length > 1) return done(badRequest(`the parameter ${name.slice(0, 40)} is sent more than once`));
    }
    done(null, Object.fromEntries(params));
  });
  // what the framework refuses (body not JSON or not an object, content type, size) answers in
  // RFC 6749's shape too: the interface's {errorCode, message} would be stripped to {} by the schema
  app.setErrorHandler((err, req, reply) => {
    const apiErr = toApiError(err);
    if (apiErr.httpStatus >= 500) return interfaceErrorHandler(err, req, reply);
    req.log.info({ error: 'invalid_request', reason: apiErr.message }, 'request refused');
    if (apiErr.httpStatus === 413) return oauthError(reply.header('connection', 'close'), 413, 'invalid_request', apiErr.message);
    const compressed = req.headers['content-encoding'] !== undefined && /Content-Encoding/.test(apiErr.message);
    const message = apiErr.httpStatus === 415 && !compressed ? 'send the parameters as application/x-www-form-urlencoded or JSON' : apiErr.message;
    return oauthError(reply, 400, 'invalid_request', message);
  });
  const errorSchema = {
    type: 'object',
    required: ['error', 'error_description'],
    properties: { error: { type: 'string' }, error_description: { type: 'string' } },
  };
  const tokenRequest = {
    type: 'object',
    properties: { grant_type: { type: 'string', description: 'client_credentials' }, client_id: { type: 'string' }, client_secret: { type: 'string' } },
  };

  app.post<{ Body: TokenBody | undefined }>(
    '/oauth2/token',
    {
      schema: {
        summary: 'Get a bearer token (OAuth2 client credentials)',
        description: 'grant_type=client_credentials; client_id = the key id (`stratum keys list`), client_secret = the key.',
        tags: ['auth'],
        security: [],
        // RFC 6749's form, or the same fields as JSON; the credentials may come as HTTP Basic instead
        body: {
          content: {
            'application/x-www-form-urlencoded': { schema: tokenRequest },
            'application/json': { schema: tokenRequest },
          },
        },
        response: {
          200: {
            type: 'object',
            required: ['access_token', 'token_type', 'expires_in'],
            properties: { access_token: { type: 'string' }, token_type: { type: 'string' }, expires_in: { type: 'integer' } },
          },
          400: errorSchema,
          401: errorSchema,
          413: errorSchema,
          // headers over the limit are refused before any route, in the interface's shape
          431: { $ref: 'ApiError#' },
          500: { $ref: 'ApiError#' },
          503: { $ref: 'ApiError#' },
        },
      },
    },
    async (req, reply) => {
      const body = req.body ?? {};
      // RFC 6749 §5.2: a missing parameter is invalid_request; a grant other than ours unsupported_grant_type
      if (body.grant_type === undefined || body.grant_type === '') {
        return oauthError(reply, 400, 'invalid_request', 'grant_type is required: client_credentials');
      }
      if (body.grant_type !== 'client_credentials') {
        return oauthError(reply, 400, 'unsupported_grant_type', 'grant_type must be client_credentials');
      }
      const basic = basicCredentials(req.headers.authorization);
      if (basic === 'malformed') {
        return oauthError(reply, 400, 'invalid_request', 'the Basic credentials are not valid percent-encoding');
      }
      // RFC 6749 §2.3.1: one way of authenticating per request (Basic silently won before)
      if (basic && body.client_secret !== undefined) {
        return oauthError(reply, 400, 'invalid_request', 'send the client credentials one way: HTTP Basic or client_secret in the body, not both');
      }
      const id = basic?.id ?? body.client_id;
      const secret = basic?.secret ?? body.client_secret;
      if (!id || !secret) return oauthError(reply, 400, 'invalid_request', 'client_id and client_secret are required');
      const token = await accounts.issueToken(id, secret);
      if (!token) {
        reply.header('www-authenticate', 'Basic realm="stratum"');
        return oauthError(reply, 401, 'invalid_client', 'unknown client or wrong secret');
      }
      return reply
        .header('cache-control', 'no-store')
        .send({ access_token: token.accessToken, token_type: 'Bearer', expires_in: token.expiresIn });
    },
  );
}
