// What the G-code writer reads: the layer plans, one at a time. A source may decode each layer on
// demand from packed data, so that a big print's op objects never all exist at once.
import type { LayerPlan } from '../plan/types.js';

export interface PlanSource {
  /** number of layers */
  readonly length: number;
  /** operations over all layers (sizes the move buffer) */
  readonly opCount: number;
  /**
   * layer `i`; the writer reads the layers in order, twice. A plan (its ops) may be reused for the
   * next layer asked for: it is valid until the next `get`.
   */
  get(i: number): LayerPlan;
  /** the writer will not ask for layer `i` or any before it again */
  done?(i: number): void;
}

/** A source over plans already in memory. */
export function planSourceOf(plans: readonly LayerPlan[]): PlanSource {
  let opCount = 0;
  for (const p of plans) opCount += p.ops.length;
  return { length: plans.length, opCount, get: (i) => plans[i]! };
}
