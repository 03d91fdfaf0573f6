// At 0 % infill the inside of a part is hollow: a layer's sparse area holds nothing. A top skin over
// that hollow is laid on air and must be printed as a bridge (CuraEngine and PrusaSlicer do so), not
// as ordinary skin at skin speed, flow and fan: 20-30 mm lines across a calibration cube sagged.
// This finds the layer below's sparse area, the air such a skin lies on, with the same skin split
// that layer itself gets (it needs one layer more below than skin detection does: batchPlanes).
import type { Paths } from '../types.js';
import type { SliceSettings } from '../settings.js';
import type { LayerAreas } from './build.js';
import { ShieldedArea, splitSkin } from './skins.js';

/** The layers whose areas one layer's air-below needs, below it (see batchPlanes). */
export function airBelowReach(s: Pick<SliceSettings, 'infillDensity'>): number {
  return s.infillDensity === 0 ? 1 : 0;
}

/**
 * The sparse (hollow) area of layer `j`'s model `m`, as its own skin split finds it; `common` is the
 * caller's commonArea (cached). Empty where layer j is missing.
 */
export function sparseAreaOf(
  j: number,
  m: number,
  innerOf: (j: number) => LayerAreas | undefined,
  common: (run: Array<Paths | undefined>) => Paths,
  s: Pick<SliceSettings, 'topLayers' | 'bottomLayers'>,
  w: number,
  expand: number,
  stripWidth: number,
): Paths {
  const inner = innerOf(j)?.[m];
  if (!inner || inner.length === 0) return [];
  const above: Array<Paths | undefined> = [];
  for (let k = 1; k <= s.topLayers; k++) above.push(innerOf(j + k)?.[m]);
  const below: Array<Paths | undefined> = [];
  for (let k = s.bottomLayers; k >= 1; k--) below.push(j - k < 0 ? undefined : innerOf(j - k)?.[m]);
  const coveredAbove = s.topLayers > 0 ? common(above) : inner;
  const coveredBelow = s.bottomLayers > 0 ? common(below) : inner;
  const shield = new ShieldedArea(coveredAbove, coveredBelow);
  return splitSkin(inner, coveredAbove, coveredBelow, false, w, expand, stripWidth, shield).sparse;
}
