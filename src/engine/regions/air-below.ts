// At 0 % infill the inside of a part is hollow: a layer's sparse area holds nothing. A top skin over
// that hollow is laid on air and must be printed as a bridge (CuraEngine and PrusaSlicer do so), not
// as ordinary skin at skin speed, flow and fan: 20-30 mm lines across a calibration cube sagged.
// This finds the layer below's hollow, the air such a skin lies on (it needs one layer more below
// than skin detection does: batchPlanes).
import type { Paths } from '../types.js';
import type { SliceSettings } from '../settings.js';
import type { LayerAreas } from './build.js';
import { intersection } from '../geom/clipper.js';
import { ShieldedArea } from './skins.js';

/** The layers whose areas one layer's air-below needs, below it (see batchPlanes). */
export function airBelowReach(s: Pick<SliceSettings, 'infillDensity'>): number {
  return s.infillDensity === 0 ? 1 : 0;
}

/**
 * The hollow of layer `j`'s model `m`: where it is covered both from above and from below within
 * the skin layers, less the skin's growth into it (`expand`). That is its own skin split's sparse
 * area but for the narrow strips the split hands back to sparse infill: those count as ground here,
 * so a bridge may be missed over one (a small patch of overhang skin beside a wall, printed as
 * ordinary skin as before), never invented. One intersection and one offset a layer: running the
 * layer's whole split again (or on its area around the skin) made a 0 % slice of the Stanford bunny
 * 30-40 % slower, against ~6 % for this. `common` is the caller's commonArea (cached); empty where
 * layer j is missing or all skin.
 */
export function hollowAreaOf(
  j: number,
  m: number,
  innerOf: (j: number) => LayerAreas | undefined,
  common: (run: Array<Paths | undefined>) => Paths,
  s: Pick<SliceSettings, 'topLayers' | 'bottomLayers'>,
  expand: number,
): Paths {
  const inner = innerOf(j)?.[m];
  if (!inner || inner.length === 0) return [];
  const above: Array<Paths | undefined> = [];
  for (let k = 1; k <= s.topLayers; k++) above.push(innerOf(j + k)?.[m]);
  const below: Array<Paths | undefined> = [];
  for (let k = s.bottomLayers; k >= 1; k--) below.push(j - k < 0 ? undefined : innerOf(j - k)?.[m]);
  // no top (bottom) skin layers: nothing above (below) makes skin, as in fillForLayer
  const coveredAbove = s.topLayers > 0 ? common(above) : inner;
  const coveredBelow = s.bottomLayers > 0 ? common(below) : inner;
  if (coveredAbove.length === 0 || coveredBelow.length === 0) return [];
  const hollow = new ShieldedArea(coveredAbove, coveredBelow).grown(-expand);
  return hollow.length === 0 ? [] : intersection(hollow, inner);
}
