// Machine limits the print-time simulation obeys, in the firmware's units (mm/s, mm/s²).
import type { SliceSettings } from '../settings.js';

/** Per-axis values in the order X, Y, Z, E. */
export type AxisValues = readonly [number, number, number, number];

export interface MachineLimits {
  /** highest speed each axis may reach, mm/s */
  maxFeedrate: AxisValues;
  /** highest acceleration each axis may see, mm/s² */
  maxAccel: AxisValues;
  /** classic jerk: speed change an axis may take without accelerating, mm/s */
  maxJerk: AxisValues;
  /** acceleration of printing moves (XY with extrusion), mm/s² */
  printAccel: number;
  /** acceleration of moves without extrusion, mm/s² */
  travelAccel: number;
  /** acceleration of extruder-only moves (retract, unretract), mm/s² */
  retractAccel: number;
  /** junction deviation in mm; 0 selects classic jerk at junctions */
  junctionDeviation: number;
}

export function limitsFromSettings(s: SliceSettings): MachineLimits {
  return {
    maxFeedrate: [s.maxFeedrateX, s.maxFeedrateY, s.maxFeedrateZ, s.maxFeedrateE],
    maxAccel: [s.maxAccelX, s.maxAccelY, s.maxAccelZ, s.maxAccelE],
    maxJerk: [s.maxJerkX, s.maxJerkY, s.maxJerkZ, s.maxJerkE],
    printAccel: s.printAcceleration,
    travelAccel: s.travelAcceleration,
    retractAccel: s.retractAcceleration,
    junctionDeviation: s.junctionDeviation,
  };
}
