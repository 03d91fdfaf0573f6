// Walls (perimeters) of one island: N loops inside the outline, each a line width apart, the outer
// one half a line width inside the outline so its outer edge lies on the model's surface.
import type { ExtrusionPath, Paths } from '../types.js';
import { difference, offset } from '../geom/clipper.js';
import { areaOf } from '../geom/path-math.js';
import { facingWalls } from './facing-walls.js';

export interface WallResult {
  /** loops per inset, [0] = outer */
  walls: ExtrusionPath[][];
  /** the area inside the innermost wall's inner edge (where skin and infill go); with no walls, the outline */
  innerArea: Paths;
  /** where travels may run without crossing a wall: the innermost wall's centre line, slightly shrunk */
  combArea: Paths;
  /** thin areas between or inside walls that no wall covers (to be filled with gap-fill lines) */
  gaps: Paths;
  /** thin parts of the outline outside the outer wall (a fin thinner than a line): the model's surface */
  outerGaps: Paths;
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
  if (p.wallCount <= 0) return withoutWalls(outline, p.width);
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
    // gaps, the inner area and travels go by the full inset; where a piece of an inner inset is
    // thinner than a line all over, its loops would overlap the facing ones and share the space
    // instead (facing-walls.ts)
    centreLines.push(kept);
    last = kept;
    const facing = k === 0 ? null : facingWalls(kept, w, p.model);
    const level: ExtrusionPath[] =
      facing ??
      kept.map((points) => ({
        type: k === 0 ? 'WALL-OUTER' : 'WALL-INNER',
        points,
        closed: true,
        width: w,
        model: p.model,
      }));
    if (level.length > 0) walls.push(level);
  }
  const n = centreLines.length;
  if (n === 0) {
    // Too thin for even one wall: the whole island is a gap, filled with single lines.
    return { walls, innerArea: [], combArea: [], gaps: p.gapFill ? outline : [], outerGaps: [] };
  }
  const innerRaw = offset(outline, -(n * w), 'miter', 3);
  // parts of the inner area narrower than one and a half lines cannot take a skin loop and lines:
  // they become gap fill instead (one bead of their own width)
  const open = Math.round(w * 0.75);
  const innerArea = innerRaw.length === 0 ? [] : offset(offset(innerRaw, -open, 'miter', 3), open, 'miter', 3);
  // Travels along the innermost wall's centre line cross no wall.
  const combArea = last;
  // eroded by a hair under half the narrowest gap, so that a gap exactly that wide (a 0.9 mm rib
  // between two 0.4 mm walls, at the 0.1 mm default) survives to be filled
  const { gaps, outerGaps } = p.gapFill
    ? findGaps(outline, centreLines, innerRaw, innerArea, w, Math.max(0, p.minGapWidth / 2 - 2))
    : { gaps: [], outerGaps: [] };
  return { walls, innerArea, combArea, gaps, outerGaps };
}

/**
 * No walls asked for (wallCount 0): as in CuraEngine and PrusaSlicer, skin and infill take the whole
 * cross-section, their lines reaching the model's surface (build.ts keeps their centres half a line
 * in, overlapping nothing). There are no gaps between walls to fill either. Travels comb inside the
 * outline shrunk by a quarter line: the lines' ends (half a line in) then lie inside the comb
 * region, not on its edge, where a travel from one end to another along the edge would be taken
 * for a move hugging the region and go straight across a notch in the side.
 */
function withoutWalls(outline: Paths, w: number): WallResult {
  return { walls: [], innerArea: outline, combArea: offset(outline, -w / 4, 'miter', 3), gaps: [], outerGaps: [] };
}

/**
 * Thin areas no wall covers. Between two levels X (outer) and Y (inner, one line further in) a gap
 * exists only where X has parts narrower than a line, i.e. where X's opening (Y grown back) is
 * smaller than X: that cheap area test skips the costly part on almost every layer. Where it fails,
 * the gap is (X ⊖ w/2) ∖ (Y ⊕ w/2), opened by r so slivers vanish; eroding a difference is the
 * difference of an erosion and a dilation, (X ∖ Y) ⊖ r = (X ⊖ r) ∖ (Y ⊕ r), which avoids the
 * micrometre slivers a plain difference of offsets leaves along every wall.
 */
function findGaps(outline: Paths, loops: Paths[], innerRaw: Paths, innerArea: Paths, w: number, r: number): { gaps: Paths; outerGaps: Paths } {
  // less area than gap fill would fill anyway (a gap twice as long as its narrowest fillable width,
  // gap-fill.ts) is not looked for: the 0.2 mm hole in the middle of a 1 mm pin is filled
  const narrowest = 2 * r + 4;
  const tol = Math.min((w * w) / 2, 2 * narrowest * narrowest);
  const eroded: Paths = [];
  const take = (x: Paths, y: Paths, into = eroded) => {
    if (x.length > 0) into.push(...difference(x, y));
  };
  // outside the outer loop: parts of the outline thinner than a line, kept apart (they are surface)
  const outside: Paths = [];
  if (areaOf(outline) - areaOf(offset(loops[0], w / 2, 'miter', 3)) > tol) {
    take(offset(outline, -r, 'miter', 3), offset(loops[0], w / 2 + r, 'miter', 3), outside);
  }
  // between consecutive loops
  for (let k = 0; k + 1 < loops.length; k++) {
    if (areaOf(loops[k]) - areaOf(offset(loops[k + 1], w, 'miter', 3)) > tol) {
      take(offset(loops[k], -(w / 2 + r), 'miter', 3), offset(loops[k + 1], w / 2 + r, 'miter', 3));
    }
  }
  // inside the innermost loop: inner parts too thin for skin or infill
  if (areaOf(innerRaw) - areaOf(innerArea) > tol) {
    take(offset(innerRaw, -r, 'miter', 3), offset(innerArea, r, 'miter', 3));
  }
  return {
    gaps: eroded.length > 0 ? offset(eroded, r, 'miter', 3) : [],
    outerGaps: outside.length > 0 ? offset(outside, r, 'miter', 3) : [],
  };
}
