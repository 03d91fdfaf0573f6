// Interface v0.2 (`/v0.2/...`): the RPC calls of the public clients over the one service core.
// UploadFile and StartSlicingTask here; the calls shared with v0.1 in ../legacy/common-routes.ts.
import type { FastifyInstance } from 'fastify';
import type { ServiceCore } from '../../service/embedded-runtime.js';
import { commonLegacyRoutes } from '../legacy/common-routes.js';
import { setUpLegacyScope } from '../legacy/scope.js';
import { startRoute } from './start-route.js';
import { uploadFileRoute } from './upload-route.js';

const API_VERSION = '0.2';
const TAG = 'v0.2 (legacy)';

export async function v0_2Api(app: FastifyInstance, opts: { core: ServiceCore }): Promise<void> {
  setUpLegacyScope(app, opts.core, API_VERSION);
  const routeOpts = { core: opts.core, apiVersion: API_VERSION, tag: TAG };
  await app.register(commonLegacyRoutes, routeOpts);
  await app.register(uploadFileRoute, routeOpts);
  await app.register(startRoute, routeOpts);
}
