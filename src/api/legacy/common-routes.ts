// The RPC calls v0.1 and v0.2 share: GetActivationStatus, GetProgress, GetPrintingInformation,
// CancelSlicing and DownloadFile (GET, POST accepted; works once). Each is a thin reading of the
// one task service; the download rule lives in service/legacy-download.ts.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServiceCore } from '../../service/embedded-runtime.js';
import { OneTimeDownloads } from '../../service/legacy-download.js';
import { legacyProgress, printingInformation } from '../../service/legacy-task-views.js';
import { contentDisposition } from '../v1/output-routes.js';
import { deliveredWhole } from './delivered-whole.js';
import { envelope } from './envelope.js';
import { CONTENT_DISPOSITION } from '../schemas.js';
import { RESULTS, TASK_ID_BODY, TASK_ID_QUERY, legacyRoute, type ResultSchema } from './schemas.js';
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

  // one registration per method: each gets its own operation (and operationId) in the document
  for (const method of ['POST', 'GET'] as const) {
    app.route({
      method,
      url: '/GetActivationStatus',
      schema: legacyRoute(tag, `Is the slicer active and ready?${method === 'GET' ? ' (GET)' : ''}`, RESULTS.activation),
      handler: async () => envelope(apiVersion, { activated: (await core.ready()) ? 'true' : 'false' }),
    });
  }

  // a POST that sends no body at all (the id as ?taskid=) reads as an empty one
  const bodyOptional = async (req: FastifyRequest) => {
    if (req.body === undefined || req.body === null) req.body = {};
  };

  // the two readings also answer GET with ?taskid= (the id in the query, as DownloadFile takes it)
  const reading = (url: string, summary: string, result: ResultSchema, handler: (req: FastifyRequest) => Promise<unknown>) => {
    app.post(url, { schema: legacyRoute(tag, summary, result, { body: TASK_ID_BODY, querystring: TASK_ID_QUERY }), preValidation: bodyOptional }, handler);
    app.get(url, { schema: legacyRoute(tag, `${summary} (GET)`, result, { querystring: TASK_ID_QUERY }) }, handler);
  };
  reading('/GetProgress', 'Progress of a task', RESULTS.progress, async (req) => {
    const task = await tasks.get(req.accountId, taskIdOf(req));
    const result: Record<string, unknown> = { progress: legacyProgress(task), status: task.status };
    // the legacy envelope's field names (errorMessage), and v1's (message) for clients already reading that
    if (task.error) result.error = { errorCode: task.error.errorCode, errorMessage: task.error.message, message: task.error.message };
    return envelope(apiVersion, result);
  });
  reading('/GetPrintingInformation', 'Print time, filament length and weight of a finished task', RESULTS.information, async (req) =>
    envelope(apiVersion, printingInformation(await tasks.get(req.accountId, taskIdOf(req)))),
  );

  app.post('/CancelSlicing', { schema: legacyRoute(tag, 'Cancel a queued or running task', RESULTS.cancel, { body: TASK_ID_BODY, querystring: TASK_ID_QUERY }), preValidation: bodyOptional }, async (req) => {
    const task = await tasks.cancel(req.accountId, taskIdOf(req));
    return envelope(apiVersion, { taskid: task.id, taskId: task.id, status: task.status });
  });

  const downloadSchema = (method: 'GET' | 'POST') => {
    const summary = `Download the printer file of a finished task (once: the second call answers 404 URE006)${method === 'POST' ? ' (POST)' : ''}`;
    const schema = legacyRoute(tag, summary, { properties: {}, required: [] }, { querystring: TASK_ID_QUERY, ...(method === 'POST' ? { body: TASK_ID_BODY } : {}) });
    (schema.response as Record<number, unknown>)[200] = {
      description: 'the G-code or FCode file; Content-Disposition names it',
      headers: CONTENT_DISPOSITION,
      content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
    };
    return schema;
  };
  for (const method of ['GET', 'POST'] as const) {
    app.route({
      method,
      url: '/DownloadFile',
      schema: downloadSchema(method),
      ...(method === 'POST' ? { preValidation: bodyOptional } : {}),
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
        const settle = (whole: boolean) => void done(whole).catch((err) => req.log.error({ err }, 'legacy download: deleting the output failed'));
        // the file goes only once the client has it: the kernel's send buffer may still hold its tail
        res.once('finish', () => (delivered ? void deliveredWhole(req.raw.socket, app.server).then(settle) : settle(false)));
        res.once('close', () => {
          if (!res.writableFinished) settle(false);
        });
        return reply.send(download.stream);
      },
    });
  }
}
