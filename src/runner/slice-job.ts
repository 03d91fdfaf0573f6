// What the runner hands a slicing worker and what comes back. Plain data only: it crosses a thread
// boundary now and may cross a network boundary (distributed workers) later.
import type { MessagePort } from 'node:worker_threads';
import type { BlobStoreConfig } from '../store/blob-store-factory.js';
import type { OutputFormat, SliceRequest, TaskKind } from '../service/model.js';

export interface SliceJob {
  taskId: string;
  kind: TaskKind;
  /** the WS or STL file to slice */
  model: { blobKey: string; fileName: string };
  request: SliceRequest;
  blobs: BlobStoreConfig;
  /** threads the slice may spread its layers over (1: none besides the worker itself) */
  layerThreads: number;
  /** how long those threads stay after a slice for the next one, ms (0: they end with the slice) */
  layerThreadsIdleMs: number;
  /** the most bytes the slice's toolpath may take (SliceOptions.maxToolpathBytes); 0 = no limit */
  maxToolpathBytes: number;
  /** receives ProgressMessage posts; brings the runner's StopRequest */
  progressPort: MessagePort;
  /**
   * 1 in its first element once the runner asks the slice to stop (shared memory): read by code
   * that does not yield, where the StopRequest message cannot arrive (the support pass)
   */
  stopFlag: Int32Array;
}

export interface ProgressMessage {
  fraction: number;
  stage: string;
}

/** The runner's request, on the progress port, that the slice stop (a cancel, delete, timeout or shutdown). */
export interface StopRequest {
  stop: true;
}

export function isStopRequest(m: unknown): m is StopRequest {
  return typeof m === 'object' && m !== null && (m as { stop?: unknown }).stop === true;
}

export interface SliceJobStats {
  layerCount: number;
  printTimeS: number;
  filamentMm: number;
  filamentG: number;
  /** wall time inside the worker, ms */
  sliceMs: number;
}

/**
 * ok: the printer file's bytes, which the runner stores; they come back copied (a structured clone),
 * not moved (that took piscina into the worker module: docs/architecture.md). The worker stores
 * nothing itself: a thread that does not stop when asked is ended, and one ended while it wrote left
 * its temporary file in blobs/tmp until the process ended.
 */
export type SliceJobResult =
  | { ok: true; format: OutputFormat; output: Uint8Array; stats: SliceJobStats; warnings: string[] }
  /**
   * userError: the input cannot be sliced (bad model, outside the build volume, bad settings):
   * the task fails at once. Otherwise something broke on our side and the task is tried again.
   */
  | { ok: false; userError: boolean; message: string };

/** Errors whose message is meant for the user (matched by name: classes do not cross threads). */
export const USER_ERROR_NAMES = ['SliceError', 'ProfileError', 'SettingsError', 'WorkspaceError', 'InputMissingError'];
