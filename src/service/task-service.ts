// Slicing tasks: start (validated synchronously, sliced later by the runner), read, list, cancel
// and delete. Every lookup is scoped to the caller's account: another account's task is "not found".
import { nowIso7 } from './dates.js';
import { ApiError, badRequest, fileNotFound, malformedTaskId, taskNotFound } from './errors.js';
import { MODEL_EXTENSIONS, extensionOf } from './file-rules.js';
import { isGuid, newId, normaliseGuid } from './ids.js';
import type { Metrics } from './metrics.js';
import { ACTIVE_STATUSES, isTerminal, type FileRecord, type SliceRequest, type TaskFileRef, type TaskKind, type TaskRecord, type TaskSettingsEcho } from './model.js';
import { InvalidCursorError, type BlobStore, type JobQueue, type MetadataStore, type TaskEventBus, type TaskPage } from './ports.js';
import { checkSliceRequest } from './settings-check.js';
import { checkWorkspaceTask } from './workspace/check-workspace-task.js';
import { pointCloudSizeProblem } from './workspace/point-cloud.js';
import { SUPPORT_TYPE_SETTING, supportLetterOf, type FileEntry, type StartTaskInput } from './task-request.js';
import { deleteUnrecordedBlob } from './blob-cleanup.js';

const MAX_XML_BYTES = 1024 * 1024;

export class TaskService {
  /** called after a task is queued, so the embedded runner picks it up without polling */
  onQueued: () => void = () => undefined;

  constructor(
    private readonly store: MetadataStore,
    private readonly blobs: BlobStore,
    private readonly queue: JobQueue,
    private readonly events: TaskEventBus,
    private readonly metrics: Metrics,
  ) {}

  async start(accountId: string, kind: TaskKind, input: StartTaskInput): Promise<TaskRecord> {
    const files = await this.lookUpFiles(accountId, input.files);
    const refs = files.map(({ entry, file }) => toRef(entry, file));
    const primaryType = kind === 'ws' ? 'WS' : 'STL';
    const primaries = files.filter(({ file }) => file.type === primaryType);
    if (primaries.length === 0) {
      if (kind === 'ws') throw new ApiError('URE001', 'a Workspace file (.rvwj or .json) of type WS is required');
      throw badRequest('an STL file of type STL is required');
    }
    if (primaries.length > 1) throw badRequest(`a task slices one ${primaryType} file, not ${primaries.length}`);
    if (kind === 'stl' && !MODEL_EXTENSIONS.includes(extensionOf(primaries[0]!.file.fileName))) {
      throw badRequest(`'${primaries[0]!.file.fileName}' is not an STL file`);
    }
    const xmlFiles = files.filter(({ file }) => file.type === 'XML');
    if (xmlFiles.length > 1) throw badRequest('a task takes at most one XML configuration file');
    for (const { entry, file } of files) if (file.type === 'PC_SV') checkPointCloud(entry, file);
    checkCloudNames(files.filter(({ file }) => file.type === 'PC_SV').map(({ file }) => file));

    const xml = xmlFiles[0] ? await this.readXml(xmlFiles[0].file) : undefined;
    const request = sliceRequestOf(input, xmlFiles[0]?.file.blobKey);
    const { warnings, supportType } = checkSliceRequest(request, xml);
    const settings: TaskSettingsEcho = input.settings.supportType ? input.settings : { ...input.settings, supportType: supportLetterOf(supportType) };
    if (kind === 'ws') warnings.push(...(await checkWorkspaceTask(this.blobs, primaries[0]!.file, files, request)));
    // kept with the task, as EXTRA files are, but said: the client most likely meant the other kind of task
    const foreign = kind === 'stl' ? ['WS', 'PC_SV'] : ['STL'];
    for (const { file } of files) {
      if (!foreign.includes(file.type.toUpperCase())) continue;
      const other = kind === 'stl' ? 'a Workspace task (/ws/tasks)' : 'an STL task (/stl/tasks), or a model of the workspace';
      warnings.push(`'${file.fileName}' (${file.type}) takes no part in ${kind === 'stl' ? 'an STL' : 'a Workspace'} task; it belongs to ${other}`);
    }

    const task: TaskRecord = {
      id: await this.chosenOrNewId(input.taskId),
      accountId,
      kind,
      status: 'queued',
      progress: 0,
      queueDate: nowIso7(),
      startDate: null,
      endDate: null,
      files: refs,
      settings,
      request,
      info: null,
      output: null,
      error: null,
      warnings,
      stats: null,
    };
    await this.store.insertTask(task);
    await this.queue.enqueue(task.id);
    this.metrics.tasksStarted.inc();
    this.events.publish(task);
    this.onQueued();
    return task;
  }

  /** Early legacy clients chose the task id themselves: it must be a GUID not in use (URE007). */
  private async chosenOrNewId(chosen: string | undefined): Promise<string> {
    if (chosen === undefined) return newId();
    if (!isGuid(chosen)) throw malformedTaskId(chosen);
    const id = normaliseGuid(chosen);
    if (await this.store.getTask(id)) {
      throw new ApiError('URE007', `the task id ${id} is already in use: request its progress instead`, { taskId: id });
    }
    return id;
  }

