// Interface v0.1 (`/v0.1/...`): ProvideFile (inline workspace) instead of upload and start; the
// other calls as in v0.2 (../legacy/common-routes.ts), over the one service core.
import type { FastifyInstance } from 'fastify';
import type { ServiceCore } from '../../service/embedded-runtime.js';
import { commonLegacyRoutes } from '../legacy/common-routes.js';
import { setUpLegacyScope } from '../legacy/scope.js';
import { provideRoute } from './provide-route.js';

const API_VERSION = '0.1';
const TAG = 'v0.1 (legacy)';

export async function v0_1Api(app: FastifyInstance, opts: { core: ServiceCore }): Promise<void> {
  setUpLegacyScope(app, opts.core, API_VERSION);
  const routeOpts = { core: opts.core, apiVersion: API_VERSION, tag: TAG };
  await app.register(commonLegacyRoutes, routeOpts);
  await app.register(provideRoute, routeOpts);
}
