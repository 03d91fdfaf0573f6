// The nonzero union of one layer's loops, for layers with many of them. Clipper2's sweep keeps the
// edges a scanline crosses in a list it walks for every edge it inserts, so one union of n loops that
// lie side by side or on top of each other takes time growing with n²: 1,000 touching boxes (a
// staircase) took 16 s to slice, 4,000 copies of a cube shifted by a hair 30 s.
// When every loop winds the same way (no holes), the union is the union of the loops' areas, which
// can be built from halves: loops sorted by their left edge, each half united on its own, and the
// halves united only where their boxes meet (else put side by side). A half's union is small where
// its loops overlap (copies become one outline), so the sweeps stay short. Layers with holes (loops
// of both windings) need the winding counts of all their loops at once and get one union.
import type { Paths } from '../types.js';
import { union } from '../geom/clipper.js';
import { bboxOf, signedArea } from '../geom/path-math.js';

/** Up to this many loops, and for the groups the halving ends at, one union. */
const DIRECT_MAX = 64;

type Box = [number, number, number, number];

/** A loop's bounding box as [minX, minY, maxX, maxY]. */
function boxOf(p: number[]): Box {
  const b = bboxOf([p]);
  return [b.minX, b.minY, b.maxX, b.maxY];
}

const join = (a: Box, b: Box): Box => [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])];
// boxes that touch count as meeting: loops that touch become one outline
const meet = (a: Box, b: Box) => a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];

/** The loops' nonzero union, as union(loops, 'nonzero') gives it (but in time near n log n for many loops of one winding). */
export function unionLoops(loops: Paths): Paths {
  if (loops.length <= DIRECT_MAX) return union(loops, 'nonzero');
  const sign = Math.sign(signedArea(loops[0]));
  if (sign === 0 || !loops.every((p) => Math.sign(signedArea(p)) === sign)) return union(loops, 'nonzero');
  const boxes = loops.map(boxOf);
  const order = [...loops.keys()].sort((a, b) => boxes[a][0] - boxes[b][0] || a - b);
  const unite = (from: number, to: number): { paths: Paths; box: Box } => {
    if (to - from <= DIRECT_MAX) {
      const group = order.slice(from, to);
      return { paths: union(group.map((k) => loops[k]), 'nonzero'), box: group.map((k) => boxes[k]).reduce(join) };
    }
    const mid = (from + to) >> 1;
    const a = unite(from, mid);
    const b = unite(mid, to);
    const box = join(a.box, b.box);
    // unions are positive areas: apart, they are the union side by side
    return { paths: meet(a.box, b.box) ? union(a.paths.concat(b.paths), 'nonzero') : a.paths.concat(b.paths), box };
  };
  return unite(0, loops.length).paths;
}
