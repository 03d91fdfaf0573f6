// What every legacy RPC version scope (v0.1, v0.2) sets up: the subscription key (same accounts and
// keys as v1), its own error envelope, and forgiving bodies: JSON (an empty body too), JSON sent
// as text/json or text/plain or under a form's content type, form fields; anything else is handed over unread (UploadFile reads raw bytes).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceCore } from '../../service/embedded-runtime.js';
import { ApiError, badRequest } from '../../service/errors.js';
import { fold, text } from '../../service/legacy-keys.js';
import { authenticate } from '../auth.js';
import { notFoundHandler } from '../errors.js';
import { lenientJsonParser } from '../json-body.js';
import { legacyErrorHandler } from './envelope.js';
import { checkLegacyDepth } from './json-depth.js';
import { LARGE_BODY_BYTES, parseLargeBody } from './large-body.js';
import { ByteBudget } from './body-budget.js';

/** One budget of inline-body bytes per service, shared by its v0.1 and v0.2 scopes. */
const budgets = new WeakMap<ServiceCore, ByteBudget>();
/** Content types the JSON parser below reads whole into memory. */
const READ_WHOLE = /^\s*(application\/json|text\/json|text\/plain|application\/x-www-form-urlencoded)\s*(;|$)/i;

export function setUpLegacyScope(app: FastifyInstance, core: ServiceCore, apiVersion: string): void {
  app.setErrorHandler(legacyErrorHandler(apiVersion));
  app.setNotFoundHandler(notFoundHandler);
  app.addHook('onRequest', authenticate(core.accounts));
  app.removeAllContentTypeParsers();
  let budget = budgets.get(core);
  if (!budget) budgets.set(core, (budget = new ByteBudget(core.config.inlineBodiesMb * 1024 * 1024)));
  const inline = budget;
  // a large body is let in before it is read when its length is declared; a chunked one once read
  const replies = new WeakMap<FastifyRequest, FastifyReply>();
  app.addHook('preParsing', async (req, reply, payload) => {
    if (!READ_WHOLE.test(req.headers['content-type'] ?? '')) return payload;
    replies.set(req, reply);
    const declared = Number(req.headers['content-length']);
    if (declared > LARGE_BODY_BYTES) inline.take(req, reply, declared);
    return payload;
  });
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
    const reply = replies.get(req);
    try {
      if (reply) inline.take(req, reply, body.length);
    } catch (err) {
      return done(err as Error);
    }
    // counted until parsed, even if the client has gone; a parse whose client has gone is skipped
    inline.pin(req);
    // the connection, not the request stream: that one ends (and is destroyed) once its body is read
    const gone = () => req.raw.socket?.destroyed ?? false;
    parseLargeBody(typeof body === 'string' ? body : body.toString('utf8'), gone)
      .then(
        (parsed) => done(null, parsed),
        (err: Error) => done(err),
      )
      .finally(() => inline.unpin(req));
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
