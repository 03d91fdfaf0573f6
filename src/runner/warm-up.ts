// A slicing worker's first slices run its code cold: V8 interprets a function until it has seen it
// run often enough to compile it, so a fresh worker's first task comes back several times slower
// than the same task later (holes_thin_wall: 325 ms in the worker, then 135, 110, 43). Each worker
// therefore slices a small built-in part a few times as the service starts, before it takes any
// task. The part is made here (no file to ship or find) and goes through the common stages: walls,
// a hole, top and bottom skins, a bridge, sparse infill, travel, cooling and G-code.
import { slice } from '../engine/index.js';
import type { Mesh } from '../engine/types.js';
import { resolveSettings } from '../profiles/index.js';

type Box = [x0: number, y0: number, z0: number, x1: number, y1: number, z1: number];

// a box's corners are numbered by bits (x, y, z); each face as two triangles, counter-clockwise
// seen from outside
const BOX_FACES = [
  [0, 2, 3, 1], // bottom (z0)
  [4, 5, 7, 6], // top (z1)
  [0, 1, 5, 4], // y0
  [2, 6, 7, 3], // y1
  [0, 4, 6, 2], // x0
  [1, 3, 7, 5], // x1
] as const;

/**
 * A 20 × 20 × 3 mm frame around an 8 × 8 mm hole, with a 12 × 12 × 2 mm block on top that bridges
 * the hole: five closed boxes (the frame's four sides and the block) that touch without
 * overlapping; the slicer joins them, as it does any model made of several shells.
 */
export function warmUpMesh(): Mesh {
  const boxes: Box[] = [
    [0, 0, 0, 20, 6, 3],
    [0, 14, 0, 20, 20, 3],
    [0, 6, 0, 6, 14, 3],
    [14, 6, 0, 20, 14, 3],
    [4, 4, 3, 16, 16, 5],
  ];
  const positions = new Float32Array(boxes.length * 8 * 3);
  const indices = new Uint32Array(boxes.length * 12 * 3);
  boxes.forEach((b, k) => {
    for (let v = 0; v < 8; v++) {
      positions.set([b[v & 1 ? 3 : 0], b[v & 2 ? 4 : 1], b[v & 4 ? 5 : 2]], (k * 8 + v) * 3);
    }
    BOX_FACES.forEach(([p, q, r, t], f) => {
      indices.set([p, q, r, p, r, t].map((i) => k * 8 + i), (k * 12 + f * 2) * 3);
    });
  });
  return { positions, indices };
}

/**
 * How many times: the part's slice time levels off after six to eight runs (here: 163, 108, 102,
 * 41, 50, 40, 26, 23 ms), about 0.5 s in all; six took holes_thin_wall's first task from 325 to
 * 77 ms in the worker.
 */
export const WARM_UP_SLICES = 6;

/** Slices the built-in part `count` times with the default profile, output thrown away; ms taken. */
export async function warmUpSlices(count = WARM_UP_SLICES): Promise<number> {
  const t0 = performance.now();
  const { settings } = resolveSettings({});
  for (let i = 0; i < count; i++) await slice([{ name: 'warm-up', mesh: warmUpMesh() }], settings);
  return performance.now() - t0;
}
