// What `stratum slice` reads for a Workspace model before slicing it (slice-workspace.ts, loaded only
// for one): whether a file is a Workspace, and the --pointcloud values.
import { basename } from 'node:path';
import { UsageError } from './errors.js';

/** A point cloud named on the command line. */
export interface CloudArg {
  path: string;
  dims: [number, number, number];
  filament?: string;
}

/** FILE:NX,NY,NZ[:FILAMENT] (FILE may hold colons: the last one or two fields are read from the end). */
export function parseCloudArg(value: string): CloudArg {
  const usage = () => new UsageError(`--pointcloud takes FILE:NX,NY,NZ[:FILAMENT], e.g. ramp.pcsv:8,1,1; got "${value.slice(0, 200)}"`, 'slice');
  const parts = value.split(':');
  const dimsAt = parts.length >= 3 && /^\d+,\d+,\d+$/.test(parts[parts.length - 2]!) ? parts.length - 2 : parts.length - 1;
  const dimsText = parts[dimsAt];
  const path = parts.slice(0, dimsAt).join(':');
  if (!path || !dimsText || !/^\d+,\d+,\d+$/.test(dimsText)) throw usage();
  const dims = dimsText.split(',').map(Number) as [number, number, number];
  if (dims.some((n) => n < 1 || n > 1_000_000)) throw new UsageError(`--pointcloud ${path}: each count must be from 1 to 1000000, got ${dimsText}`, 'slice');
  const filament = dimsAt === parts.length - 2 ? parts[parts.length - 1]!.trim() : undefined;
  if (filament === '') throw usage();
  return filament ? { path, dims, filament } : { path, dims };
}

/**
 * Every --pointcloud value. A modifier's FileReference names its cloud by base name, so two files of
 * one base name (or one file given twice) could not be told apart: a usage error, as the service
 * refuses two PC_SV files of one name.
 */
export function parseCloudArgs(values: readonly string[]): CloudArg[] {
  const clouds = values.map(parseCloudArg);
  const seen = new Map<string, string>();
  for (const c of clouds) {
    const name = basename(c.path);
    const other = seen.get(name);
    if (other !== undefined) {
      throw new UsageError(`--pointcloud ${other} and ${c.path} have the same file name '${name}': a modifier's FileReference could not tell them apart`, 'slice');
    }
    seen.set(name, c.path);
  }
  return clouds;
}

/**
 * Whether a model file is a Workspace: by its name (.json, .rvwj); a model file's name (.stl, .obj,
 * .3mf) is never one (a binary STL's header may be spaces and its triangle count start with a '{'
 * byte); any other name, by its first character after white space.
 */
export function isWorkspaceFile(name: string, bytes: Uint8Array): boolean {
  if (/\.(json|rvwj)$/i.test(name)) return true;
  if (/\.(stl|obj|3mf)$/i.test(name)) return false;
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (i < bytes.length && i < 4096 && (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d)) i++;
  return bytes[i] === 0x7b; // '{'
}

/** Whether any of the files may be a Workspace, by name alone (a model file's extension says it is not). */
export function mayBeWorkspace(names: readonly string[]): boolean {
  return names.some((n) => !/\.(stl|obj|3mf)$/i.test(n));
}
