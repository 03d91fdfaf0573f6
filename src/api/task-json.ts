// A task as the v1 (and v0.3) interface shows it.
import { UNSET_DATE, ticksToIso7 } from '../service/dates.js';
import type { FileRecord, TaskRecord } from '../service/model.js';

export interface TaskJson {
  taskId: string;
  queueDate: string;
  startDate: string;
  endDate: string;
  status: TaskRecord['status'];
  files: TaskRecord['files'];
  settings: TaskRecord['settings'];
  progress: number;
  info?: NonNullable<TaskRecord['info']>;
  output?: NonNullable<TaskRecord['output']>;
  error?: NonNullable<TaskRecord['error']>;
  warnings?: string[];
}

export function taskJson(t: TaskRecord): TaskJson {
  const json: TaskJson = {
    taskId: t.id,
    queueDate: t.queueDate,
    startDate: t.startDate ?? UNSET_DATE,
    endDate: t.endDate ?? UNSET_DATE,
    status: t.status,
    files: t.files,
    settings: t.settings,
    progress: t.progress,
  };
  if (t.status === 'finished') {
    if (t.info) json.info = t.info;
    if (t.output) json.output = t.output;
  }
  if (t.error) json.error = t.error;
  if (t.warnings.length) json.warnings = t.warnings;
  return json;
}

/** A stored file; its upload date written as the task dates are (7 fractional digits, `Z`). */
export function storedFileJson(f: FileRecord): { fileId: string; fileName: string; type: string; size: number; uploadDate: string } {
  return { fileId: f.id, fileName: f.fileName, type: f.type, size: f.size, uploadDate: ticksToIso7(BigInt(Math.round(f.createdAt)) * 10_000n) };
}
