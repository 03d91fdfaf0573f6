// Models placed by the client (workspaces) keep their relative heights: the job as a whole moves so
// that its lowest model stands on the bed. A model that then starts above the bed with nothing under
// it would be printed on air, its first layers a tangle that can knock the rest over; without support
// to build under it, that is refused, naming the model and why it is up there.
import type { Bounds3 } from '../types.js';
import { SliceError } from '../types.js';
import type { SliceSettings } from '../settings.js';

export interface PlacedBox {
  name: string;
  /** as it will print (after the job's move in z), mm */
  box: Bounds3;
}

const EPS = 1e-3;

/**
 * Throws for the first model (of several) that starts more than a first layer above the bed with no
 * other model's box under its footprint reaching up to within a layer of its base. `raisedBy`: how
 * far the job was raised because a model reached below the bed (mm, 0 if not); that model is the one
 * whose box now starts lowest.
 */
export function checkNothingFloats(models: PlacedBox[], s: Pick<SliceSettings, 'supportType' | 'firstLayerHeight' | 'layerHeight'>, raisedBy = 0): void {
  if (s.supportType !== 'none' || models.length < 2) return;
  for (const m of models) {
    const base = m.box.min[2];
    if (base <= s.firstLayerHeight + EPS) continue;
    const held = models.some(
      (o) =>
        o !== m &&
        o.box.min[2] < base - EPS &&
        o.box.max[2] >= base - s.layerHeight - EPS &&
        o.box.min[0] < m.box.max[0] &&
        o.box.max[0] > m.box.min[0] &&
        o.box.min[1] < m.box.max[1] &&
        o.box.max[1] > m.box.min[1],
    );
    if (held) continue;
    const lowest = models.reduce((a, b) => (b.box.min[2] < a.box.min[2] ? b : a));
    const why = raisedBy > 0.05 ? `; the models were raised ${raisedBy.toFixed(1)} mm together because '${lowest.name}' reaches that far below the bed` : '';
    throw new SliceError(
      `model '${m.name}' would print in the air: it starts ${base.toFixed(1)} mm above the bed with nothing under it${why}. ` +
        'Place it on the bed or on another model, or slice with support',
      'BAD_MODEL',
    );
  }
}
