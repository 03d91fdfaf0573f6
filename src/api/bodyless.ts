// Calls that take no body (a cancel, a delete) answer whatever Content-Type a client library puts on
// an empty request. Fastify reads a body whenever a Content-Type is given, and one it has no parser
// for (application/octet-stream on a bare DELETE) was refused with 415 before the route ran.
import type { FastifyRequest } from 'fastify';

/** Route `onRequest` hook: a request that carries no body loses its Content-Type, so nothing is parsed. */
export async function ignoreContentTypeWithoutBody(req: FastifyRequest): Promise<void> {
  const length = req.headers['content-length'];
  const chunked = req.headers['transfer-encoding'] !== undefined;
  if (!chunked && (length === undefined || length.trim() === '0')) delete req.headers['content-type'];
}
