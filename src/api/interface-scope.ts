// What every JSON interface version (v1, v0.3) sets up on its scope: the interface's error bodies,
// authentication by key or token, and JSON bodies parsed leniently (empty body, text/plain JSON).
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
}
