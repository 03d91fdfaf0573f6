// Row ⇄ record mapping for the tasks table (JSON columns for the nested parts).
import type { TaskRecord } from '../../service/model.js';

export interface TaskRow {
  id: string;
  account_id: string;
  kind: string;
  status: string;
  progress: number;
  queue_date: string;
  start_date: string | null;
  end_date: string | null;
  files_json: string;
  settings_json: string;
  request_json: string;
  info_json: string | null;
  output_json: string | null;
  error_json: string | null;
  warnings_json: string;
  stats_json: string | null;
}

export const TASK_COLUMNS =
  'id, account_id, kind, status, progress, queue_date, start_date, end_date, files_json, settings_json, ' +
  'request_json, info_json, output_json, error_json, warnings_json, stats_json';

export const TASK_PLACEHOLDERS =
  '@id, @account_id, @kind, @status, @progress, @queue_date, @start_date, @end_date, @files_json, ' +
  '@settings_json, @request_json, @info_json, @output_json, @error_json, @warnings_json, @stats_json';

function json(v: unknown): string | null {
  return v === null || v === undefined ? null : JSON.stringify(v);
}

export function taskToRow(t: TaskRecord): TaskRow {
  return {
    id: t.id,
    account_id: t.accountId,
    kind: t.kind,
    status: t.status,
    progress: t.progress,
    queue_date: t.queueDate,
    start_date: t.startDate,
    end_date: t.endDate,
    files_json: JSON.stringify(t.files),
    settings_json: JSON.stringify(t.settings),
    request_json: JSON.stringify(t.request),
    info_json: json(t.info),
    output_json: json(t.output),
    error_json: json(t.error),
    warnings_json: JSON.stringify(t.warnings),
    stats_json: json(t.stats),
  };
}

export function rowToTask(r: TaskRow): TaskRecord {
  return {
    id: r.id,
    accountId: r.account_id,
    kind: r.kind as TaskRecord['kind'],
    status: r.status as TaskRecord['status'],
    progress: r.progress,
    queueDate: r.queue_date,
    startDate: r.start_date,
    endDate: r.end_date,
    files: JSON.parse(r.files_json),
    settings: JSON.parse(r.settings_json),
    request: JSON.parse(r.request_json),
    info: r.info_json ? JSON.parse(r.info_json) : null,
    output: r.output_json ? JSON.parse(r.output_json) : null,
    error: r.error_json ? JSON.parse(r.error_json) : null,
    warnings: JSON.parse(r.warnings_json),
    stats: r.stats_json ? JSON.parse(r.stats_json) : null,
  };
}

/** Page cursor: the last task's (queueDate, id), base64url so clients treat it as opaque. */
export function encodeCursor(queueDate: string, id: string): string {
  return Buffer.from(`${queueDate}|${id}`, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): { queueDate: string; id: string } | null {
  const s = Buffer.from(cursor, 'base64url').toString('utf8');
  const bar = s.indexOf('|');
  if (bar <= 0 || !/^\d{4}-\d\d-\d\dT[\d:.]+Z$/.test(s.slice(0, bar))) return null;
  return { queueDate: s.slice(0, bar), id: s.slice(bar + 1) };
}
