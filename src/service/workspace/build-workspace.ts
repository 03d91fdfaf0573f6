// Writes Workspace files in the shape real .rvwj files have (capitalised keys, vertices in absolute
// bed millimetres, legacy transform fields at identity): `stratum workspace from-stl` and the tests.
import type { Mesh } from '../../engine/types.js';

export type Vec3 = [number, number, number];

export interface WorkspaceEntryInput {
  name: string;
  /** triangle list, already placed in bed millimetres */
  mesh: Mesh;
  /** 0 for a printed model, > 0 for a modifier */
  priority?: number;
  /** a modifier's density, 0 … 1 */
  fillDensity?: number;
  /** a point-cloud modifier's PC_SV upload name */
  fileReference?: string;
  /** the convex hull, when known (a box modifier's is its box); else the generator placeholder */
  hull?: Mesh;
}

const point = (p: ArrayLike<number>, i: number) => ({ X: round(p[i * 3]!), Y: round(p[i * 3 + 1]!), Z: round(p[i * 3 + 2]!) });
/** 4 decimals (0.1 µm): enough for any printer, and files stay small */
const round = (v: number) => Math.round(v * 1e4) / 1e4;

export function workspaceEntry(e: WorkspaceEntryInput): Record<string, unknown> {
  const meta: Record<string, unknown> = {
    IsGroup: false,
    Path: '',
    Name: e.name,
    PrintingMaterial: 0,
    Watertight: 'PerformCheck',
    SlicingPriority: e.priority ?? 0,
  };
  if ((e.priority ?? 0) > 0) meta.Modifier = e.fillDensity !== undefined ? { FillDensityFactor: e.fillDensity } : {};
  if (e.fileReference !== undefined) meta.FileReference = e.fileReference;
  const { positions, indices } = e.mesh;
  return {
    metaData: meta,
    position: { X: 0, Y: 0, Z: 0 },
    scale: { X: 1, Y: 1, Z: 1 },
    rotationX: 0,
    rotationY: 0,
    rotationZ: 0,
    FlipedX: false,
    FlipedY: false,
    FlipedZ: false,
    BoundsPositions: e.hull ? Array.from({ length: e.hull.positions.length / 3 }, (_, i) => point(e.hull!.positions, i)) : [{ X: 0, Y: 0, Z: 0 }],
    BoundsIndices: e.hull ? Array.from(e.hull.indices) : [0],
    // ModelPositions is a triangle list: three points per triangle, indices 0…N-1
    ModelPositions: Array.from(indices, (v) => point(positions, v)),
    ModelIndices: Array.from(indices, (_, i) => i),
  };
}

export function workspaceFile(entries: WorkspaceEntryInput[], printerDummy: Vec3 = [3, 0, 1]): Record<string, unknown> {
  return { Printer: { Dummy: printerDummy }, Models: entries.map(workspaceEntry), SelectedSupport: 'none' };
}

/** An axis-aligned box as 12 outward-facing triangles. */
export function boxMesh(min: Vec3, max: Vec3): Mesh {
  const positions = new Float32Array(8 * 3);
  for (let i = 0; i < 8; i++) positions.set([i & 1 ? max[0] : min[0], i & 2 ? max[1] : min[1], i & 4 ? max[2] : min[2]], i * 3);
  // corner i: bit 0 = x, bit 1 = y, bit 2 = z; two counter-clockwise triangles per face seen from outside
  const faces = [
    [0, 2, 3, 1], // z min
    [4, 5, 7, 6], // z max
    [0, 1, 5, 4], // y min
    [2, 6, 7, 3], // y max
    [0, 4, 6, 2], // x min
    [1, 3, 7, 5], // x max
  ];
  const indices = new Uint32Array(faces.flatMap(([a, b, c, d]) => [a!, b!, c!, a!, c!, d!]));
  return { positions, indices };
}

/** The mesh moved so its footprint is centred at (cx, cy) and its base rests on z = 0 (as the hosted service placed models). */
export function centreOnBed(mesh: Mesh, cx: number, cy: number): Mesh {
  const p = mesh.positions;
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < p.length; i++) {
    const a = i % 3;
    if (p[i]! < min[a]!) min[a] = p[i]!;
    if (p[i]! > max[a]!) max[a] = p[i]!;
  }
  const shift = [cx - (min[0]! + max[0]!) / 2, cy - (min[1]! + max[1]!) / 2, -min[2]!];
  const out = new Float32Array(p.length);
  for (let i = 0; i < p.length; i++) out[i] = p[i]! + shift[i % 3]!;
  return { positions: out, indices: mesh.indices };
}
