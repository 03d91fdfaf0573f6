// Every operation in /openapi.json gets an operationId, so that generated clients have stable method
// names (without one they derive names from paths or summaries, and 18 summaries are shared by
// several versions' routes). Made from the version, the method and the path:
//   POST /v1/stl/tasks → v1_postStlTasks, GET /v0.2/GetProgress → v0_2_getGetProgress,
//   GET /v1/stl/tasks/:taskId → v1_getStlTasksByTaskId, GET /healthz → getHealthz.
import type { FastifyInstance, RouteOptions } from 'fastify';

const cap = (w: string) => (w ? w[0]!.toUpperCase() + w.slice(1) : w);

export function operationIdFor(method: string, url: string): string {
  const parts = url.split('/').filter(Boolean);
  const version = /^v\d+(\.\d+)?$/.test(parts[0] ?? '') ? parts.shift()!.replace('.', '_') : '';
  const words = parts.map((p) => (p.startsWith(':') ? `By${cap(p.slice(1))}` : p.split(/[^A-Za-z0-9]+/).map(cap).join('')));
  const id = method.toLowerCase() + words.join('');
  return version ? `${version}_${id}` : id;
}

/** Adds the ids to routes registered after this call (routes with a method list get one per method in the document). */
export function addOperationIds(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const schema = route.schema as (Record<string, unknown> & { hide?: boolean }) | undefined;
    if (!schema || schema.hide || schema.operationId) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.length === 1 && methods[0] !== 'HEAD') schema.operationId = operationIdFor(methods[0]!, route.url);
  });
}
