// JSON bodies as clients really send them: tutorials read a task with `POST` and
// `Content-Type: application/json` but no body, which the default parser refuses. A body the
// parser refuses is answered with the reason (a forbidden key, where the syntax breaks), which
// fastify's own error leaves out.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { refusalReason } from './json-guard.js';

type Done = (err: Error | null, body?: unknown) => void;

export function lenientJsonParser(app: FastifyInstance) {
  // fastify's own parser (guards against __proto__ / constructor poisoning)
  const strict = app.getDefaultJsonParser('error', 'error');
  return (req: FastifyRequest, body: string | Buffer, done: Done): void => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    strict(req, text, (err: Error | null, parsed?: unknown) => (err ? done(refusalReason(text, err)) : done(null, parsed)));
  };
}
