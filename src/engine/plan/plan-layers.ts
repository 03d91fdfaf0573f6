// Plans every layer in order, each from where the previous one ended.
import { throwIfAborted } from '../types.js';
import type { SliceSettings } from '../settings.js';
import type { LayerRegions } from '../regions/types.js';
import type { LayerPlan } from './types.js';
import { defaultSeamTarget, planLayer, type PlanOptions } from './layer-planner.js';

/** Where the nozzle is assumed to be before the first layer: the bed's front-left corner. */
export function startPosition(s: SliceSettings): { x: number; y: number } {
  return s.originCenter ? { x: (-s.bedWidth * 1000) / 2, y: (-s.bedDepth * 1000) / 2 } : { x: 0, y: 0 };
}

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
  let pos = startPosition(settings);
  for (const layer of layers) {
    throwIfAborted(signal);
    const { plan, end } = planLayer(layer, settings, modelNames, pos, layers.length, opts);
    plans.push(plan);
    pos = end;
  }
  return plans;
}
