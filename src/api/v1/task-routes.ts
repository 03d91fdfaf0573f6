// Tasks: start (/ws/tasks, /stl/tasks), list, read (GET and POST: public clients use both),
// cancel and delete.
import type { FastifyInstance } from 'fastify';
import type { ServiceCore } from '../../service/embedded-runtime.js';
import type { TaskKind } from '../../service/model.js';
import { parseStartTask } from '../../service/task-request.js';
import { jsonBodyOnly } from '../json-body-only.js';
import { ignoreContentTypeWithoutBody } from '../bodyless.js';
import { BODY_REFUSALS, V1_SECURITY, errorResponses, startTaskBodySchema } from '../schemas.js';
import { taskJson } from '../task-json.js';

interface TaskParams {
  taskId: string;
}

const taskIdParams = {
  type: 'object',
  required: ['taskId'],
  properties: { taskId: { type: 'string', description: 'the taskId a task start returned' } },
} as const;

const taskResponse = { 200: { $ref: 'Task#' }, ...errorResponses(400, 404) };

export async function taskRoutes(app: FastifyInstance, opts: { core: ServiceCore }): Promise<void> {
  const { tasks } = opts.core;

  for (const kind of ['ws', 'stl'] as TaskKind[]) {
    const what = kind === 'ws' ? 'a Workspace' : 'an STL';
    const tags = ['tasks'];

    app.post(
      `/${kind}/tasks`,
      {
        schema: {
          summary: `Start slicing ${what} file`,
          description:
            kind === 'ws'
              ? 'files: the WS entry, plus PC_SV (with arrayDimensions and filamentName), XML and EXTRA entries.'
              : 'files: the STL entry, plus optional XML and EXTRA entries.',
          tags,
          security: V1_SECURITY,
          body: startTaskBodySchema,
          response: { ...taskResponse, ...errorResponses(413, 415) },
        },
        preValidation: jsonBodyOnly,
      },
      async (req) => taskJson(await tasks.start(req.accountId, kind, parseStartTask(req.body))),
    );

    app.get<{ Querystring: { limit?: number; cursor?: string } }>(
      `/${kind}/tasks`,
      {
        schema: {
          summary: `List your ${kind.toUpperCase()} tasks, newest first`,
          tags,
          security: V1_SECURITY,
          querystring: {
            type: 'object',
            properties: {
              limit: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
              cursor: { type: 'string', description: 'nextCursor of the previous page' },
            },
          },
          response: {
            200: {
              type: 'object',
              required: ['tasks', 'nextCursor'],
              properties: {
                tasks: { type: 'array', items: { $ref: 'Task#' } },
                nextCursor: { type: ['string', 'null'] },
              },
            },
            ...errorResponses(400),
          },
        },
      },
      async (req) => {
        const page = await tasks.list(req.accountId, kind, req.query.limit ?? 50, req.query.cursor ?? null);
        return { tasks: page.tasks.map(taskJson), nextCursor: page.nextCursor };
      },
    );

    for (const method of ['GET', 'POST'] as const) {
      app.route<{ Params: TaskParams }>({
        method,
        url: `/${kind}/tasks/:taskId`,
        schema: {
          summary: `Read a task (${method})`,
          tags,
          security: V1_SECURITY,
          params: taskIdParams,
          response: method === 'POST' ? { ...taskResponse, ...BODY_REFUSALS } : taskResponse,
        },
        handler: async (req) => taskJson(await tasks.get(req.accountId, req.params.taskId)),
      });
    }

    app.post<{ Params: TaskParams }>(
      `/${kind}/tasks/:taskId/cancel`,
      {
        onRequest: ignoreContentTypeWithoutBody,
        schema: {
          summary: 'Cancel a task',
          description: 'A queued or running task becomes cancelled (its worker stops); a finished or failed task stays as it is.',
          tags,
          security: V1_SECURITY,
          params: taskIdParams,
          response: { ...taskResponse, ...BODY_REFUSALS },
        },
      },
      async (req) => taskJson(await tasks.cancel(req.accountId, req.params.taskId)),
    );

    app.delete<{ Params: TaskParams }>(
      `/${kind}/tasks/:taskId`,
      {
        onRequest: ignoreContentTypeWithoutBody,
        schema: {
          summary: 'Delete a task and its output',
          description: 'Cancels the task first if it is still queued or running.',
          tags,
          security: V1_SECURITY,
          params: taskIdParams,
          response: { 204: { type: 'null', description: 'deleted' }, ...errorResponses(400, 404), ...BODY_REFUSALS },
        },
      },
      async (req, reply) => {
        await tasks.delete(req.accountId, req.params.taskId);
        return reply.code(204).send();
      },
    );
  }
}
