// What every JSON interface version (v1, v0.3) sets up on its scope: the interface's error bodies,
// authentication by key or token, and JSON bodies parsed leniently (empty body, text/plain JSON,
// an empty form).
import type { FastifyInstance } from 'fastify';
import type { ServiceCore } from '../service/embedded-runtime.js';
import { authenticate } from './auth.js';
import { interfaceErrorHandler, notFoundHandler } from './errors.js';
import { lenientJsonParser } from './json-body.js';

export function setUpInterfaceScope(app: FastifyInstance, core: ServiceCore): void {
  app.setErrorHandler(interfaceErrorHandler);
  app.setNotFoundHandler(notFoundHandler);
  app.addHook('onRequest', authenticate(core.accounts));
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, lenientJsonParser(app));
  // `curl -d ''` and many HTTP libraries label an empty POST a form: a task read or cancel by POST
  // carries no body to read, so an empty one is no body; a form with fields stays text, which a
  // task start refuses as not JSON (415)
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    done(null, text.trim() === '' ? undefined : text);
  });
}
