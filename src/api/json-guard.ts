// JSON bodies may not hold the keys that poison prototypes: `__proto__` anywhere, or `constructor`
// holding a `prototype` (fastify's onProtoPoisoning / onConstructorPoisoning 'error', which the
// JSON scopes use). Both body parsers refuse them with the same accurate reason: the HTTP thread's
// (json-body.ts), where fastify's parser stays the gate and this only says why it refused, and the
// legacy large-body thread's (legacy/light-body.ts), which parses with parseGuarded itself.
import { ApiError } from '../service/errors.js';
import { isObject } from '../service/legacy-keys.js';

function forbiddenKey(key: string): ApiError {
  const what = key === '__proto__' ? 'the key "__proto__"' : 'the key "constructor" with a "prototype" in it';
  return new ApiError('URE000', `${what} is not allowed in a request body`);
}

/**
 * JSON.parse that refuses the keys fastify's parser refuses (ApiError URE000 naming the key); a
 * body that is not JSON throws JSON.parse's SyntaxError, which says where.
 */
export function parseGuarded(text: string): unknown {
  // the reviver costs a second walk: only when a forbidden key may be there at all, spelled out or
  // escaped ("\u005f_proto__": the reviver sees the key decoded)
  if (!text.includes('proto') && !text.includes('constructor') && !text.includes('\\u')) return JSON.parse(text);
  return JSON.parse(text, (key, value: unknown) => {
    if (key === '__proto__' || (key === 'constructor' && isObject(value) && 'prototype' in value)) throw forbiddenKey(key);
    return value;
  });
}

/**
 * Why fastify's parser refused `text` (it says only that the body is not JSON): the forbidden key,
 * or JSON.parse's own account of the syntax error. `fallback` when neither explains it.
 */
export function refusalReason(text: string, fallback: Error): Error {
  try {
    parseGuarded(text);
  } catch (err) {
    return err as Error;
  }
  return fallback;
}
