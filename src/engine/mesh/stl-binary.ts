// Binary STL: an 80-byte header, a uint32 triangle count, then 50 bytes a triangle (normal, three
// vertices as little-endian float32, a 2-byte attribute). The normal is ignored: winding decides.
import { type RawMesh, MAX_TRIANGLES, badModel, tooManyTriangles } from './raw-mesh.js';

export const STL_HEADER = 84;
export const STL_RECORD = 50;

/** The triangle count in the header, or -1 when the file is shorter than the header. */
export function headerCount(bytes: Uint8Array): number {
  if (bytes.length < STL_HEADER) return -1;
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(80, true);
}

/**
 * Reads a binary STL. When the header's count disagrees with the file size, the size wins
 * (floor((size − 84) / 50) triangles) and a warning says so.
 */
export function readBinaryStl(bytes: Uint8Array): RawMesh {
  const warnings: string[] = [];
  const declared = headerCount(bytes);
  if (declared < 0) throw badModel(`truncated binary STL: ${bytes.length} bytes, shorter than the 84-byte header`);
  const fits = Math.floor((bytes.length - STL_HEADER) / STL_RECORD);
  let count = declared;
  if (STL_HEADER + STL_RECORD * declared !== bytes.length) {
    if (fits === 0) {
      throw badModel(
        `truncated binary STL: the header declares ${declared} triangles but the file has only ${bytes.length} bytes (one triangle needs 50 after the 84-byte header)`,
      );
    }
    warnings.push(`binary STL header declares ${declared} triangles but the file size holds ${fits}; read ${fits}`);
    count = fits;
  }
  if (count === 0) throw badModel('binary STL with zero triangles');
  if (count > MAX_TRIANGLES) throw tooManyTriangles(count.toLocaleString('en-US'));

  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const positions = new Float32Array(count * 9);
  let off = STL_HEADER + 12; // skip the normal
  for (let t = 0, o = 0; t < count; t++, off += STL_RECORD) {
    for (let k = 0; k < 36; k += 4) positions[o++] = view.getFloat32(off + k, true);
  }
  return { positions, indices: null, unitsKnown: false, warnings };
}
