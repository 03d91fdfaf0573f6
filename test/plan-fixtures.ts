// Hand-made layer plans for the G-code writer's tests. No tests in here.
import type { LayerPlan } from '../src/engine/plan/types.js';

/** Layer i: a travel and (unless told not to) one 20 mm outer-wall line, 1 mm further along x each layer. */
export function planLayer(i: number, extrudes = true): LayerPlan {
  const x = 100000 + i * 1000;
  return {
    index: i,
    z: 200 * (i + 1),
    height: 200,
    ops: [
      { op: 'feature', type: 'WALL-OUTER', model: 0, modelName: 'part.stl' },
      { op: 'travel', x, y: 100000, speed: 150 },
      ...(extrudes ? [{ op: 'extrude' as const, x: x + 20000, y: 100000, e: 0.66516, speed: 25 }] : []),
      { op: 'comment', text: `layer ${i} – done` },
    ],
  };
}