  private async lookUpFiles(accountId: string, entries: FileEntry[]): Promise<Array<{ entry: FileEntry; file: FileRecord }>> {
    const out: Array<{ entry: FileEntry; file: FileRecord }> = [];
    for (const entry of entries) {
      const file = isGuid(entry.fileId) ? await this.store.getFile(accountId, normaliseGuid(entry.fileId)) : null;
      if (!file) throw fileNotFound(`no file ${entry.fileId.slice(0, 80)}: upload it first`);
      if (entry.type && entry.type.toUpperCase() !== file.type.toUpperCase()) {
        throw badRequest(`file ${file.id} was uploaded as ${file.type}, not ${entry.type}`);
      }
      out.push({ entry, file });
    }
    return out;
  }

  private async readXml(file: FileRecord): Promise<string> {
    if (file.size > MAX_XML_BYTES) throw badRequest(`the configuration file is larger than ${MAX_XML_BYTES} bytes`);
    return Buffer.from(await this.blobs.read(file.blobKey)).toString('utf8');
  }

  async get(accountId: string, taskId: string): Promise<TaskRecord> {
    if (!isGuid(taskId)) throw malformedTaskId(taskId);
    const task = await this.store.getTaskOf(accountId, normaliseGuid(taskId));
    if (!task) throw taskNotFound(taskId);
    return task;
  }

  async list(accountId: string, kind: TaskKind, limit: number, cursor: string | null): Promise<TaskPage> {
    try {
      return await this.store.listTasks(accountId, kind, limit, cursor);
    } catch (err) {
      if (err instanceof InvalidCursorError) throw badRequest(err.message);
      throw err;
    }
  }

  /** Cancels a queued or running task; a finished, failed or cancelled task stays as it is. */
  async cancel(accountId: string, taskId: string): Promise<TaskRecord> {
    const task = await this.get(accountId, taskId);
    if (isTerminal(task.status)) return task;
    const cancelled = await this.store.updateTask(task.id, ACTIVE_STATUSES, {
      status: 'cancelled',
      endDate: nowIso7(),
    });
    if (!cancelled) return (await this.store.getTask(task.id)) ?? task; // it ended meanwhile
    await this.queue.remove(task.id);
    this.metrics.tasksEnded.inc(1, { status: 'cancelled' });
    // the runner listens and stops the worker
    this.events.publish(cancelled);
    return cancelled;
  }

  /** Cancels if needed, then removes the task and its output. */
  async delete(accountId: string, taskId: string): Promise<void> {
    const task = await this.cancel(accountId, taskId);
    // every output of the task: one whose attempt failed after saving it may be there beside the live one
    for (let output = await this.store.getOutputOfTask(task.id), n = 0; output && n < 100; output = await this.store.getOutputOfTask(task.id), n++) {
      await this.store.deleteOutput(output.id);
      await deleteUnrecordedBlob(this.blobs, output.blobKey);
    }
    await this.queue.remove(task.id);
    await this.store.deleteTask(task.id);
  }
}

function toRef(entry: FileEntry, file: FileRecord): TaskFileRef {
  const ref: TaskFileRef = { fileId: file.id, fileName: file.fileName, type: file.type };
  if (entry.arrayDimensions) ref.arrayDimensions = entry.arrayDimensions;
  if (entry.filamentName) ref.filamentName = entry.filamentName;
  return ref;
}

/** A shore-value cloud is nx·ny·nz little-endian doubles, exactly (DESIGN.md, "Point cloud"). */
function checkPointCloud(entry: FileEntry, file: FileRecord): void {
  const dims = entry.arrayDimensions;
  if (!dims) throw badRequest(`the PC_SV entry ${file.id} needs arrayDimensions (x, y, z counts)`);
  // the worker would refuse it when it reads the file: say so now, before the task is queued
  const problem = pointCloudSizeProblem(dims, file.size, file.fileName);
  if (problem) throw badRequest(problem);
}

/**
 * A modifier names its point cloud by file name (FileReference): two PC_SV entries of one name, or one
 * file listed twice, could not be told apart (the second was reported as referenced by no modifier).
 */
function checkCloudNames(clouds: FileRecord[]): void {
  const seen = new Map<string, FileRecord>();
  for (const file of clouds) {
    const other = seen.get(file.fileName);
    if (other) {
      throw badRequest(
        other.id === file.id
          ? `the PC_SV file '${file.fileName}' (${file.id}) is listed twice`
          : `two PC_SV files are named '${file.fileName}' (${other.id}, ${file.id}): a modifier's FileReference could not tell them apart`,
      );
    }
    seen.set(file.fileName, file);
  }
}

function sliceRequestOf(input: StartTaskInput, xmlBlobKey: string | undefined): SliceRequest {
  const s = input.settings;
  const overrides: Record<string, unknown> = { ...(s.overrides ?? {}) };
  // sent: it wins over an override of the same setting; not sent: the overrides or the XML choose
  if (s.supportType) overrides.supportType = SUPPORT_TYPE_SETTING[s.supportType];
  if (s.outputFormat) overrides.outputFormat = s.outputFormat;
  const request: SliceRequest = { printer: s.printerModel, overrides };
  if (s.filamentPresetName) request.filament = s.filamentPresetName;
  if (s.qualityPresetName) request.quality = s.qualityPresetName;
  if (xmlBlobKey) request.xmlBlobKey = xmlBlobKey;
  if (input.transform) request.transform = input.transform;
  return request;
}
