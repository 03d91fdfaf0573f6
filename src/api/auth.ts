// Authentication: the subscription key (header `Ocp-Apim-Subscription-Key` or query
// `subscription-key`, as the hosted gateway took it) or an OAuth2 bearer token. Failures answer 401
// in the gateway's shape. The account found is put on the request; every lookup is scoped to it.
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { AccountService } from '../service/account-service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** the authenticated account ('' before authentication) */
    accountId: string;
  }
}

export const MISSING_KEY_MESSAGE =
  'Access denied due to missing subscription key. Make sure to include subscription key when making requests to an API.';
export const INVALID_KEY_MESSAGE =
  'Access denied due to invalid subscription key. Make sure to provide a valid key for an active subscription.';
export const INVALID_TOKEN_MESSAGE = 'Access denied due to invalid or expired access token.';

function deny(reply: FastifyReply, message: string): FastifyReply {
  return reply.code(401).header('www-authenticate', 'Bearer').send({ statusCode: 401, message });
}

function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

/** The credentials a request carries: a bearer token and a subscription key may both be there. */
export function credentialsOf(req: FastifyRequest): { bearer?: string; key?: string } {
  const out: { bearer?: string; key?: string } = {};
  const auth = headerValue(req.headers.authorization);
  if (auth && /^bearer\s+/i.test(auth)) out.bearer = auth.replace(/^bearer\s+/i, '').trim();
  const header = headerValue(req.headers['ocp-apim-subscription-key']);
  const query = (req.query as Record<string, unknown> | undefined)?.['subscription-key'];
  const key = header || (typeof query === 'string' ? query : '');
  if (key) out.key = key.trim();
  return out;
}

/**
 * A valid bearer token names the account. One this service does not know (the hosted service's
 * own, or one of ours that expired) does not shut out a request that also carries a valid key: a
 * client following the general documentation sends both, and the key alone is a full credential.
 */
export function authenticate(accounts: AccountService): onRequestHookHandler {
  return async function authHook(req, reply) {
    const { bearer, key } = credentialsOf(req);
    if (bearer !== undefined) {
      const accountId = await accounts.accountOfToken(bearer);
      if (accountId) {
        req.accountId = accountId;
        return;
      }
      if (!key) return deny(reply, INVALID_TOKEN_MESSAGE);
    }
    if (!key) return deny(reply, MISSING_KEY_MESSAGE);
    const accountId = await accounts.accountOfKey(key);
    if (!accountId) return deny(reply, bearer !== undefined ? INVALID_TOKEN_MESSAGE : INVALID_KEY_MESSAGE);
    req.accountId = accountId;
  };
}
