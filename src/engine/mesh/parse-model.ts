// Model input: tells the format by content (never by extension), reads it, checks it and cleans it
// into an indexed mesh in millimetres.
import { type Mesh, withReadWarnings } from '../types.js';
import { type RawMesh, MAX_COORD_MM, badModel, tooManyTriangles, MAX_TRIANGLES } from './raw-mesh.js';
import { looksLikeText, isSpace } from './text-scan.js';
import { readBinaryStl, headerCount, STL_HEADER, STL_RECORD } from './stl-binary.js';
import { readAsciiStl } from './stl-ascii.js';
import { readObj } from './obj.js';
import { readThreeMf } from './threemf.js';
import { isZip } from './zip.js';
import { weld } from './weld.js';
import { meshBounds } from './bounds.js';

export type ModelFormat = 'stl-binary' | 'stl-ascii' | 'obj' | '3mf';

/** Decides the format from the bytes. Throws BAD_MODEL for empty and unrecognisable files. */
export function detectFormat(bytes: Uint8Array): ModelFormat {
  if (bytes.length === 0) throw badModel('empty file: no bytes');
  if (isZip(bytes)) return '3mf';
  const count = headerCount(bytes);
  // an exact size match is binary whatever the header says ("solid…" headers exist)
  if (count >= 0 && STL_HEADER + STL_RECORD * count === bytes.length) return 'stl-binary';
  const sampleEnd = Math.min(bytes.length, 4096);
  if (looksLikeText(bytes, 0, sampleEnd)) {
    let s = 0;
    if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) s = 3; // UTF-8 byte-order mark
    while (s < bytes.length && isSpace(bytes[s])) s++;
    if (s === bytes.length) throw badModel('empty file: only white space');
    if (startsWithWord(bytes, s, 'solid')) return 'stl-ascii';
    if (hasObjLine(bytes)) return 'obj';
    // a Workspace (JSON) given where a model is wanted: say what it is and where it goes
    if (bytes[s] === 0x7b) throw badModel('unknown model format: this looks like JSON (a Workspace file?); models are STL, OBJ or 3MF; a Workspace is uploaded to the service as type WS (docs/workspace.md)');
    // a short binary STL whose count, header and floats all happen to be printable is not worth guessing at
    throw badModel('unknown model format: expected binary or ASCII STL, OBJ or 3MF');
  }
  if (bytes.length < STL_HEADER) throw badModel(`unknown model format: ${bytes.length} bytes of binary data, too short even for a binary STL header`);
  return 'stl-binary'; // binary with a wrong count: readBinaryStl trusts the size and warns
}

function startsWithWord(bytes: Uint8Array, s: number, word: string): boolean {
  for (let k = 0; k < word.length; k++) if ((bytes[s + k] | 0x20) !== word.charCodeAt(k)) return false;
  return s + word.length === bytes.length || isSpace(bytes[s + word.length]);
}

/** An OBJ has a `v` line with a number within its first megabyte (comments may come first). */
function hasObjLine(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, 1 << 20);
  let lineStart = true;
  for (let i = 0; i < end; i++) {
    const c = bytes[i];
    if (c === 10 || c === 13) {
      lineStart = true;
      continue;
    }
    if (lineStart && c === 118 && (bytes[i + 1] === 32 || bytes[i + 1] === 9)) {
      let k = i + 2;
      while (k < end && (bytes[k] === 32 || bytes[k] === 9)) k++;
      const d = bytes[k];
      if ((d >= 48 && d <= 57) || d === 45 || d === 43 || d === 46) return true;
    }
    if (c !== 32 && c !== 9) lineStart = false;
  }
  return false;
}

function readRaw(bytes: Uint8Array, format: ModelFormat): RawMesh {
  switch (format) {
    case 'stl-binary':
      return readBinaryStl(bytes);
    case 'stl-ascii':
      return readAsciiStl(bytes);
    case 'obj':
      return readObj(bytes);
    case '3mf':
      return readThreeMf(bytes);
  }
}

