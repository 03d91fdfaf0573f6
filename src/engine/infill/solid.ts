// Solid fill for top/bottom skin (and any infill at 100 %): parallel lines exactly one line width
// apart, one segment per crossing of the area, in monotonic order.
import type { Paths } from '../types.js';
import { axesOf } from './raster.js';
import { projectArea, scanLines } from './scanline.js';

/**
 * Solid lines at `angleDeg`, spaced exactly `lineWidth` and centred across the area's extent so no
 * sliver is left on one side. Every line points the same way (+direction); the result is sorted by
 * the line's offset across the direction, then by position along it, so the planner can print
 * them monotonically. Pieces shorter than half a line width are dropped.
 */
export function solidLines(area: Paths, lineWidth: number, angleDeg: number): Paths {
  if (!(lineWidth > 0)) return [];
  const ax = axesOf(angleDeg);
  const [lo, hi] = projectArea(area, ax.nx, ax.ny);
  if (!(lo <= hi)) return [];
  const count = Math.max(1, Math.round((hi - lo) / lineWidth));
  const first = (lo + hi) / 2 - ((count - 1) * lineWidth) / 2;
  const out: Paths = [];
  scanLines(area, ax, first, lineWidth, count, lineWidth / 2, out);
  return out;
}
