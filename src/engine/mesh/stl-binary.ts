// Binary STL: an 80-byte header, a uint32 triangle count, then 50 bytes a triangle (normal, three
// vertices as little-endian float32, a 2-byte attribute). The normal is ignored: winding decides.
import { type RawMesh, type VertexSource, MAX_TRIANGLES, badModel, tooManyTriangles } from './raw-mesh.js';

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

  return { vertices: stlVertices(bytes, count), indices: null, unitsKnown: false, warnings };
}

/** The vertices of `count` binary STL records, read in place (three per record, after the normal). */
function stlVertices(bytes: Uint8Array, count: number): VertexSource {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    count: count * 3,
    fill(start: number, n: number, out: Uint32Array): void {
      // blocks start on a record boundary (the welder asks for multiples of three vertices)
      let off = STL_HEADER + STL_RECORD * ((start / 3) | 0) + 12;
      for (let o = 0; o < 3 * n; o += 9, off += STL_RECORD) {
        for (let k = 0; k < 9; k++) out[o + k] = view.getUint32(off + 4 * k, true);
      }
    },
  };
}
