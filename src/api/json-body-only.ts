// Task starts take JSON. Fastify also parses text/plain (into a string), which then failed schema
// validation as "body must be object" (400); the answer for a body that is not JSON is 415, as for
// a form or a missing Content-Type.
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../service/errors.js';

export async function jsonBodyOnly(req: FastifyRequest): Promise<void> {
  if (typeof req.body !== 'string') return;
  // a JSON string ("x") sent as JSON: the type was right, the value is not an object
  if (/^\s*application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) throw new ApiError('URE000', 'body must be object');
  throw new ApiError('URE000', 'unsupported Content-Type: send application/json', undefined, 415);
}
