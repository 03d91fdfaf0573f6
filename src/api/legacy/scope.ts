// What every legacy RPC version scope (v0.1, v0.2) sets up: the subscription key (same accounts and
// keys as v1), its own error envelope, and forgiving bodies: JSON (an empty body too), JSON sent
// as text/plain, form fields; anything else is handed over unread (UploadFile reads raw bytes).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServiceCore } from '../../service/embedded-runtime.js';
import { badRequest } from '../../service/errors.js';
import { fold, text } from '../../service/legacy-keys.js';
import { authenticate } from '../auth.js';
import { notFoundHandler } from '../errors.js';
import { lenientJsonParser } from '../json-body.js';
import { legacyErrorHandler } from './envelope.js';

export function setUpLegacyScope(app: FastifyInstance, core: ServiceCore, apiVersion: string): void {
  app.setErrorHandler(legacyErrorHandler(apiVersion));
  app.setNotFoundHandler(notFoundHandler);
  app.addHook('onRequest', authenticate(core.accounts));
  app.removeAllContentTypeParsers();
  const json = lenientJsonParser(app);
  app.addContentTypeParser(['application/json', 'text/plain'], { parseAs: 'string' }, json);
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });
  app.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
}

/** The task id from the query or the JSON body, in any casing (`taskid`, `taskId`, `uniqueID`). */
export function taskIdOf(req: FastifyRequest): string {
  const fromQuery = text(fold(req.query), 'taskid', 'uniqueid');
  if (fromQuery) return fromQuery.trim();
  const body = req.body;
  const fromBody = body && typeof body === 'object' && !('pipe' in body) ? text(fold(body), 'taskid', 'uniqueid') : undefined;
  if (fromBody) return fromBody.trim();
  throw badRequest('taskid is required (in the JSON body or as ?taskid=)');
}
