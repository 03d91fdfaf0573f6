// Walls (perimeters) of one island: N loops inside the outline, each a line width apart, the outer
// one half a line width inside the outline so its outer edge lies on the model's surface.
import type { ExtrusionPath, Paths } from '../types.js';
import { difference, offset, offsetOpen, union } from '../geom/clipper.js';
import { areaOf } from '../geom/path-math.js';

export interface WallResult {
  /** loops per inset, [0] = outer */
  walls: ExtrusionPath[][];
  /** the area inside the innermost wall's inner edge (where skin and infill go) */
  innerArea: Paths;
  /** where travels may run without crossing a wall: the innermost wall's centre line, slightly shrunk */
  combArea: Paths;
  /** thin areas between or inside walls that no wall covers (to be filled with gap-fill lines) */
  gaps: Paths;
}

export interface WallParams {
  /** line width, µm */
  width: number;
  wallCount: number;
  model: number;
  /** gaps narrower than this are ignored, µm */
  minGapWidth: number;
  gapFill: boolean;
}

/** Loops shorter than this (µm of perimeter) are dropped: they would be blobs, not walls. */
const MIN_LOOP_AREA_FACTOR = 0.25;

export function computeWalls(outline: Paths, p: WallParams): WallResult {
  const w = p.width;
  const walls: ExtrusionPath[][] = [];
  const centreLines: Paths[] = [];
  let last: Paths = outline;
  for (let k = 0; k < p.wallCount; k++) {
    // Offset from the outline directly (not from the previous loop) so errors do not accumulate;
    // 'miter' keeps corners sharp, as the part has them.
    const loops = offset(outline, -(w / 2 + k * w), 'miter', 3);
    const kept = loops.filter((l) => Math.abs(areaOf([l])) > MIN_LOOP_AREA_FACTOR * w * w);
    if (kept.length === 0) break;
    centreLines.push(kept);
    walls.push(
      kept.map((points) => ({
        type: k === 0 ? 'WALL-OUTER' : 'WALL-INNER',
        points,
        closed: true,
        width: w,
        model: p.model,
      })),
    );
    last = kept;
  }
  const n = centreLines.length;
  const innerRaw = n === 0 ? [] : offset(outline, -(n * w), 'miter', 3);
  // parts of the inner area narrower than about a line cannot take skin or infill lines: they
  // become gap fill instead
  const open = Math.round(w * 0.45);
  const innerArea = innerRaw.length === 0 ? [] : offset(offset(innerRaw, -open, 'miter', 3), open, 'miter', 3);
  // Travels along the innermost wall's centre line cross no wall; a little inside it is safer.
  const combArea = n === 0 ? [] : offset(last, -w / 4, 'miter', 3);
  let gaps: Paths = [];
  if (p.gapFill && n > 0) {
    // The band the walls should cover, minus what their beads do cover, plus the too-thin inner
    // parts, opened so slivers vanish.
    const band = difference(outline, innerArea);
    const covered = union(centreLines.flatMap((loops) => offsetOpen(loops, w / 2, 'miter', 'joined')));
    const rest = difference(band, covered);
    const half = p.minGapWidth / 2;
    gaps = offset(offset(rest, -half, 'miter', 3), half, 'miter', 3);
  } else if (p.gapFill && n === 0) {
    // Too thin for even one wall: the whole island is a gap, filled with single lines.
    gaps = outline;
  }
  return { walls, innerArea, combArea, gaps };
}
