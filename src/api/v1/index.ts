// Interface v1 (`/v1/...`): authentication, the interface's error bodies, and the routes. Other
// versions live in sibling folders (src/api/v0_3, …) over the same service core.
import type { FastifyInstance } from 'fastify';
import type { ServiceCore } from '../../service/embedded-runtime.js';
import { setUpInterfaceScope } from '../interface-scope.js';
import { outputRoutes } from './output-routes.js';
import { taskEventRoutes, type EventStreamOptions } from './task-event-routes.js';
import { taskRoutes } from './task-routes.js';
import { uploadRoutes } from './upload-routes.js';

export async function v1Api(app: FastifyInstance, opts: { core: ServiceCore } & EventStreamOptions): Promise<void> {
  const { core } = opts;
  setUpInterfaceScope(app, core);

  await app.register(uploadRoutes, { core });
  await app.register(taskRoutes, { core });
  await app.register(taskEventRoutes, { core, streams: opts.streams, streamGone: opts.streamGone });
  await app.register(outputRoutes, { core });
}
