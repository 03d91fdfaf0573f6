// Solid fill for top/bottom skin (and any infill at 100 %): parallel lines one line width apart,
// one segment per crossing of the area, in monotonic order.
import type { Paths } from '../types.js';
import { axesOf } from './raster.js';
import type { Axes } from './raster.js';
import { projectArea, scanLines } from './scanline.js';

/**
 * Solid lines at `angleDeg`, spaced exactly `lineWidth` and centred across the area's extent so no
 * sliver is left on one side. Every line points the same way (+direction); the result is sorted by
 * the line's offset across the direction, then by position along it, so the planner can print
 * them monotonically. Pieces shorter than `minLength` (half a line width) are dropped.
 */
export function solidLines(area: Paths, lineWidth: number, angleDeg: number, minLength = lineWidth / 2): Paths {
  if (!(lineWidth > 0)) return [];
  const ax = axesOf(angleDeg);
  const [lo, hi] = projectArea(area, ax.nx, ax.ny);
  if (!(lo <= hi)) return [];
  const count = Math.max(1, Math.round((hi - lo) / lineWidth));
  const first = (lo + hi) / 2 - ((count - 1) * lineWidth) / 2;
  const out: Paths = [];
  scanLines(area, ax, first, lineWidth, count, minLength, out);
  return out;
}

/** Where the lines of `fittedSolidLines` must reach. */
export interface SolidFit {
  /** how far inside the edge the lines must reach the given area lies (µm, ≥ 0) */
  edgeDistance: number;
  /** how far the outermost beads go past that edge (µm, ≥ 0): into the walls */
  sideOverlap: number;
  /** pieces shorter than this are dropped (µm; default half a line width) */
  minLength?: number;
}

/** Solid lines and the bead width they are spaced (and must be extruded) at. */
export interface FittedLines {
  lines: Paths;
  width: number;
}

/**
 * Solid lines whose outermost beads meet an edge that runs along them at either end of the area's
 * extent across the lines. With a fixed spacing centred in the extent, such an edge got a bare
 * strip of 0 to half a line beside it (a bridge's sides, a chamfer at the skin angle, a strip
 * between two walls: 3DBenchy's windshield top, 0.69 mm wide, got one 0.4 mm line and two 0.12 mm
 * slits). An end of the extent counts as such an edge when the area's points there span at least a
 * line width along the lines; an end that is a corner keeps the lines clear of it, as before (a
 * line at a corner's tip is too short to print, and dropping it bares the corner).
 * - Edges at both ends: the spacing (and the bead width, so the volume stays right) is stretched or
 *   squeezed so that a whole number of beads spans them: from two beads up the width stays within
 *   0.75–1.25 × the line width (within ±10 % from five); narrower extents keep one centred line.
 * - An edge at one end: the lines start from it at the line width.
 * - Corners at both ends, or a fit that leaves no line: `solidLines`.
 */
export function fittedSolidLines(area: Paths, lineWidth: number, angleDeg: number, fit: SolidFit): FittedLines {
  if (!(lineWidth > 0)) return { lines: [], width: lineWidth };
  const ax = axesOf(angleDeg);
  const [lo, hi] = projectArea(area, ax.nx, ax.ny);
  if (!(lo <= hi)) return { lines: [], width: lineWidth };
  const [loFlat, hiFlat] = flatEnds(area, ax, lo, hi, lineWidth);
  const reach = fit.edgeDistance + fit.sideOverlap;
  const minLength = fit.minLength ?? lineWidth / 2;
  const lines: Paths = [];
  if (loFlat && hiFlat) {
    const cover = hi - lo + 2 * reach;
    const nearest = Math.round(cover / lineWidth);
    // the outermost centres a bead's half less the reach inside the area's extent, and never on its
    // edge (a line there can vanish): with a reach of half a line or more (skinOverlap 25 % and up)
    // they stay MIN_INSIDE in and the spacing closes up by what that takes, which can push the
    // nearest count's width out of range or its beads short of the reach: then one line fewer (wider
    // beads reach further) or more, the first whose beads reach all the way, else the first in range
    const fits = [nearest, nearest - 1, nearest + 1]
      .filter((count) => count >= 2)
      .map((count) => {
        const free = cover / count / 2 - reach;
        const inside = Math.max(MIN_INSIDE, free);
        return { count, inside, width: (hi - lo - 2 * inside) / (count - 1), reaches: free >= MIN_INSIDE };
      })
      .filter((f) => f.width >= 0.75 * lineWidth && f.width <= 1.25 * lineWidth);
    const fitted = fits.find((f) => f.reaches) ?? fits[0];
    if (fitted) {
      scanLines(area, ax, lo + fitted.inside, fitted.width, fitted.count, minLength, lines);
      if (lines.length > 0) return { lines, width: fitted.width };
    }
  } else if (loFlat || hiFlat) {
    const inside = Math.max(MIN_INSIDE, lineWidth / 2 - reach);
    const count = Math.floor((hi - lo - inside) / lineWidth) + 1;
    if (count >= 1) {
      // from the edge's end, in +normal order either way
      const first = loFlat ? lo + inside : hi - inside - (count - 1) * lineWidth;
      scanLines(area, ax, first, lineWidth, count, minLength, lines);
      if (lines.length > 0) return { lines, width: lineWidth };
    }
  }
  return { lines: solidLines(area, lineWidth, angleDeg, minLength), width: lineWidth };
}

/** The outermost lines' centres stay at least this far inside the area's extent (µm). */
const MIN_INSIDE = 5;

/** Points within this of the extent's end count as lying on it (µm: rounding to whole µm moves a point on a slanted edge up to 0.71). */
const FLAT_TOLERANCE = 3;

/** Whether the area's points at each end of its extent [lo, hi] across `ax` span at least `length` along it. */
function flatEnds(area: Paths, ax: Axes, lo: number, hi: number, length: number): [boolean, boolean] {
  let loMin = Infinity;
  let loMax = -Infinity;
  let hiMin = Infinity;
  let hiMax = -Infinity;
  for (const p of area) {
    for (let i = 0; i + 1 < p.length; i += 2) {
      const v = p[i] * ax.nx + p[i + 1] * ax.ny;
      if (v > lo + FLAT_TOLERANCE && v < hi - FLAT_TOLERANCE) continue;
      const u = p[i] * ax.dx + p[i + 1] * ax.dy;
      if (v <= lo + FLAT_TOLERANCE) {
        if (u < loMin) loMin = u;
        if (u > loMax) loMax = u;
      }
      if (v >= hi - FLAT_TOLERANCE) {
        if (u < hiMin) hiMin = u;
        if (u > hiMax) hiMax = u;
      }
    }
  }
  return [loMax - loMin >= length, hiMax - hiMin >= length];
}
