// Task start of a workspace task: reads the WS file, validates it and its point-cloud references
// (URE000 naming the JSON path) and the values of its point clouds, and records the PC_SV files the
// worker will need.
import type { BlobStore } from '../ports.js';
import { badRequest } from '../errors.js';
import type { FileRecord, SliceRequest } from '../model.js';
import { settingsErrorToApi } from '../settings-check.js';
import type { FileEntry } from '../task-request.js';
import { checkWorkspaceBytes } from './check-off-thread.js';
import type { PointCloudEntry } from './check-workspace.js';
import { readPointCloud } from './point-cloud.js';
import { WorkspaceError } from './workspace-error.js';

/**
 * Workspaces above this size are only checked by the slicing worker (a failed task, SF000): the
 * check thread would need about 15× the file size in memory.
 */
const MAX_CHECKED_AT_START = 64 * 1024 * 1024;
/** Point clouds up to this size (2 million values) have their values checked at start, on this thread (a few ms). */
const MAX_CLOUD_CHECKED_AT_START = 16 * 1024 * 1024;

export async function checkWorkspaceTask(
  blobs: BlobStore,
  wsFile: FileRecord,
  files: Array<{ entry: FileEntry; file: FileRecord }>,
  request: SliceRequest,
): Promise<string[]> {
  const pcsv = files.filter(({ file }) => file.type === 'PC_SV');
  const entries: PointCloudEntry[] = pcsv.map(({ entry, file }) => {
    const e: PointCloudEntry = { fileName: file.fileName, arrayDimensions: entry.arrayDimensions! };
    if (entry.filamentName) e.filamentName = entry.filamentName;
    return e;
  });
  if (pcsv.length > 0) {
    request.pointClouds = pcsv.map(({ entry, file }) => ({
      fileName: file.fileName,
      blobKey: file.blobKey,
      arrayDimensions: entry.arrayDimensions!,
      ...((entry.filamentName ?? request.filament) ? { filament: entry.filamentName ?? request.filament } : {}),
    }));
  }
  // the clouds' values too (a NaN is the client's mistake, better said now than as a failed task)
  for (const { entry, file } of pcsv) {
    if (file.size > MAX_CLOUD_CHECKED_AT_START) continue;
    const bytes = await blobs.read(file.blobKey);
    try {
      readPointCloud(bytes, entry.arrayDimensions!, file.fileName);
    } catch (err) {
      if (err instanceof WorkspaceError) throw badRequest(err.message);
      throw err;
    }
  }
  if (wsFile.size > MAX_CHECKED_AT_START) return [];
  try {
    return await checkWorkspaceBytes(await blobs.read(wsFile.blobKey), wsFile.fileName, entries, request.filament);
  } catch (err) {
    const e = err as { name?: string; message?: string; path?: string };
    if (e?.name === 'WorkspaceError') {
      const message = e.message?.includes(wsFile.fileName) ? e.message : `workspace '${wsFile.fileName}': ${e.message}`;
      throw badRequest(message, e.path ? { path: e.path } : undefined);
    }
    throw settingsErrorToApi(err);
  }
}
