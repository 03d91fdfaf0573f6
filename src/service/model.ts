// The service's records: accounts and keys, uploaded files, slicing tasks and their outputs.
// These are what the stores persist and what the API renders; the engine never sees them.
import type { ModelTransform } from '../engine/types.js';

export type TaskStatus = 'queued' | 'started' | 'running' | 'finished' | 'failed' | 'cancelled';
/** Which endpoint family a task belongs to: `/ws/tasks` or `/stl/tasks`. */
export type TaskKind = 'ws' | 'stl';
export type OutputFormat = 'GCODE' | 'FCODE';

export const TERMINAL_STATUSES: readonly TaskStatus[] = ['finished', 'failed', 'cancelled'];
export const ACTIVE_STATUSES: readonly TaskStatus[] = ['queued', 'started', 'running'];

export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}

export interface Account {
  id: string;
  name: string;
  /** epoch ms */
  createdAt: number;
}

export interface ApiKeyRecord {
  /** public identifier, also the OAuth2 client_id */
  id: string;
  accountId: string;
  name: string;
  /** sha256 hex of the secret key */
  keyHash: string;
  createdAt: number;
  revokedAt: number | null;
}

export interface AccessTokenRecord {
  tokenHash: string;
  accountId: string;
  keyId: string;
  /** epoch ms */
  expiresAt: number;
}

export interface FileRecord {
  id: string;
  accountId: string;
  fileName: string;
  /** WS, PC_SV, PC_DE, XML, STL, EXTRA or a caller-named type */
  type: string;
  size: number;
  blobKey: string;
  /** epoch ms */
  createdAt: number;
}

/** A file as a task lists it (the interface's file reference). */
export interface TaskFileRef {
  fileId: string;
  fileName: string;
  type: string;
  arrayDimensions?: [number, number, number];
  filamentName?: string;
}

export type SupportLetter = 'n' | 'e' | 'b';

/** The settings a task was started with, echoed back as the client sent them (normalised). */
export interface TaskSettingsEcho {
  printerModel: string;
  /**
   * As sent; when a task start sends none, the support its overrides or XML configuration chose
   * (none without either), filled in before the task is stored.
   */
  supportType?: SupportLetter;
  filamentPresetName?: string;
  qualityPresetName?: string;
  outputFormat?: OutputFormat;
  overrides?: Record<string, unknown>;
}

/** What the worker needs to resolve the settings again (same call the task start validated). */
export interface SliceRequest {
  printer: string;
  filament?: string;
  quality?: string;
  overrides: Record<string, unknown>;
  /** blob key of the XML custom configuration, if the task has one */
  xmlBlobKey?: string;
  /** a workspace task's PC_SV files, for the worker to read (filament: the preset mapping its hardness) */
  pointClouds?: PointCloudRef[];
  /** legacy v0.2 placement of the STL (scale, rotation, position), applied by the engine */
  transform?: ModelTransform;
}

export interface PointCloudRef {
  fileName: string;
  blobKey: string;
  arrayDimensions: [number, number, number];
  filament?: string;
}

export interface TaskError {
  errorCode: string;
  message: string;
}

export interface TaskInfo {
  time: string;
  length: string;
  weight: string;
}

export interface TaskOutputRef {
  outputName: string;
  outputId: string;
  taskId: string;
  fileId: string;
  format: OutputFormat;
}

/** Totals kept with a finished task (numbers; `info` holds the interface's strings). */
export interface TaskStats {
  layerCount: number;
  printTimeS: number;
  filamentMm: number;
  filamentG: number;
  sliceMs: number;
}

export interface TaskRecord {
  id: string;
  accountId: string;
  kind: TaskKind;
  status: TaskStatus;
  progress: number;
  /** ISO 8601 with 7 fractional digits (see dates.ts) */
  queueDate: string;
  startDate: string | null;
  endDate: string | null;
  files: TaskFileRef[];
  settings: TaskSettingsEcho;
  request: SliceRequest;
  info: TaskInfo | null;
  output: TaskOutputRef | null;
  error: TaskError | null;
  warnings: string[];
  stats: TaskStats | null;
}

/**
 * `current` with `patch` applied, as every store writes a task update: its id, account, kind and
 * queue date never change, whatever the patch says.
 */
export function patchedTask(current: TaskRecord, patch: Partial<TaskRecord>): TaskRecord {
  return { ...current, ...patch, id: current.id, accountId: current.accountId, kind: current.kind, queueDate: current.queueDate };
}

export interface OutputRecord {
  id: string;
  accountId: string;
  taskId: string;
  outputName: string;
  format: OutputFormat;
  size: number;
  blobKey: string;
  createdAt: number;
}
