// Gaps built by hand for the gap-fill tests, and how much of a gap the beads leave bare.
import { areaOf } from '../src/engine/geom/path-math.js';
import { difference, offsetOpen } from '../src/engine/geom/clipper.js';
import { gapFillLines } from '../src/engine/regions/gap-fill.js';
import type { ExtrusionPath, Path } from '../src/engine/types.js';

/** A strip along x, `length` long, `middle` wide at x = 0 and changing straight to `end` at both ends, µm. */
export function strip(length: number, middle: number, end: number): Path {
  const top: number[][] = [];
  const bottom: number[][] = [];
  for (let i = 0; i <= 24; i++) {
    const x = Math.round(-length / 2 + (length * i) / 24);
    const half = Math.round((middle + ((end - middle) * Math.abs(x)) / (length / 2)) / 2);
    bottom.push([x, -half]);
    top.unshift([x, half]);
  }
  return [...bottom, ...top].flat();
}

/** Gap fill of `gap` with 0.4 mm lines, and the gap's area no bead covers (round-ended strokes of their width), µm². */
export function gapFillOf(gap: Path, width = 400): { lines: ExtrusionPath[]; bare: number; area: number } {
  const lines = gapFillLines([gap], { width, minWidth: 100, model: 0 });
  let left = [gap];
  for (const l of lines) left = difference(left, offsetOpen([l.points], l.width / 2, 'round', l.closed ? 'joined' : 'round'));
  return { lines, bare: areaOf(left), area: areaOf([gap]) };
}
