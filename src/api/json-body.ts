// JSON bodies as clients really send them: tutorials read a task with `POST` and
// `Content-Type: application/json` but no body, which the default parser refuses.
import type { FastifyInstance, FastifyRequest } from 'fastify';

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
    strict(req, text, done);
  };
}
