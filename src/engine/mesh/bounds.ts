// Axis-aligned bounds of a mesh, in the mesh's units (mm as read; µm once placed).
import type { Bounds3 } from '../types.js';

/** Bounds of the mesh's vertices; all zeros for an empty mesh. */
export function meshBounds(mesh: { positions: ArrayLike<number> }): Bounds3 {
  const p = mesh.positions;
  if (p.length < 3) return { min: [0, 0, 0], max: [0, 0, 0] };
  let x0 = Infinity, y0 = Infinity, z0 = Infinity;
  let x1 = -Infinity, y1 = -Infinity, z1 = -Infinity;
  for (let i = 0; i + 2 < p.length; i += 3) {
    const x = p[i], y = p[i + 1], z = p[i + 2];
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
    if (z < z0) z0 = z;
    if (z > z1) z1 = z;
  }
  return { min: [x0, y0, z0], max: [x1, y1, z1] };
}
