// GET /v1/{ws|stl}/tasks/{taskId}/events: server-sent events. The current task first, then every
// status and progress change (`event: status` / `event: progress`, the task JSON as data); the
// stream ends after the task ends. A comment line every 15 s keeps proxies from closing it.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import type { ServiceCore } from '../../service/embedded-runtime.js';
import { isTerminal, type TaskRecord } from '../../service/model.js';
import { V1_SECURITY, errorResponses } from '../schemas.js';
import { taskJson } from '../task-json.js';

const KEEPALIVE_MS = 15_000;
const STREAM_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' };

export interface EventStreamOptions {
  /** the open streams, ended when the server closes */
  streams: Set<ServerResponse>;
  /** a stream its client closed: the request's count and log line (onResponse only sees finished ones) */
  streamGone: (req: FastifyRequest, reply: FastifyReply) => void;
}

export async function taskEventRoutes(app: FastifyInstance, opts: { core: ServiceCore } & EventStreamOptions): Promise<void> {
  const { core, streams, streamGone } = opts;
  for (const kind of ['ws', 'stl']) {
    app.get<{ Params: { taskId: string } }>(
      `/${kind}/tasks/:taskId/events`,
      {
        schema: {
          summary: 'Follow a task (server-sent events)',
          tags: ['tasks'],
          security: V1_SECURITY,
          params: { type: 'object', required: ['taskId'], properties: { taskId: { type: 'string' } } },
          response: {
            200: {
              description: 'text/event-stream: events `status` and `progress`, each with the task JSON as data',
              content: { 'text/event-stream': { schema: { type: 'string' } } },
            },
            ...errorResponses(400, 404),
          },
        },
      },
      async (req, reply) => {
        const first = await core.tasks.get(req.accountId, req.params.taskId);
        // HEAD (fastify answers it with this handler): the headers and no stream. Node sends nothing of
        // a HEAD response until it ends, so streaming held the request open until the task ended.
        if (req.method === 'HEAD') return reply.code(200).headers(STREAM_HEADERS).send();
        reply.hijack();
        const res = reply.raw;
        res.writeHead(200, { ...STREAM_HEADERS, connection: 'keep-alive', 'x-request-id': String(req.id) });
        streams.add(res);
        let seq = 0;
        let lastStatus = '';
        let lastProgress = -1;
        const send = (task: TaskRecord) => {
          if (task.status === lastStatus && task.progress === lastProgress) return;
          const event = task.status !== lastStatus ? 'status' : 'progress';
          lastStatus = task.status;
          lastProgress = task.progress;
          res.write(`id: ${++seq}\nevent: ${event}\ndata: ${JSON.stringify(taskJson(task))}\n\n`);
          if (isTerminal(task.status)) finish();
        };
        const keepalive = setInterval(() => res.write(': keep-alive\n\n'), KEEPALIVE_MS);
        let unsubscribe: () => void = () => undefined;
        let done = false;
        function finish(): void {
          if (done) return;
          done = true;
          clearInterval(keepalive);
          unsubscribe();
          streams.delete(res);
          res.end();
        }
        res.on('close', () => {
          if (!res.writableFinished) streamGone(req, reply);
          finish();
        });
        unsubscribe = core.events.subscribe(first.id, send);
        // read again after subscribing, so a change between the first read and now is not missed
        send((await core.tasks.get(req.accountId, first.id).catch(() => first)) ?? first);
      },
    );
  }
}
