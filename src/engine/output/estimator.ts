// Print time per layer of a plan, from the motion-planner simulation of exactly the moves the G-code
// writer produces for it.
import type { LayerPlan } from '../plan/types.js';
import type { SliceSettings } from '../settings.js';
import { flavorRules } from './flavors.js';
import { LayerEmitter } from './layer-emitter.js';
import { limitsFromSettings } from './limits.js';
import { MoveBuffer } from './move-buffer.js';
import { simulate } from './simulate.js';

/** Sums move times into groups: group g covers moves [starts[g], starts[g+1]) (the last up to `end`). */
export function sumByGroup(times: Float64Array, starts: readonly number[], end: number): number[] {
  const out: number[] = [];
  for (let g = 0; g < starts.length; g++) {
    const to = g + 1 < starts.length ? starts[g + 1]! : end;
    let t = 0;
    for (let i = starts[g]!; i < to; i++) t += times[i]!;
    out.push(t);
  }
  return out;
}

/** Where the nozzle first goes in a plan (µm), so an estimate without start G-code has no lead-in move. */
export function firstPosition(plans: readonly LayerPlan[]): { x: number; y: number; z: number } {
  for (const p of plans) {
    for (const op of p.ops) {
      if (op.op === 'travel' || op.op === 'extrude') return { x: Math.round(op.x), y: Math.round(op.y), z: plans[0]!.z };
    }
  }
  return { x: 0, y: 0, z: plans[0]?.z ?? 0 };
}

/** Seconds per layer of the plan (start and end G-code not included). */
export function estimateLayerTimes(plans: readonly LayerPlan[], settings: SliceSettings): number[] {
  let opCount = 0;
  for (const p of plans) opCount += p.ops.length;
  const moves = new MoveBuffer(opCount + plans.length + 16);
  const emitter = new LayerEmitter({
    settings,
    rules: flavorRules(settings.gcodeFlavor),
    modelNames: [],
    moves,
    text: false,
    start: firstPosition(plans),
  });
  const starts: number[] = [];
  plans.forEach((plan, i) => {
    starts.push(moves.length);
    emitter.emitLayer(plan, i);
  });
  const sim = simulate(moves, limitsFromSettings(settings), { consume: true });
  return sumByGroup(sim.moveTimes, starts, moves.length);
}