const FORMAT_NAME: Record<ModelFormat, string> = { 'stl-binary': 'binary STL', 'stl-ascii': 'ASCII STL', obj: 'OBJ', '3mf': '3MF' };

/**
 * Reads a model file (binary or ASCII STL, OBJ, 3MF; told apart by content) into a welded,
 * cleaned mesh in millimetres. `fileName` is used only in messages. Throws SliceError('BAD_MODEL')
 * with a message naming the problem when the file cannot be a model.
 */
export function parseModel(bytes: Uint8Array, fileName: string): { mesh: Mesh; warnings: string[] } {
  const { raw, format, warnings } = readNamed(bytes, fileName);
  try {
    return { mesh: cleanMesh(raw, format, fileName, warnings), warnings };
  } catch (err) {
    // a file refused after it was read with warnings says them: "a coordinate is NaN" or "no
    // triangles left" alone does not tell that the file was shorter than its header declares
    throw withReadWarnings(err, warnings);
  }
}

/** One printed object of a model file. */
export interface ModelPart {
  name: string;
  mesh: Mesh;
}

/**
 * Like parseModel, but a file that places several separate objects (a 3MF plate's build items)
 * gives one mesh each, in the file's order and relative positions: each then prints as a model of
 * its own (its own `;MESH:`, its own object to cancel in Klipper). Other files give one part named
 * `fileName`.
 */
export function parseModelParts(bytes: Uint8Array, fileName: string): { parts: ModelPart[]; warnings: string[] } {
  const { raw, format, warnings } = readNamed(bytes, fileName);
  try {
    if (!raw.parts || !raw.indices) return { parts: [{ name: fileName, mesh: cleanMesh(raw, format, fileName, warnings) }], warnings };
    const all = raw.indices;
    const parts: ModelPart[] = [];
    raw.parts.forEach((p, k) => {
      const name = p.name?.trim() ? `${fileName}: ${p.name.trim()}` : `${fileName} #${k + 1}`;
      const indices = all.slice(p.indexStart, p.indexEnd);
      for (let i = 0; i < indices.length; i++) indices[i] -= p.vertexStart;
      const sub: RawMesh = { positions: raw.positions.subarray(3 * p.vertexStart, 3 * p.vertexEnd), indices, unitsKnown: raw.unitsKnown, warnings: [] };
      // an item with no triangles left is left out (with a warning), as those triangles are from a whole file
      const mesh = cleanMesh(sub, format, name, warnings, true);
      if (mesh) parts.push({ name, mesh });
    });
    // (each object's warning says what it lost; the refusal repeats them)
    if (parts.length === 0) throw badModel(`'${fileName}' has no triangles left in any of its ${raw.parts.length} objects`);
    return { parts, warnings };
  } catch (err) {
    throw withReadWarnings(err, warnings);
  }
}

/** "12 duplicate triangle(s) (…)": what welding dropped as copies of other triangles (duplicates.ts). */
function duplicatesText(repeated: number, cancelled: number): string {
  const why =
    cancelled === 0
      ? 'the same corners as another'
      : repeated === 0
        ? 'the same corners as another wound the other way: they cancel in pairs'
        : `the same corners as another: ${repeated} repeating one, ${cancelled} cancelling in pairs, wound opposite ways`;
  return `${repeated + cancelled} duplicate triangle(s) (${why})`;
}

/** What left a mesh without triangles, for the refusal. */
function droppedText(triangles: number, degenerate: number, repeated: number, cancelled: number): string {
  if (repeated + cancelled === 0) return `${triangles} degenerate one(s)`;
  return [degenerate > 0 ? `${degenerate} degenerate triangle(s)` : '', duplicatesText(repeated, cancelled)].filter(Boolean).join(' and ');
}

