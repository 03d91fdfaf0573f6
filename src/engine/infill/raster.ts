// Small geometry helpers shared by the pattern modules.
import type { Path, Paths } from '../types.js';
import type { Box } from './types.js';
import { bboxOf } from '../geom/path-math.js';

/** Bounds of every point of `area`, or null when it has none. */
export function boundsOf(area: Paths): Box | null {
  const b = bboxOf(area);
  return b.minX <= b.maxX ? b : null;
}

/** Unit direction (dx, dy) of lines at `angleDeg` and its left normal (nx, ny). */
export interface Axes {
  dx: number;
  dy: number;
  nx: number;
  ny: number;
}

export function axesOf(angleDeg: number): Axes {
  const a = (angleDeg * Math.PI) / 180;
  // snap tiny values so 0°/90° lines stay exactly axis-parallel after rounding
  const snap = (v: number) => (Math.abs(v) < 1e-12 ? 0 : v);
  const dx = snap(Math.cos(a));
  const dy = snap(Math.sin(a));
  return { dx, dy, nx: -dy, ny: dx };
}

/** [min, max] of the box corners projected onto the unit vector (ux, uy). */
export function projectBox(b: Box, ux: number, uy: number): [number, number] {
  const xs = ux >= 0 ? [b.minX, b.maxX] : [b.maxX, b.minX];
  const ys = uy >= 0 ? [b.minY, b.maxY] : [b.maxY, b.minY];
  return [ux * xs[0] + uy * ys[0], ux * xs[1] + uy * ys[1]];
}

/** Positive remainder. */
export function mod(a: number, m: number): number {
  const r = a % m;
  return r < 0 ? r + m : r;
}

export function pathLength(p: Path): number {
  let len = 0;
  for (let i = 2; i + 1 < p.length; i += 2) len += Math.hypot(p[i] - p[i - 2], p[i + 1] - p[i - 1]);
  return len;
}
