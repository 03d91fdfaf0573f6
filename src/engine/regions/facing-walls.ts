// Inner walls of a part too thin for them from both sides. 3DBenchy's chimney is 1.38 mm across:
// two 0.4 mm walls from each side put its two inner loops 0.18 mm apart, overlapping by 0.22 mm,
// and the tube's beads took 20 % more area than their union (plastic laid twice: blobs). Where a
// piece of an inner inset is thinner than a line all over, the loops round it face each other
// along all their length; they are replaced, as Arachne (CuraEngine, PrusaSlicer) does, by beads
// that share the space between the loops outside them: in a ring under half a line wide (a tube),
// one loop along the middle as wide as the space, else (a strip, or a wider ring) loops half as
// wide. The beads stay in the inset they replace, printed in the walls' order, as closed loops:
// left to gap fill, printed after all the walls, an earlier attempt cost travels (holes_thin_wall
// 335 -> 499). A piece with any part a line wide (a plate whose two holes come close) keeps its
// loops: narrowing them only where they meet would cut them into pieces of different widths, each
// a travel, seam and retraction more.
import type { ExtrusionPath, Paths } from '../types.js';
import { cleanIslands, offset } from '../geom/clipper.js';
import { areaOf, pathLength, signedArea } from '../geom/path-math.js';

/**
 * An inner wall's loops (`inset`: centre lines, a line `w` in from the loops outside them) with
 * the pieces thinner than a line all over shared out as above; null when there are none (the
 * loops are printed as they are).
 */
export function facingWalls(inset: Paths, w: number, model: number): ExtrusionPath[] | null {
  // most insets are one piece, a line wide somewhere: its area says so, else what is left of it
  // half a line in (an offset more per inset cost the bunny's walls about 15 %)
  const onePiece = inset.filter((l) => signedArea(l) > 0).length === 1;
  if (onePiece && surelyThick(inset, w)) return null;
  const core = offset(inset, -w / 2, 'miter', 3);
  if (core.length > 0 && onePiece) return null;
  const pieces = cleanIslands(inset);
  const thin = core.length === 0 ? pieces : pieces.filter((c) => !surelyThick(c, w) && offset(c, -w / 2, 'miter', 3).length === 0);
  if (thin.length === 0) return null;
  const out: ExtrusionPath[] = [];
  for (const c of pieces) {
    if (!thin.includes(c)) {
      for (const points of c) out.push({ type: 'WALL-INNER', points, closed: true, width: w, model });
      continue;
    }
    out.push(...sharedBeads(c, w, model));
  }
  return out;
}

/**
 * Whether a piece (outer loop and holes) is too large for its edges to be thinner than a line all
 * over. Such a piece's area is what its inward offsets sweep before they vanish, under half a line
 * in: at most w/2 × their length, which is the perimeter, round each hole up to π·w longer. Twice
 * that leaves room for miter corners.
 */
function surelyThick(piece: Paths, w: number): boolean {
  const perimeter = piece.reduce((s, l) => s + pathLength(l, true), 0);
  return areaOf(piece) > w * (perimeter + Math.PI * w * (piece.length - 1));
}

/**
 * Beads for one piece of the inset (an island: outer loop and holes) thinner than a line all over.
 * Its width t is what the loops round it overlap less than a line: the space between the loops
 * outside is t + w. Every bead is a closed loop, as the loops it replaces were: an open line
 * along a strip would end away from the next loop's seam, a travel and retraction more (on
 * tall_thin_wedge's top, one per layer).
 */
function sharedBeads(piece: Paths, w: number, model: number): ExtrusionPath[] {
  const t = stripWidth(areaOf(piece), piece.reduce((s, l) => s + pathLength(l, true), 0));
  if (piece.length === 2 && t < w / 2) {
    // a ring (a tube's inset): one loop along its middle, as wide as the space
    const middle = offset([piece[0]], -Math.round(t / 2), 'miter', 3);
    if (middle.length === 1) return [{ type: 'WALL-INNER', points: middle[0], closed: true, width: Math.round(t + w), model, freeSides: 0 }];
  }
  // two beads of (t + w) / 2 (a strip's loop: its two sides): the loops move out by a quarter of
  // their overlap and narrow by half of it, so that each meets the loop outside it and the other
  // edge to edge, no side free (with the innermost wall's free side they carried 6 % less, a slit
  // between them); whole micrometres, so that a symmetric part's loop stays symmetric (its aligned
  // seam, on a tie, then falls where the outer loop's does)
  const width = Math.round((t + w) / 2);
  const loops = offset(piece, Math.round((w - t) / 4), 'miter', 3);
  return loops.map((points) => ({ type: 'WALL-INNER', points, closed: true, width, model, freeSides: 0 }));
}

/**
 * The width of a rectangle of this area and perimeter: a strip's or a ring's width (a ring has no
 * ends, and the result is within 1 % for the chimney). Twice the area over the perimeter, a ring's
 * mean width, is short of a strip's by its ends: 0.23 mm for a 0.3 × 0.92 mm piece of 3DBenchy's
 * window frame, whose loop, narrowed by that, leaves a 0.07 mm slit between its two sides.
 */
function stripWidth(area: number, perimeter: number): number {
  const half = perimeter / 2;
  return (half - Math.sqrt(Math.max(0, half * half - 4 * area))) / 2;
}
