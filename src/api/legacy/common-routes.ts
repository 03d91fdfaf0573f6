// The RPC calls v0.1 and v0.2 share: GetActivationStatus, GetProgress, GetPrintingInformation,
// CancelSlicing and DownloadFile (GET, POST accepted; works once). Each is a thin reading of the
// one task service; the download rule lives in service/legacy-download.ts.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServiceCore } from '../../service/embedded-runtime.js';
import { OneTimeDownloads } from '../../service/legacy-download.js';
import { legacyProgress, printingInformation } from '../../service/legacy-task-views.js';
import { contentDisposition } from '../v1/output-routes.js';
import { envelope } from './envelope.js';
import { RESULTS, TASK_ID_BODY, TASK_ID_QUERY, legacyRoute } from './schemas.js';
import { taskIdOf } from './scope.js';

// one per service core, shared by the versions, so a file fetched through v0.1 is gone for v0.2 too
const downloadsOf = new WeakMap<ServiceCore, OneTimeDownloads>();

function downloads(core: ServiceCore): OneTimeDownloads {
  let d = downloadsOf.get(core);
  if (!d) {
    d = new OneTimeDownloads(core.outputs);
    downloadsOf.set(core, d);
  }
  return d;
}

export async function commonLegacyRoutes(app: FastifyInstance, opts: { core: ServiceCore; apiVersion: string; tag: string }): Promise<void> {
  const { core, apiVersion, tag } = opts;
  const { tasks } = core;

  app.route({
    method: ['POST', 'GET'],
    url: '/GetActivationStatus',
    schema: legacyRoute(tag, 'Is the slicer active and ready?', RESULTS.activation),
    handler: async () => envelope(apiVersion, { activated: (await core.ready()) ? 'true' : 'false' }),
  });

  // the two readings also answer GET with ?taskid= (the id in the query, as DownloadFile takes it)
  const reading = (url: string, summary: string, result: Record<string, unknown>, handler: (req: FastifyRequest) => Promise<unknown>) => {
    app.post(url, { schema: legacyRoute(tag, summary, result, { body: TASK_ID_BODY, querystring: TASK_ID_QUERY }) }, handler);
    app.get(url, { schema: legacyRoute(tag, `${summary} (GET)`, result, { querystring: TASK_ID_QUERY }) }, handler);
  };
  reading('/GetProgress', 'Progress of a task', RESULTS.progress, async (req) => {
    const task = await tasks.get(req.accountId, taskIdOf(req));
    const result: Record<string, unknown> = { progress: legacyProgress(task), status: task.status };
    if (task.error) result.error = task.error;
    return envelope(apiVersion, result);
  });
  reading('/GetPrintingInformation', 'Print time, filament length and weight of a finished task', RESULTS.information, async (req) =>
    envelope(apiVersion, printingInformation(await tasks.get(req.accountId, taskIdOf(req)))),
  );

  app.post('/CancelSlicing', { schema: legacyRoute(tag, 'Cancel a queued or running task', RESULTS.cancel, { body: TASK_ID_BODY }) }, async (req) => {
    const task = await tasks.cancel(req.accountId, taskIdOf(req));
    return envelope(apiVersion, { taskid: task.id, taskId: task.id, status: task.status });
  });

  const downloadSchema = legacyRoute(tag, 'Download the printer file of a finished task (once: the second call answers 404 URE006)', {}, {
    querystring: TASK_ID_QUERY,
  });
  (downloadSchema.response as Record<number, unknown>)[200] = {
    description: 'the G-code or FCode file; Content-Disposition names it',
    content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
  };
  app.route({
    method: ['GET', 'POST'],
    url: '/DownloadFile',
    schema: downloadSchema,
    handler: async (req, reply) => {
      const task = await tasks.get(req.accountId, taskIdOf(req));
      const { download, done } = await downloads(core).take(req.accountId, task);
      reply
        .header('content-type', 'application/octet-stream')
        .header('content-disposition', contentDisposition(download.output.outputName))
        .header('content-length', download.size);
      // HEAD (fastify answers it with this handler, sending no body) does not use up the one download
      const delivered = req.method !== 'HEAD';
      const res = reply.raw;
      res.once('finish', () => void done(delivered).catch((err) => req.log.error({ err }, 'legacy download: deleting the output failed')));
      res.once('close', () => void done(false));
      return reply.send(download.stream);
    },
  });
}
