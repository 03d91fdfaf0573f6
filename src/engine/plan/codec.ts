// Packs layer plans into one Float64Array (plus a string table) so a worker thread can hand them
// back by transfer instead of by structured clone of ~10⁵ small objects.
import type { FeatureType } from '../types.js';
import type { LayerPlan, PlanOp } from './types.js';
import type { PlanSource } from '../output/plan-source.js';

const SLOTS = 5;
const FEATURES: FeatureType[] = ['WALL-OUTER', 'WALL-INNER', 'SKIN', 'FILL', 'SUPPORT', 'SUPPORT-INTERFACE', 'SKIRT', 'BRIM', 'RAFT'];
const FEATURE_INDEX = new Map(FEATURES.map((f, i) => [f, i]));

export interface EncodedPlans {
  /** per layer: index, z, height, first op, op count */
  layers: Float64Array;
  /** per op: code and four fields */
  ops: Float64Array;
  strings: string[];
}

export function encodePlans(plans: LayerPlan[]): EncodedPlans {
  let total = 0;
  for (const p of plans) total += p.ops.length;
  const ops = new Float64Array(total * SLOTS);
  const layers = new Float64Array(plans.length * 5);
  const strings: string[] = [];
  let k = 0;
  plans.forEach((p, li) => {
    layers.set([p.index, p.z, p.height, k / SLOTS, p.ops.length], li * 5);
    for (const op of p.ops) {
      switch (op.op) {
        case 'travel':
          ops.set([0, op.x, op.y, op.z ?? NaN, op.speed], k);
          break;
        case 'extrude':
          ops.set([1, op.x, op.y, op.e, op.speed], k);
          break;
        case 'feature':
          strings.push(op.modelName ?? '');
          ops.set([2, FEATURE_INDEX.get(op.type) ?? 0, op.model, op.modelName === undefined ? -1 : strings.length - 1, 0], k);
          break;
        case 'retract':
          ops.set([3, op.length, op.speed, 0, 0], k);
          break;
        case 'unretract':
          ops.set([4, op.length, op.speed, 0, 0], k);
          break;
        case 'fan':
          ops.set([5, op.percent, 0, 0, 0], k);
          break;
        case 'comment':
          strings.push(op.text);
          ops.set([6, strings.length - 1, 0, 0, 0], k);
          break;
      }
      k += SLOTS;
    }
  });
  return { layers, ops, strings };
}

export function decodePlans(e: EncodedPlans): LayerPlan[] {
  const out: LayerPlan[] = [];
  for (let li = 0; li < e.layers.length / 5; li++) out.push(decodeLayer(e, li));
  return out;
}

/** How many layers the packed plans hold. */
export function encodedLayerCount(e: EncodedPlans): number {
  return e.layers.length / 5;
}

/** How many operations layer `li` of the packed plans holds. */
export function encodedOpCount(e: EncodedPlans, li: number): number {
  return e.layers[li * 5 + 4];
}

/** Whether layer `li` of the packed plans extrudes anything. */
export function encodedLayerExtrudes(e: EncodedPlans, li: number): boolean {
  const first = e.layers[li * 5 + 3];
  const count = e.layers[li * 5 + 4];
  for (let i = 0; i < count; i++) if (e.ops[(first + i) * SLOTS] === 1) return true;
  return false;
}

/** One layer of the packed plans as op objects, so a reader can hold one layer at a time. */
export function decodeLayer(e: EncodedPlans, layer: number): LayerPlan {
  const o = e.ops;
  const li = layer * 5;
  const first = e.layers[li + 3];
  const count = e.layers[li + 4];
  const ops: PlanOp[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const k = (first + i) * SLOTS;
    switch (o[k]) {
      case 0:
        ops[i] = Number.isNaN(o[k + 3])
          ? { op: 'travel', x: o[k + 1], y: o[k + 2], speed: o[k + 4] }
          : { op: 'travel', x: o[k + 1], y: o[k + 2], z: o[k + 3], speed: o[k + 4] };
        break;
      case 1:
        ops[i] = { op: 'extrude', x: o[k + 1], y: o[k + 2], e: o[k + 3], speed: o[k + 4] };
        break;
      case 2:
        ops[i] =
          o[k + 3] < 0
            ? { op: 'feature', type: FEATURES[o[k + 1]], model: o[k + 2] }
            : { op: 'feature', type: FEATURES[o[k + 1]], model: o[k + 2], modelName: e.strings[o[k + 3]] };
        break;
      case 3:
        ops[i] = { op: 'retract', length: o[k + 1], speed: o[k + 2] };
        break;
      case 4:
        ops[i] = { op: 'unretract', length: o[k + 1], speed: o[k + 2] };
        break;
      case 5:
        ops[i] = { op: 'fan', percent: o[k + 1] };
        break;
      default:
        ops[i] = { op: 'comment', text: e.strings[o[k + 1]] };
    }
  }
  return { index: e.layers[li], z: e.layers[li + 1], height: e.layers[li + 2], ops };
}

/**
 * The layers of several packed parts, in order, as a source that decodes one layer when asked.
 * Layers at the top that extrude nothing (a spike's tip) are left out.
 */
export function packedPlanSource(packed: readonly EncodedPlans[]): PlanSource {
  // a part is let go once the reader has moved past it (the caller should not hold on to them either)
  const parts: Array<EncodedPlans | undefined> = [...packed];
  const part: number[] = [];
  const local: number[] = [];
  packed.forEach((e, p) => {
    for (let li = 0; li < encodedLayerCount(e); li++) {
      part.push(p);
      local.push(li);
    }
  });
  let length = part.length;
  while (length > 0 && !encodedLayerExtrudes(packed[part[length - 1]], local[length - 1])) length--;
  let opCount = 0;
  for (let i = 0; i < length; i++) opCount += encodedOpCount(packed[part[i]], local[i]);
  return {
    length,
    opCount,
    get: (i) => {
      const p = part[i];
      for (let q = p - 1; q >= 0 && parts[q] !== undefined; q--) parts[q] = undefined;
      const e = parts[p];
      if (!e) throw new Error(`layer ${i} was already read`);
      return decodeLayer(e, local[i]);
    },
  };
}
