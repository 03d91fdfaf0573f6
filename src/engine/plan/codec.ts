// Packs layer plans into a few typed arrays (plus a string table) so a worker thread can hand them
// back by transfer instead of by structured clone of ~10⁵ small objects, and so that a whole print's
// plans take 28 bytes per operation while they wait for the G-code writer.
import type { FeatureType } from '../types.js';
import type { LayerPlan, PlanOp } from './types.js';
import type { PlanSource } from '../output/plan-source.js';

const FEATURES: FeatureType[] = ['WALL-OUTER', 'WALL-INNER', 'SKIN', 'FILL', 'SUPPORT', 'SUPPORT-INTERFACE', 'SKIRT', 'BRIM', 'RAFT'];
const FEATURE_INDEX = new Map(FEATURES.map((f, i) => [f, i]));
/** Flag on an op's code: its two integer fields did not fit an int32 and are in `odd` instead. */
const ODD = 16;

export interface EncodedPlans {
  /** per layer: index, z, height, first op, op count */
  layers: Float64Array;
  /** per op: code and two integer fields (x and y of moves, in µm) */
  ints: Int32Array;
  /** per op: two more fields (filament, speed, …) */
  floats: Float64Array;
  /** ops whose integer fields were not int32 values (never seen in practice): op, a, b, … */
  odd: number[];
  strings: string[];
}

export function encodePlans(plans: LayerPlan[]): EncodedPlans {
  let total = 0;
  for (const p of plans) total += p.ops.length;
  const ints = new Int32Array(total * 3);
  const floats = new Float64Array(total * 2);
  const layers = new Float64Array(plans.length * 5);
  const odd: number[] = [];
  const strings: string[] = [];
  let k = 0;
  const put = (code: number, a: number, b: number, c: number, d: number): void => {
    if (Object.is(a, a | 0) && Object.is(b, b | 0)) {
      ints[k * 3] = code;
      ints[k * 3 + 1] = a;
      ints[k * 3 + 2] = b;
    } else {
      ints[k * 3] = code | ODD;
      odd.push(k, a, b);
    }
    floats[k * 2] = c;
    floats[k * 2 + 1] = d;
    k++;
  };
  plans.forEach((p, li) => {
    layers.set([p.index, p.z, p.height, k, p.ops.length], li * 5);
    const ops = p.ops;
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i]!;
      switch (op.op) {
        case 'travel':
          put(0, op.x, op.y, op.z ?? NaN, op.speed);
          break;
        case 'extrude':
          put(1, op.x, op.y, op.e, op.speed);
          break;
        case 'feature':
          strings.push(op.modelName ?? '');
          put(2, FEATURE_INDEX.get(op.type) ?? 0, op.model, op.modelName === undefined ? -1 : strings.length - 1, op.bridge ? 1 : 0);
          break;
        case 'retract':
          put(3, 0, 0, op.length, op.speed);
          break;
        case 'unretract':
          put(4, 0, 0, op.length, op.speed);
          break;
        case 'fan':
          put(5, 0, 0, op.percent, 0);
          break;
        case 'comment':
          strings.push(op.text);
          put(6, 0, 0, strings.length - 1, 0);
          break;
      }
    }
  });
  return { layers, ints, floats, odd, strings };
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
  for (let i = 0; i < count; i++) if ((e.ints[(first + i) * 3] & ~ODD) === 1) return true;
  return false;
}

/** The features that print a model itself (not its skirt, brim, raft or support). */
const MODEL_FEATURES = new Set((['WALL-OUTER', 'WALL-INNER', 'SKIN', 'FILL'] as FeatureType[]).map((f) => FEATURE_INDEX.get(f)!));

/** Adds to `into` every model that the packed plans extrude a wall, skin or infill of. */
export function addPrintedModels(e: EncodedPlans, into: Set<number>): void {
  const { ints, floats } = e;
  const n = ints.length / 3;
  let model = -1;
  for (let k = 0; k < n; k++) {
    const code = ints[k * 3] & ~ODD;
    if (code === 2) {
      // a feature's fields are a feature index and a model index, never too large for an int32
      model = MODEL_FEATURES.has(ints[k * 3 + 1]) ? ints[k * 3 + 2] : -1;
    } else if (code === 1 && model >= 0 && floats[k * 2] > 0) {
      into.add(model);
    }
  }
}

type TravelOp = Extract<PlanOp, { op: 'travel' }>;
type ExtrudeOp = Extract<PlanOp, { op: 'extrude' }>;

/**
 * Op objects kept from one decoded layer to the next: moves are nearly all of a print's ops, and a
 * reader that holds one layer at a time (the G-code writer, which walks every layer twice) then
 * makes no new object for them. Without it the walks made about a sixth of a large slice's garbage.
 */
