// Interface v0.3 (`/v0.3/...`): v1's uploads and downloads as they are, and the task routes of
// ./task-routes.ts; the same service core, accounts, keys and error bodies as v1.
import type { FastifyInstance } from 'fastify';
import type { ServiceCore } from '../../service/embedded-runtime.js';
import { setUpInterfaceScope } from '../interface-scope.js';
import { outputRoutes } from '../v1/output-routes.js';
import { uploadRoutes } from '../v1/upload-routes.js';
import { v0_3TaskRoutes } from './task-routes.js';

export async function v0_3Api(app: FastifyInstance, opts: { core: ServiceCore }): Promise<void> {
  const { core } = opts;
  setUpInterfaceScope(app, core);

  await app.register(uploadRoutes, { core });
  await app.register(v0_3TaskRoutes, { core });
  await app.register(outputRoutes, { core });
}