/** Triangles in all the parts. */
export const trianglesOf = (parts: readonly ModelPart[]): number => parts.reduce((n, p) => n + p.mesh.indices.length / 3, 0);

/** Reads the triangles as the file holds them; the readers' warnings prefixed with the file's name. */
function readNamed(bytes: Uint8Array, fileName: string): { raw: RawMesh; format: ModelFormat; warnings: string[] } {
  const format = detectFormat(bytes);
  let raw: RawMesh;
  try {
    raw = readRaw(bytes, format);
  } catch (err) {
    if (err instanceof RangeError) throw badModel(`'${fileName}' is too large to read (${err.message})`);
    throw err;
  }
  return { raw, format, warnings: raw.warnings.map((w) => `${fileName}: ${w}`) };
}

/**
 * Welds and checks the read triangles (adding to `warnings`); throws SliceError('BAD_MODEL'). With
 * `emptyOk`, a mesh with no triangles left is null and a warning instead of an error (one part of several).
 */
function cleanMesh(raw: RawMesh, format: ModelFormat, fileName: string, warnings: string[], emptyOk: true): Mesh | null;
function cleanMesh(raw: RawMesh, format: ModelFormat, fileName: string, warnings: string[]): Mesh;
function cleanMesh(raw: RawMesh, format: ModelFormat, fileName: string, warnings: string[], emptyOk = false): Mesh | null {
  const p = raw.positions;
  const triangles = raw.indices ? raw.indices.length / 3 : p.length / 9;
  if (triangles > MAX_TRIANGLES) throw tooManyTriangles(triangles.toLocaleString('en-US'));

  const { mesh, collapsed, flat, repeated, cancelled, nonFinite, far } = weld(p, raw.indices);
  if (nonFinite) throw badModel(`'${fileName}' (${FORMAT_NAME[format]}) has a vertex coordinate that is ${nonFinite}`);
  if (far !== null) throw badModel(`'${fileName}' has coordinates beyond ±${MAX_COORD_MM} mm (a vertex at ${far}): not a printable model`);
  if (mesh.indices.length === 0) {
    const dropped = droppedText(triangles, collapsed + flat, repeated, cancelled);
    if (!emptyOk) throw badModel(`'${fileName}' has no triangles left after dropping ${dropped}`);
    warnings.push(`${fileName}: left out, no triangles left after dropping ${dropped}`);
    return null;
  }
  if (collapsed + flat > 0) {
    const parts = [collapsed > 0 ? `${collapsed} with repeated corners` : '', flat > 0 ? `${flat} with zero area` : ''].filter(Boolean);
    warnings.push(`${fileName}: dropped ${collapsed + flat} degenerate triangle(s) (${parts.join(', ')})`);
  }
  if (repeated + cancelled > 0) warnings.push(`${fileName}: dropped ${duplicatesText(repeated, cancelled)}`);

  const b = meshBounds(mesh);
  const extent = Math.max(b.max[0] - b.min[0], b.max[1] - b.min[1], b.max[2] - b.min[2]);
  if (!raw.unitsKnown && extent < 1) {
    // OBJ and STL carry no unit; scans in metres are common (the Stanford bunny is 0.156 m)
    for (let i = 0; i < mesh.positions.length; i++) mesh.positions[i] *= 1000;
    warnings.push(`${fileName}: the model's largest extent is ${+extent.toPrecision(3)}, under 1 mm; assuming metres and scaling by 1000`);
    for (let a = 0; a < 3; a++) {
      b.min[a] *= 1000;
      b.max[a] *= 1000;
    }
  }
  for (let a = 0; a < 3; a++) {
    if (Math.abs(b.min[a]) > MAX_COORD_MM || Math.abs(b.max[a]) > MAX_COORD_MM) {
      throw badModel(`'${fileName}' has coordinates beyond ±${MAX_COORD_MM} mm (${'xyz'[a]} from ${b.min[a]} to ${b.max[a]}): not a printable model`);
    }
  }
  return mesh;
}
