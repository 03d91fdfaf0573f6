// v0.3 tasks: `POST /ws/tasks` slices a Workspace or an STL file (whichever the files name; v0.3
// had no /stl/tasks in its text, clients sent STL files there too), `POST /stl/tasks` as in v1,
// reading a task with GET or POST, and cancel. Same task shape and errors as v1.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServiceCore } from '../../service/embedded-runtime.js';
import type { TaskKind } from '../../service/model.js';
import { parseStartTask, type StartTaskInput } from '../../service/task-request.js';
import { jsonBodyOnly } from '../json-body-only.js';
import { ignoreContentTypeWithoutBody } from '../bodyless.js';
import { BODY_REFUSALS, V1_SECURITY, errorResponses, startTaskBodySchema } from '../schemas.js';
import { taskJson } from '../task-json.js';
import { canonicalStartBody } from './start-body.js';

const taskIdParams = {
  type: 'object',
  required: ['taskId'],
  properties: { taskId: { type: 'string' } },
} as const;
const taskResponse = { 200: { $ref: 'Task#' }, ...errorResponses(400, 404) };
const tags = ['v0.3'];

export async function v0_3TaskRoutes(app: FastifyInstance, opts: { core: ServiceCore }): Promise<void> {
  const { core } = opts;

  /** /ws/tasks with an STL and no WS file among its files is an STL task. */
  async function kindOf(req: FastifyRequest, input: StartTaskInput): Promise<TaskKind> {
    const types: string[] = [];
    for (const entry of input.files) {
      if (entry.type) types.push(entry.type.toUpperCase());
      else {
        const stored = await core.files.get(req.accountId, entry.fileId).catch(() => null);
        if (stored) types.push(stored.type);
      }
    }
    return types.includes('STL') && !types.includes('WS') ? 'stl' : 'ws';
  }

  for (const kind of ['ws', 'stl'] as TaskKind[]) {
    app.post(
      `/${kind}/tasks`,
      {
        schema: {
          summary: kind === 'ws' ? 'Start slicing a Workspace (or an STL) file' : 'Start slicing an STL file',
          description:
            'As v1. Keys in any casing; the point-cloud grid as files[].arrayDimensions or as a top-level arrayDimensions (for the PC_SV entry).',
          tags,
          security: V1_SECURITY,
          body: startTaskBodySchema,
          response: { ...taskResponse, ...errorResponses(413, 415) },
        },
        preValidation: async (req) => {
          await jsonBodyOnly(req);
          req.body = canonicalStartBody(req.body);
        },
      },
      async (req) => {
        const input = parseStartTask(req.body);
        const taskKind = kind === 'ws' ? await kindOf(req, input) : 'stl';
        return taskJson(await core.tasks.start(req.accountId, taskKind, input));
      },
    );

    for (const method of ['GET', 'POST'] as const) {
      app.route<{ Params: { taskId: string } }>({
        method,
        url: `/${kind}/tasks/:taskId`,
        schema: { summary: `Read a task (${method})`, tags, security: V1_SECURITY, params: taskIdParams, response: method === 'POST' ? { ...taskResponse, ...BODY_REFUSALS } : taskResponse },
        // a task is found by its id whichever of the two paths it was started under
        handler: async (req) => taskJson(await core.tasks.get(req.accountId, req.params.taskId)),
      });
    }

    app.post<{ Params: { taskId: string } }>(
      `/${kind}/tasks/:taskId/cancel`,
      { onRequest: ignoreContentTypeWithoutBody, schema: { summary: 'Cancel a task', tags, security: V1_SECURITY, params: taskIdParams, response: { ...taskResponse, ...BODY_REFUSALS } } },
      async (req) => taskJson(await core.tasks.cancel(req.accountId, req.params.taskId)),
    );
  }
}
