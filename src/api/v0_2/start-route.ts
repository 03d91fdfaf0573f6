// POST /v0.2/StartSlicingTask: the fields of the interface's table (any key casing) mapped onto a
// v1 STL task start: presets (service/legacy-presets.ts), the STL's position/scale/rotation
// (service/legacy-transform.ts), and an optional `configfile` workspace kept with the task.
import type { FastifyInstance } from 'fastify';
import type { ServiceCore } from '../../service/embedded-runtime.js';
import { badRequest } from '../../service/errors.js';
import { field, fold, isObject, requiredText, text } from '../../service/legacy-keys.js';
import { legacySettings } from '../../service/legacy-presets.js';
import { parseLegacyTransform } from '../../service/legacy-transform.js';
import { readInlineWorkspace, storeInlineWorkspace } from '../../service/legacy-workspace.js';
import type { FileEntry, StartTaskInput } from '../../service/task-request.js';
import { envelope } from '../legacy/envelope.js';
import { inlineBodyLimit } from '../legacy/large-body.js';
import { requireStlName } from './stl-name.js';
import { RESULTS, jsonBody, legacyRoute } from '../legacy/schemas.js';

// null as absent: clients serialising an object with unset properties (Newtonsoft's default) send it
const xyz = (what: string) => ({
  type: ['object', 'null'],
  description: `${what}; absent or null: none`,
  // an axis may be null as well (the identity): as a plain number, null would be coerced to 0 (a scale of 0)
  properties: { X: { type: ['number', 'null'] }, Y: { type: ['number', 'null'] }, Z: { type: ['number', 'null'] } },
});

export const START_BODY = jsonBody(
  {
    filename: { type: 'string', description: 'name of the uploaded file; must end in .stl' },
    fileid: { type: 'string', description: 'fileid from UploadFile' },
    supporttype: { type: 'string', description: 'n, e or b (default n)' },
    printermodel: { type: 'string', description: 'e.g. "CR-10", "Creality Ender 3", "IdeaWerk-Speed" (FCode)' },
    qualitypresetname: { type: 'string', description: 'Recommended (default), Highquality, Sketch' },
    configpresetname: { type: 'string', description: 'deprecated name of qualitypresetname' },
    machinepresetname: { type: 'string', description: 'a quality preset name (or a printer name when printermodel is empty)' },
    filamentpresetname: { type: 'string', description: "default: <printer vendor>_PLA when it exists, else Generic_PLA" },
    applicationpresetname: { type: 'string', description: 'accepted and ignored' },
    position: xyz('mm: offset of the model centre from the bed centre; Z ignored (the model sits on the bed)'),
    scale: xyz('factors per axis, applied first, about the model centre'),
    rotation: xyz('degrees about X, then Y, then Z, about the model centre (after scaling)'),
    configfile: { description: '{FileName: "*.rvwj", WsConfigs: workspace} or "" — kept with the task as an EXTRA file' },
  },
  [],
);

export async function startRoute(app: FastifyInstance, opts: { core: ServiceCore; apiVersion: string; tag: string }): Promise<void> {
  const { core, apiVersion, tag } = opts;
  // a configfile workspace travels inside the JSON body: allow it the size of an upload
  const options = { bodyLimit: inlineBodyLimit(core.files.uploadLimit), schema: legacyRoute(tag, 'Start slicing an uploaded STL', RESULTS.start, { body: START_BODY }) };
  app.post('/StartSlicingTask', options, async (req) => {
    if (!isObject(req.body)) throw badRequest('the request body must be a JSON object');
    const f = fold(req.body);
    const fileId = requiredText(f, 'fileid');
    const fileName = text(f, 'filename');
    if (fileName !== undefined) requireStlName(fileName, 'filename');
    const config = readInlineWorkspace(field(f, 'configfile'), 'configfile');
    const input: StartTaskInput = { files: [{ fileId: fileId.trim() }], settings: legacySettings(f, { withConfigFile: !!config }) };
    const transform = parseLegacyTransform(f);
    if (transform) input.transform = transform;
    const chosenId = text(f, 'taskid', 'uniqueid');
    if (chosenId) input.taskId = chosenId.trim();
    if (!config) return envelope(apiVersion, startResult((await core.tasks.start(req.accountId, 'stl', input)).id));

    const extra = await storeInlineWorkspace(core.files, req.accountId, config, 'EXTRA');
    const entry: FileEntry = { fileId: extra.id, type: 'EXTRA' };
    input.files.push(entry);
    try {
      return envelope(apiVersion, startResult((await core.tasks.start(req.accountId, 'stl', input)).id));
    } catch (err) {
      await core.files.delete(req.accountId, extra.id).catch(() => undefined);
      throw err;
    }
  });
}

function startResult(taskId: string): { taskid: string; taskId: string } {
  return { taskid: taskId, taskId };
}
