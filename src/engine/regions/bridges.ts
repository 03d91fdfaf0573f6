// Bridges: the parts of a layer's solid skin that lie over air (over nothing of the layer below).
// Each bridge is printed in one direction, chosen so that its lines span the gap: start and end on
// ground the layer below holds up. Directions are tried in steps and scored by the share of line
// length over air whose both ends land on supported ground.
import type { Paths } from '../types.js';
import { difference, intersection, islands, offset, union } from '../geom/clipper.js';
import { areaOf, bboxOf, type BBox } from '../geom/path-math.js';
import { axesOf } from '../infill/raster.js';
import { projectArea, scanLines } from '../infill/scanline.js';
import { EdgeIndex } from '../plan/edge-index.js';

/** One bridge: the area printed as bridge lines (the air plus its anchors) and their direction. */
export interface Bridge {
  area: Paths;
  /** line direction, degrees in [0, 180) */
  angle: number;
}

export interface BridgeSplit {
  bridges: Bridge[];
  /** the rest of the solid area, printed as ordinary skin */
  rest: Paths;
}

/** A bridge's air covers at least this many square line widths. */
export const MIN_AREA_LINES = 9;
/** Directions tried, degrees apart. */
const ANGLE_STEP = 5;
/** Lines sampled per direction when scoring (at most). */
const SAMPLE_LINES = 48;
/** Directions scoring within this of the best count as equally good (then the shorter span wins). */
const SCORE_SLACK = 0.02;

/**
 * Splits a solid area into bridges and the rest. `bottom` is the part of the layer with nothing
 * under it in the layers below (the bottom skin: air lies within it), `below` the layer below's
 * cross-section (of the same model); `w` the line width, µm. Air narrower than about two lines
 * (the step of a sloped wall) is no bridge. Each bridge reaches `anchor` µm beyond the air into the
 * solid around it, so its lines start and end on supported ground.
 */
export function splitBridges(solid: Paths, bottom: Paths, below: Paths, w: number, anchor = 4 * w): BridgeSplit {
  if (solid.length === 0 || bottom.length === 0) return { bridges: [], rest: solid };
  const box = bboxOf(bottom);
  const ground = near(below, box, anchor + w);
  // air lies within the bottom skin (which is smaller than the solid area)
  let air = difference(bottom, ground);
  if (air.length === 0) return { bridges: [], rest: solid };
  // opening: the slivers a sloped wall leaves along the layer below (under two lines wide) vanish,
  // real gaps keep their shape; a narrow strip held up only at its ends (over a window) stays
  const minArea = MIN_AREA_LINES * w * w;
  const opened = offset(offset(air, -w, 'miter', 3), w, 'miter', 3);
  air = [...opened, ...lintels(difference(air, opened), ground, w, minArea)];
  air = air.length ? intersection(air, solid) : [];
  const gaps = islands(air).filter((a) => areaOf(a) >= minArea);
  if (gaps.length === 0) return { bridges: [], rest: solid };
  // anchors: grown gaps that touch each other form one bridge with one direction
  const grown = intersection(offset(gaps.flat(), anchor, 'round', 2, 25), solid);
  const bridges: Bridge[] = [];
  for (const area of islands(grown)) {
    const gap = intersection(air, area);
    if (gap.length === 0) continue;
    bridges.push({ area, angle: spanAngle(gap, ground, w) });
  }
  if (bridges.length === 0) return { bridges: [], rest: solid };
  const rest = difference(solid, union(bridges.flatMap((b) => b.area)));
  return { bridges, rest };
}

/** A narrow strip of air is a lintel when less than this share of the band around it is ground. */
const LINTEL_GROUND_SHARE = 0.3;

/**
 * The narrow strips of air (under two lines wide) that span a gap: over a window or a slot, held up
 * by ground only at their ends, where the step a sloped wall leaves has ground all along one side
 * (about half the band around it). Their lines must run along them, as a bridge's: across, the short
 * skin lines hang on walls that are over air themselves (3DBenchy's window tops).
 */
function lintels(thin: Paths, ground: Paths, w: number, minArea: number): Paths {
  const out: Paths = [];
  for (const strip of islands(thin)) {
    const area = areaOf(strip);
    if (area < minArea) continue;
    const band = difference(offset(strip, w, 'miter', 3), strip);
    const bandArea = areaOf(band);
    if (bandArea <= 0) continue;
    const held = areaOf(intersection(band, near(ground, bboxOf(strip), w)));
    if (held < LINTEL_GROUND_SHARE * bandArea) out.push(...strip);
  }
  return out;
}

/**
 * The direction (degrees) that best spans a gap: sample lines across the gap at each direction;
 * a line's stretch over air counts as spanning when the ground just past both of its ends is held
 * by `ground`. Best is the largest spanning share of the line length; among directions within
 * SCORE_SLACK of it, the one with the shortest long stretches (the 90th percentile of the lengths:
 * not the mean, which favours the diagonal of a square, nor the maximum, which one stray corner sets).
 */
export function spanAngle(gap: Paths, ground: Paths, w: number): number {
  const probe = 1.5 * w;
  const box = bboxOf(gap);
  // many probes against a detailed outline: a grid index answers each without walking all edges
  const held = new EdgeIndex(near(ground, box, probe + w));
  const tried: Array<{ angle: number; score: number; span: number }> = [];
  for (let angle = 0; angle < 180; angle += ANGLE_STEP) {
    const ax = axesOf(angle);
    const [lo, hi] = projectArea(gap, ax.nx, ax.ny);
    if (!(lo <= hi)) continue;
    const spacing = Math.max(w, (hi - lo) / SAMPLE_LINES);
    const count = Math.max(1, Math.floor((hi - lo) / spacing));
    const lines: Paths = [];
    scanLines(gap, ax, lo + (hi - lo - (count - 1) * spacing) / 2, spacing, count, w / 2, lines);
    let total = 0;
    let spanning = 0;
    const lengths: number[] = [];
    for (const l of lines) {
      const len = Math.hypot(l[2] - l[0], l[3] - l[1]);
      lengths.push(len);
      total += len;
      const startHeld = held.contains(l[0] - ax.dx * probe, l[1] - ax.dy * probe);
      if (startHeld && held.contains(l[2] + ax.dx * probe, l[3] + ax.dy * probe)) spanning += len;
    }
    if (total === 0) continue;
    lengths.sort((a, b) => a - b);
    tried.push({ angle, score: spanning / total, span: lengths[Math.floor(0.9 * (lengths.length - 1))] });
  }
  let bestScore = 0;
  for (const t of tried) bestScore = Math.max(bestScore, t.score);
  let best = 0;
  let bestSpan = Infinity;
  for (const t of tried) {
    if (t.score >= bestScore - SCORE_SLACK && t.span < bestSpan) {
      best = t.angle;
      bestSpan = t.span;
    }
  }
  return best;
}

/** The paths whose boxes come within `margin` of `box` (the others cannot matter there). */
function near(paths: Paths, box: BBox, margin: number): Paths {
  return paths.filter((p) => {
    const b = bboxOf([p]);
    return b.maxX >= box.minX - margin && b.minX <= box.maxX + margin && b.maxY >= box.minY - margin && b.minY <= box.maxY + margin;
  });
}
