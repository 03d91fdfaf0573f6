// POST /v0.1/ProvideFile: the workspace inline (`file.wsconfigs` as a JSON string or an object),
// stored as a WS upload and started as a v1 workspace task. `configpresetname` is the quality
// preset (Recommended, Highquality, Sketch). A `configfile` workspace is kept with the task as an
// EXTRA file; sent without `file`, it is the workspace that is sliced.
import type { FastifyInstance } from 'fastify';
import type { ServiceCore } from '../../service/embedded-runtime.js';
import { badRequest } from '../../service/errors.js';
import { field, fold, isObject, text } from '../../service/legacy-keys.js';
import { legacySettings } from '../../service/legacy-presets.js';
import { readInlineWorkspace, storeInlineWorkspace } from '../../service/legacy-workspace.js';
import type { FileRecord } from '../../service/model.js';
import type { StartTaskInput } from '../../service/task-request.js';
import { envelope } from '../legacy/envelope.js';
import { inlineBodyLimit } from '../legacy/large-body.js';
import { RESULTS, jsonBody, legacyRoute } from '../legacy/schemas.js';

const workspaceObject = (what: string) => ({
  description: what,
  type: 'object',
  additionalProperties: true,
  properties: {
    FileName: { type: 'string', description: 'ends in .rvwj' },
    WsConfigs: { description: 'the workspace: a JSON object, or a string holding its JSON' },
  },
});

const PROVIDE_BODY = jsonBody({
  file: workspaceObject('the workspace to slice'),
  supporttype: { type: 'string', description: 'n, e or b (default n)' },
  printermodel: { type: 'string' },
  configpresetname: { type: 'string', description: 'Recommended (default), Highquality or Sketch' },
  configfile: { description: '{FileName, WsConfigs} or "": kept with the task as an EXTRA file' },
});

export async function provideRoute(app: FastifyInstance, opts: { core: ServiceCore; apiVersion: string; tag: string }): Promise<void> {
  const { core, apiVersion, tag } = opts;
  // the workspace travels inside the JSON body: allow it the size of an upload
  app.post('/ProvideFile', { bodyLimit: inlineBodyLimit(core.files.uploadLimit), schema: legacyRoute(tag, 'Slice an inline workspace', RESULTS.start, { body: PROVIDE_BODY }) }, async (req) => {
    if (!isObject(req.body)) throw badRequest('the request body must be a JSON object');
    const f = fold(req.body);
    const workspace = readInlineWorkspace(field(f, 'file'), 'file');
    const config = readInlineWorkspace(field(f, 'configfile'), 'configfile');
    const settings = legacySettings(f, { withConfigFile: !!config });
    if (!workspace && !config) throw badRequest('file is required: {FileName: "*.rvwj", WsConfigs: the workspace}');
    const chosenId = text(f, 'taskid', 'uniqueid');

    const stored: FileRecord[] = [];
    try {
      const ws = await storeInlineWorkspace(core.files, req.accountId, (workspace ?? config)!, 'WS');
      stored.push(ws);
      const input: StartTaskInput = { files: [{ fileId: ws.id, type: 'WS' }], settings };
      if (workspace && config) {
        const extra = await storeInlineWorkspace(core.files, req.accountId, config, 'EXTRA');
        stored.push(extra);
        input.files.push({ fileId: extra.id, type: 'EXTRA' });
      }
      if (chosenId) input.taskId = chosenId.trim();
      const task = await core.tasks.start(req.accountId, 'ws', input);
      return envelope(apiVersion, { taskid: task.id, taskId: task.id });
    } catch (err) {
      // a refused start keeps none of the files it stored
      for (const file of stored) await core.files.delete(req.accountId, file.id).catch(() => undefined);
      throw err;
    }
  });
}
