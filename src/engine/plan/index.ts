// The planner: ordering, seams, travel (combing, retraction, z-hop), speeds and cooling.
export { planLayers } from './plan-layers.js';
export { planLayer, defaultSeamTarget, type PlanOptions, type PlannedLayer } from './layer-planner.js';
export { fanPercent, applyMinLayerTime, minLayerTimeCap, simpleLayerTime } from './cooling.js';
export { beadArea, filamentPerUm2, pathSpeed } from './flow.js';
export type { TravelStats } from './travel.js';
export type { LayerPlan, PlanOp } from './types.js';
