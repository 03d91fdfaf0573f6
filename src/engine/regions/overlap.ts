// Printed models that overlap (a heel post pushed into an insole, two parts placed touching) would
// each print their walls and infill through the other: twice the material in the overlap, walls
// ploughing through infill. As CuraEngine does by default, the overlap belongs to one model: the
// first in the job's order keeps it, later models lose it and wall their cut edge against it.
import { difference, union } from '../geom/clipper.js';
import { bboxOf, type BBox } from '../geom/path-math.js';
import type { Paths } from '../types.js';

const overlaps = (a: BBox, b: BBox) => a.minX < b.maxX && b.minX < a.maxX && a.minY < b.maxY && b.minY < a.maxY;
const joinBoxes = (a: BBox, b: BBox): BBox => ({
  minX: Math.min(a.minX, b.minX),
  minY: Math.min(a.minY, b.minY),
  maxX: Math.max(a.maxX, b.maxX),
  maxY: Math.max(a.maxY, b.maxY),
});

/** Models whose boxes met: what they took, as disjoint pieces (a valid clip area side by side). */
interface Taken {
  pieces: Paths;
  /** pieces added since they were last merged into one area */
  added: number;
  box: BBox;
}

/**
 * Pieces a group gathers before they are merged into one area: a clip of a few pieces is cheaper
 * than a union, but a thousand overlapping models each cut against all the pieces before them took
 * 7 s a layer (now 0.3 s).
 */
const MERGE_AFTER = 8;

/**
 * Per model, the layer's cross-section without what earlier models' cover (`outlines` clean areas;
 * empty ones, such as modifiers', take no part). Models whose boxes do not meet cost a box each.
 */
export function withoutOverlaps(outlines: Paths[]): Paths[] {
  let groups: Taken[] = [];
  const out = outlines.slice();
  for (let m = 0; m < out.length; m++) {
    let section = out[m]!;
    if (section.length === 0) continue;
    const box = bboxOf(section);
    // only the earlier models this one's box meets (a plate of many parts is not N² subtractions)
    const meets = groups.filter((g) => overlaps(g.box, box));
    if (meets.length > 0) {
      // carved sections are disjoint, so together they are the union of what is taken
      section = difference(section, meets.length === 1 ? meets[0]!.pieces : meets.flatMap((g) => g.pieces));
      out[m] = section;
    }
    if (section.length === 0) continue;
    if (meets.length === 0) {
      groups.push({ pieces: section, added: 1, box });
      continue;
    }
    // the groups this model met become one, with it
    const joined: Taken = { pieces: [], added: 1, box };
    for (const g of meets) {
      joined.pieces.push(...g.pieces);
      joined.added += g.added;
      joined.box = joinBoxes(joined.box, g.box);
    }
    joined.pieces.push(...section);
    if (joined.added > MERGE_AFTER) {
      joined.pieces = union(joined.pieces);
      joined.added = 0;
    }
    groups = groups.filter((g) => !meets.includes(g));
    groups.push(joined);
  }
  return out;
}
