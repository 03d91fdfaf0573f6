// `--modifier BOX:x0,y0,z0,x1,y1,z1:factor[:priority]`: a box modifier. The corners are millimetres
// from the placed model's lowest corner (its left-front-bottom), so `BOX:0,0,0,10,20,20:1` is the left
// half of a 20 mm cube wherever the model lands on the bed.
import { UsageError } from './errors.js';
import { MAX_PRIORITY } from '../service/workspace/read-workspace.js';

/** Corners further than this from the model (mm) are no box on any printer (and overflow a file's floats). */
const MAX_OFFSET_MM = 100_000;

export interface BoxModifierArg {
  min: [number, number, number];
  max: [number, number, number];
  factor: number;
  priority?: number;
}

export function parseModifierArg(text: string): BoxModifierArg {
  const parts = text.split(':');
  const usage = `--modifier ${text}: expected BOX:x0,y0,z0,x1,y1,z1:factor[:priority]`;
  if (parts.length < 3 || parts.length > 4 || parts[0]!.toUpperCase() !== 'BOX') throw new UsageError(usage, 'workspace');
  const c = parts[1]!.split(',').map(Number);
  if (c.length !== 6 || !c.every(Number.isFinite)) throw new UsageError(`${usage} (six numbers for the two corners)`, 'workspace');
  if (c.some((v) => Math.abs(v) > MAX_OFFSET_MM)) throw new UsageError(`--modifier ${text}: corners must be within ${MAX_OFFSET_MM} mm of the model`, 'workspace');
  const min: [number, number, number] = [Math.min(c[0]!, c[3]!), Math.min(c[1]!, c[4]!), Math.min(c[2]!, c[5]!)];
  const max: [number, number, number] = [Math.max(c[0]!, c[3]!), Math.max(c[1]!, c[4]!), Math.max(c[2]!, c[5]!)];
  if (min.some((v, a) => v === max[a])) throw new UsageError(`--modifier ${text}: the box has no volume`, 'workspace');
  const factor = Number(parts[2]);
  if (!Number.isFinite(factor) || factor < 0 || factor > 1) {
    throw new UsageError(`--modifier ${text}: factor must be from 0 (no infill) to 1 (solid)`, 'workspace');
  }
  const out: BoxModifierArg = { min, max, factor };
  if (parts[3] !== undefined) {
    const priority = Number(parts[3]);
    if (!Number.isInteger(priority) || priority < 1 || priority > MAX_PRIORITY) {
      throw new UsageError(`--modifier ${text}: priority must be a whole number from 1 to ${MAX_PRIORITY}`, 'workspace');
    }
    out.priority = priority;
  }
  return out;
}
