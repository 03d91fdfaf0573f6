// A ceiling on the memory a slice's toolpath takes, so that a job far too fine for the machine (a
// whole model at 0.05 mm with 95 % gyroid: over 4 GB of G-code) fails within seconds of passing
// it, not after minutes and 15 GB. Counted: the packed plans (28 bytes an operation, held from the
// layers until the file is written) and the machine moves the writer makes from them (40 bytes an
// operation, held while the print time is simulated): together the bulk of a large slice's memory.
import { SliceError } from '../types.js';
import type { EncodedPlans } from './codec.js';

/** bytes of one machine move in the writer's MoveBuffer (five float64 columns) */
export const MOVE_BYTES = 40;

/** The bytes a chunk of packed plans holds. */
export function packedBytes(e: EncodedPlans): number {
  return e.ints.byteLength + e.floats.byteLength + e.layers.byteLength;
}

/** The error for a toolpath that needs more than `limitBytes`: it says what to change. */
export function toolpathTooLarge(limitBytes: number, stage: 'layers' | 'output'): SliceError {
  const mib = Math.max(1, Math.round(limitBytes / 2 ** 20));
  const when = stage === 'layers' ? 'its plans alone passed that before the last layer' : 'its plans and moves together';
  return new SliceError(
    `the toolpath needs more memory than one task may take here (${mib} MiB; ${when}): ` +
      'choose a larger layerHeight, a lower infillDensity, or fewer or smaller models',
    'BAD_SETTINGS',
  );
}

/** Adds up packed plans as they are made and throws toolpathTooLarge once they pass the limit. */
export class ToolpathBudget {
  private used = 0;

  constructor(readonly limitBytes: number | undefined) {}

  /** counts `bytes` more; throws when the total passes the limit */
  add(bytes: number): void {
    this.used += bytes;
    if (this.limitBytes !== undefined && this.used > this.limitBytes) throw toolpathTooLarge(this.limitBytes, 'layers');
  }

  /** counts a packed chunk (see add) */
  addPacked(e: EncodedPlans): void {
    this.add(packedBytes(e));
  }

  /**
   * Counts the writer's moves for `opCount` operations; throws when with the plans they would pass
   * the limit. Gives the total.
   */
  addOutput(opCount: number): number {
    this.used += opCount * MOVE_BYTES;
    if (this.limitBytes !== undefined && this.used > this.limitBytes) throw toolpathTooLarge(this.limitBytes, 'output');
    return this.used;
  }
}
