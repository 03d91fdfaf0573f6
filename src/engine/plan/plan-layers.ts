// Plans every layer in order, each from where the previous one ended.
import { throwIfAborted } from '../types.js';
import type { SliceSettings } from '../settings.js';
import type { LayerRegions } from '../regions/types.js';
import type { LayerPlan } from './types.js';
import { defaultSeamTarget, planLayer, type PlanOptions } from './layer-planner.js';

/** Plans all layers; throws SliceCancelled when `signal` fires (checked every layer). */
export function planLayers(
  layers: LayerRegions[],
  settings: SliceSettings,
  modelNames: string[],
  signal?: AbortSignal,
  options: PlanOptions = {},
): LayerPlan[] {
  const opts: PlanOptions = { ...options, seamTarget: options.seamTarget ?? defaultSeamTarget(settings) };
  const plans: LayerPlan[] = [];
  // where the start G-code left the nozzle is not known: the first layer starts retracted, from there
  let pos: { x: number; y: number } | null = null;
  for (const layer of layers) {
    throwIfAborted(signal);
    const { plan, end } = planLayer(layer, settings, modelNames, pos, layers.length, opts);
    plans.push(plan);
    pos = end;
  }
  return plans;
}
