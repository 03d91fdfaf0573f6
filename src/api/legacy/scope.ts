// What every legacy RPC version scope (v0.1, v0.2) sets up: the subscription key (same accounts and
// keys as v1), its own error envelope, and forgiving bodies: JSON (an empty body too), JSON sent
// as text/json or text/plain or under a form's content type, form fields; anything else is handed over unread (UploadFile reads raw bytes).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServiceCore } from '../../service/embedded-runtime.js';
import { ApiError, badRequest } from '../../service/errors.js';
import { fold, text } from '../../service/legacy-keys.js';
import { authenticate } from '../auth.js';
import { notFoundHandler } from '../errors.js';
import { lenientJsonParser } from '../json-body.js';
import { legacyErrorHandler } from './envelope.js';
import { checkLegacyDepth } from './json-depth.js';
import { LARGE_BODY_BYTES, parseLargeBody } from './large-body.js';

export function setUpLegacyScope(app: FastifyInstance, core: ServiceCore, apiVersion: string): void {
  app.setErrorHandler(legacyErrorHandler(apiVersion));
  app.setNotFoundHandler(notFoundHandler);
  app.addHook('onRequest', authenticate(core.accounts));
  app.removeAllContentTypeParsers();
  const small = lenientJsonParser(app);
  // inline workspaces make bodies of many MB: those are parsed on a worker thread (large-body.ts)
  const json = (req: FastifyRequest, body: string | Buffer, done: (err: Error | null, body?: unknown) => void): void => {
    if (body.length <= LARGE_BODY_BYTES) {
      // the large-body thread makes the same check (light-body.ts), off this thread
      try {
        checkLegacyDepth(typeof body === 'string' ? body : body.toString('utf8'));
      } catch (err) {
        return done(err as Error);
      }
      return small(req, body, done);
    }
    parseLargeBody(typeof body === 'string' ? body : body.toString('utf8')).then(
      (parsed) => done(null, parsed),
      (err: Error) => done(err),
    );
  };
  // text/json: what ASP.NET, which served the hosted service, read as JSON as well
  app.addContentTypeParser(['application/json', 'text/json', 'text/plain'], { parseAs: 'string' }, json);
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (req, raw, done) => {
    const body = String(raw);
    // `curl -d '{…}'` labels a JSON body as a form unless told otherwise: no form starts with `{`
    if (/^\s*\{/.test(body)) return json(req, body, done);
    // form fields are text, never a workspace: past 1 MiB a form cannot be a valid call, and decoding
    // hundreds of MB of it here held every other request up (/healthz 1.4–2.3 s on a 200 MB form)
    if (body.length > LARGE_BODY_BYTES) return done(formTooLarge());
    done(null, Object.fromEntries(new URLSearchParams(body)));
  });
  app.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
}

function formTooLarge(): ApiError {
  return new ApiError('URE000', 'form fields must stay under 1 MiB together; send an inline workspace as JSON', undefined, 413);
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
