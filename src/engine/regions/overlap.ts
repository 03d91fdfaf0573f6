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
  let taken: Paths = [];
  let takenBoxes: BBox[] = [];
  const out = outlines.slice();
  for (let m = 0; m < out.length; m++) {
    let section = out[m]!;
    if (section.length === 0) continue;
    const box = bboxOf(section);
    if (takenBoxes.some((b) => overlaps(b, box))) {
      section = difference(section, taken);
      out[m] = section;
    }
    if (section.length === 0) continue;
    // carved sections are disjoint, so together they are the union of what is taken
    taken = taken.concat(section);
    takenBoxes = takenBoxes.concat(box);
  }
  return out;
}
