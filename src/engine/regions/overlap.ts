// Printed models that overlap (a heel post pushed into an insole, two parts placed touching) would
// each print their walls and infill through the other: twice the material in the overlap, walls
// ploughing through infill. As CuraEngine does by default, the overlap belongs to one model: the
// first in the job's order keeps it, later models lose it and wall their cut edge against it.
import { difference } from '../geom/clipper.js';
import { bboxOf, type BBox } from '../geom/path-math.js';
import type { Paths } from '../types.js';

const overlaps = (a: BBox, b: BBox) => a.minX < b.maxX && b.minX < a.maxX && a.minY < b.maxY && b.minY < a.maxY;

/**
 * Per model, the layer's cross-section without what earlier models' cover (`outlines` clean areas;
 * empty ones, such as modifiers', take no part). Models whose boxes do not meet cost a box each.
 */
export function withoutOverlaps(outlines: Paths[]): Paths[] {
  const kept: Array<{ section: Paths; box: BBox }> = [];
  const out = outlines.slice();
  for (let m = 0; m < out.length; m++) {
    let section = out[m]!;
    if (section.length === 0) continue;
    const box = bboxOf(section);
    // only the earlier models this one's box meets (a plate of many parts is not N² subtractions)
    const meets = kept.filter((k) => overlaps(k.box, box));
    if (meets.length > 0) {
      // carved sections are disjoint, so together they are the union of what is taken
      section = difference(section, meets.length === 1 ? meets[0]!.section : meets.flatMap((k) => k.section));
      out[m] = section;
    }
    if (section.length > 0) kept.push({ section, box });
  }
  return out;
}