export class OpPool {
  private travels: TravelOp[] = [];
  private lifts: TravelOp[] = [];
  private extrudes: ExtrudeOp[] = [];
  /** how many of each list the layer being decoded has used */
  private nTravels = 0;
  private nLifts = 0;
  private nExtrudes = 0;
  private ops: PlanOp[] = [];

  /** Makes the previous layer's objects free again; returns the array to fill (emptied). */
  begin(): PlanOp[] {
    this.nTravels = this.nLifts = this.nExtrudes = 0;
    this.ops.length = 0;
    return this.ops;
  }

  travel(x: number, y: number, speed: number): TravelOp {
    const op = (this.travels[this.nTravels++] ??= { op: 'travel', x: 0, y: 0, speed: 0 });
    op.x = x;
    op.y = y;
    op.speed = speed;
    return op;
  }

  lift(x: number, y: number, z: number, speed: number): TravelOp {
    const op = (this.lifts[this.nLifts++] ??= { op: 'travel', x: 0, y: 0, z: 0, speed: 0 });
    op.x = x;
    op.y = y;
    op.z = z;
    op.speed = speed;
    return op;
  }

  extrude(x: number, y: number, e: number, speed: number): ExtrudeOp {
    const op = (this.extrudes[this.nExtrudes++] ??= { op: 'extrude', x: 0, y: 0, e: 0, speed: 0 });
    op.x = x;
    op.y = y;
    op.e = e;
    op.speed = speed;
    return op;
  }
}

/**
 * One layer of the packed plans as op objects, so a reader can hold one layer at a time. With a
 * pool, the layer's moves are the pool's objects: valid until the pool decodes another layer.
 */
export function decodeLayer(e: EncodedPlans, layer: number, pool?: OpPool): LayerPlan {
  const { ints, floats: f } = e;
  const li = layer * 5;
  const first = e.layers[li + 3];
  const count = e.layers[li + 4];
  const ops: PlanOp[] = pool ? pool.begin() : [];
  for (let i = 0; i < count; i++) {
    const k = first + i;
    const code = ints[k * 3];
    let a = ints[k * 3 + 1];
    let b = ints[k * 3 + 2];
    if (code & ODD) [a, b] = oddFields(e, k);
    const c = f[k * 2];
    const d = f[k * 2 + 1];
    switch (code & ~ODD) {
      case 0:
        if (pool) ops.push(Number.isNaN(c) ? pool.travel(a, b, d) : pool.lift(a, b, c, d));
        else ops.push(Number.isNaN(c) ? { op: 'travel', x: a, y: b, speed: d } : { op: 'travel', x: a, y: b, z: c, speed: d });
        break;
      case 1:
        ops.push(pool ? pool.extrude(a, b, c, d) : { op: 'extrude', x: a, y: b, e: c, speed: d });
        break;
      case 2: {
        const feature: PlanOp =
          c < 0
            ? { op: 'feature', type: FEATURES[a], model: b }
            : { op: 'feature', type: FEATURES[a], model: b, modelName: e.strings[c] };
        if (d === 1) feature.bridge = true;
        ops.push(feature);
        break;
      }
      case 3:
        ops.push({ op: 'retract', length: c, speed: d });
        break;
      case 4:
        ops.push({ op: 'unretract', length: c, speed: d });
        break;
      case 5:
        ops.push({ op: 'fan', percent: c });
        break;
      default:
        ops.push({ op: 'comment', text: e.strings[c] });
    }
  }
  return { index: e.layers[li], z: e.layers[li + 1], height: e.layers[li + 2], ops };
}

/** The fields of op `k` from `odd` (listed in op order: binary search). */
function oddFields(e: EncodedPlans, k: number): [number, number] {
  let lo = 0;
  let hi = e.odd.length / 3;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (e.odd[mid * 3] < k) lo = mid + 1;
    else hi = mid;
  }
  if (e.odd[lo * 3] !== k) throw new Error(`packed op ${k} has no stored fields`);
  return [e.odd[lo * 3 + 1], e.odd[lo * 3 + 2]];
}

/**
 * The layers of several packed parts, in order, as a source that decodes one layer when asked.
 * Layers at the top that extrude nothing (a spike's tip) are left out.
 */
export function packedPlanSource(packed: readonly EncodedPlans[]): PlanSource {
  // a part is let go once the reader is done with it (the caller should not hold on to them either)
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
  const pool = new OpPool();
  return {
    length,
    opCount,
    get: (i) => {
      const e = parts[part[i]];
      if (!e) throw new Error(`layer ${i} was already let go`);
      return decodeLayer(e, local[i], pool);
    },
    done: (i) => {
      for (let q = part[i] - 1; q >= 0 && parts[q] !== undefined; q--) parts[q] = undefined;
    },
  };
}
