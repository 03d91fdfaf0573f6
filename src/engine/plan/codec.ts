// Packs layer plans into one Float64Array (plus a string table) so a worker thread can hand them
// back by transfer instead of by structured clone of ~10⁵ small objects.
import type { FeatureType } from '../types.js';
import type { LayerPlan, PlanOp } from './types.js';

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
  const o = e.ops;
  for (let li = 0; li < e.layers.length; li += 5) {
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
    out.push({ index: e.layers[li], z: e.layers[li + 1], height: e.layers[li + 2], ops });
  }
  return out;
}
