// Top and bottom skin detection, layer to layer: the part of a layer's inner area with no part
// above it within `topLayers` layers is top skin; with none below within `bottomLayers`, bottom skin.
// A ledge half-way up therefore gets its own top skin.
import type { Paths } from '../types.js';
import { difference, intersection, offset, union } from '../geom/clipper.js';
import { bboxOf, samePaths, signedArea, type BBox } from '../geom/path-math.js';

/** Loops smaller than this (µm²) are boolean debris, not area: a 1 µm × 100 µm sliver. */
const SPECK_AREA_UM2 = 100;

/**
 * The area present on every one of the given layers' outlines (what covers a layer from above or
 * below); empty when any of them is missing (off the end of the model).
 */
export function commonArea(outlines: Array<Paths | undefined>): Paths {
  if (outlines.length === 0) return [];
  let acc: Paths | null = null;
  for (const o of outlines) {
    if (!o || o.length === 0) return [];
    // layers of a prismatic part repeat one another point for point: nothing to intersect
    acc = acc === null ? o : samePaths(acc, o) ? acc : intersection(acc, o);
    if (acc.length === 0) return [];
  }
  return acc ?? [];
}

export interface SkinSplit {
  /** solid (top or bottom) area */
  solid: Paths;
  /** sparse infill area */
  sparse: Paths;
  /** the part of the inner area with nothing below it (before slivers go): where bridges can be; made when first read */
  readonly bottom: Paths;
}

/**
 * Splits an island's inner area into solid skin and sparse infill; the skin grows by `expand` µm
 * into the sparse area (within the inner area). `coveredAbove`/`coveredBelow` are
 * the common areas of the next layers up/down (see commonArea). Solid patches thinner than
 * `minWidth` are merged into the sparse area's neighbour skin rather than left as slivers; strips
 * thinner than `stripWidth` too, except where the inner area itself is that thin.
 */
export function splitSkin(
  inner: Paths,
  coveredAbove: Paths,
  coveredBelow: Paths,
  allSolid: boolean,
  minWidth: number,
  expand = 0,
  stripWidth = 0,
  shielded?: ShieldedArea,
): SkinSplit {
  if (inner.length === 0) return result([], [], () => []);
  // only the parts of the neighbours near this island matter: with many islands on a layer, this
  // keeps each island's booleans small
  const box = bboxOf(inner);
  const below = near(coveredBelow, box);
  // only bridges read it, and only where there is skin: worked out when first asked for
  const bottom = () => (below.length === 0 ? inner : uncovered(inner, below));
  if (allSolid) return result(inner, [], bottom);
  const above = near(coveredAbove, box);
  // Nothing at all above or below the island (a part's first and last layers): it is skin whole.
  // The opening below would give the inner area back (the walls already opened it by more than
  // minWidth) except at corners sharper than ~35°, whose tips it would leave to sparse infill.
  if (below.length === 0 || above.length === 0) return result(inner, [], bottom);
  // a prismatic layer (the inner area repeats above and below, point for point) has no skin
  const split = result([], inner, bottom);
  if (samePaths(inner, above) && split.bottom.length === 0) return split;
  // Skin is what is bare above or below: inner ∖ (above ∩ below), shrunk by half of minWidth so that
  // slivers (a wall's worth of sloped surface) that would print as dust go. Shrinking a difference is
  // the difference of a shrink and a growth, (A ∖ C) ⊖ r = (A ⊖ r) ∖ (C ⊕ r): no boolean of two
  // near-coincident outlines (whose output is thick with slivers, slow to offset) is ever made.
  const half = minWidth / 2;
  const grown = near((shielded ?? new ShieldedArea(coveredAbove, coveredBelow)).grown(half), box);
  const shrunk = offset(inner, -half, 'miter', 3);
  let solid = shrunk.length === 0 ? [] : grown.length === 0 ? shrunk : difference(shrunk, grown);
  if (solid.length === 0) return split;
  if (stripWidth > minWidth) {
    // Strips narrower than `stripWidth` go too, except where the inner area itself is that narrow
    // (a pocket that is all skin has no sparse infill to give them to).
    // (`solid` is still shrunk by half of minWidth here, and stays so until it is grown below)
    // Booleans leave specks (needle loops of a few µm², some clockwise) along coincident edges. One
    // that is the topmost loop makes Clipper2 read the whole set as reversed and offset it inside
    // out (`node dist/bench/offset-check.js` found three on the bunny): they go first.
    const core = solid.filter((p) => Math.abs(signedArea(p)) >= SPECK_AREA_UM2);
    const extra = (stripWidth - minWidth) / 2;
    const wide = core.length === 0 ? [] : offset(core, -extra, 'miter', 3);
    const kept = wide.length === 0 ? [] : offset(wide.filter((p) => Math.abs(signedArea(p)) >= SPECK_AREA_UM2), extra, 'miter', 3);
    const narrowInner = core.length === 0 ? [] : difference(inner, opening(inner, stripWidth));
    const pockets = narrowInner.length === 0 ? [] : intersection(core, narrowInner);
    solid = pockets.length === 0 ? kept : union([...kept, ...pockets]);
    if (solid.length === 0) return split;
  }
  // grow what is left (by the expansion, which anchors the skin's edges on the sparse infill
  // around it) and keep it inside the inner area
  solid = expand > 0 ? intersection(offset(solid, half + expand, 'round', 2, 25), inner) : offset(solid, half, 'miter', 3);
  const sparse = solid.length === 0 ? inner : difference(inner, solid);
  return result(solid, sparse, bottom);
}

/** A split whose `bottom` is made from `bottomOf` when first read. */
function result(solid: Paths, sparse: Paths, bottomOf: () => Paths): SkinSplit {
  let bottom: Paths | undefined;
  return {
    solid,
    sparse,
    get bottom() {
      return (bottom ??= bottomOf());
    },
  };
}

/**
 * What covers a layer both from above and from below (the intersection of the two common areas),
 * grown: made once per layer and model, when its first island asks for it (splitSkin).
 */
export class ShieldedArea {
  private by = NaN;
  private area: Paths = [];
  constructor(
    private readonly above: Paths,
    private readonly below: Paths,
  ) {}

  /** the area grown by `by` µm */
  grown(by: number): Paths {
    if (by !== this.by) {
      const both = samePaths(this.above, this.below) ? this.above : intersection(this.above, this.below);
      this.area = both.length === 0 ? [] : offset(both, by, 'miter', 3);
      this.by = by;
    }
    return this.area;
  }
}

/** The area with its parts narrower than `width` removed (shrunk by half of it, grown back). */
function opening(area: Paths, width: number): Paths {
  const shrunk = offset(area, -width / 2, 'miter', 3);
  return shrunk.length === 0 ? [] : offset(shrunk, width / 2, 'miter', 3);
}

/**
 * The part of `inner` that `cover` leaves bare. When the cover near the island is the island's own
 * inner area again (the layers repeat it exactly), nothing is bare: no boolean needed.
 */
function uncovered(inner: Paths, cover: Paths): Paths {
  return samePaths(inner, cover) ? [] : difference(inner, cover);
}

/**
 * The paths whose bounding boxes meet `box`. A path that does not meet the box cannot wind around
 * any point in it, so booleans restricted to the box come out the same without it.
 */
function near(paths: Paths, box: BBox): Paths {
  return paths.filter((p) => {
    const b = bboxOf([p]);
    return b.maxX >= box.minX && b.minX <= box.maxX && b.maxY >= box.minY && b.minY <= box.maxY;
  });
}
