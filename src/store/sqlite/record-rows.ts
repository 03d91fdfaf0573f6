// Row ⇄ record mapping for the accounts' keys, files and outputs tables.
import type { ApiKeyRecord, FileRecord, OutputRecord } from '../../service/model.js';

export interface KeyRow {
  id: string;
  account_id: string;
  name: string;
  key_hash: string;
  created_at: number;
  revoked_at: number | null;
}
export interface FileRow {
  id: string;
  account_id: string;
  file_name: string;
  type: string;
  size: number;
  blob_key: string;
  created_at: number;
}
export interface OutputRow {
  id: string;
  account_id: string;
  task_id: string;
  output_name: string;
  format: string;
  size: number;
  blob_key: string;
  created_at: number;
}

export const keyFromRow = (r: KeyRow): ApiKeyRecord => ({
  id: r.id,
  accountId: r.account_id,
  name: r.name,
  keyHash: r.key_hash,
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
});
export const fileFromRow = (r: FileRow): FileRecord => ({
  id: r.id,
  accountId: r.account_id,
  fileName: r.file_name,
  type: r.type,
  size: r.size,
  blobKey: r.blob_key,
  createdAt: r.created_at,
});
export const outputFromRow = (r: OutputRow): OutputRecord => ({
  id: r.id,
  accountId: r.account_id,
  taskId: r.task_id,
  outputName: r.output_name,
  format: r.format as OutputRecord['format'],
  size: r.size,
  blobKey: r.blob_key,
  createdAt: r.created_at,
});
