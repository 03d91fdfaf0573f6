// What differs between the G-code dialects we write: the flavour name in the header, how the fan
// is set, how machine limits are written, and the Klipper / Griffin extras.
import type { GcodeFlavor } from '../settings.js';
import type { MachineLimits } from './limits.js';
import { mm3 } from './number-format.js';

export interface FlavorRules {
  /** value written after `;FLAVOR:` */
  name: string;
  /** Ultimaker Griffin: the `;START_OF_HEADER … ;END_OF_HEADER` block */
  griffinHeader: boolean;
  /** Klipper: EXCLUDE_OBJECT_* and SET_PRINT_STATS_INFO */
  klipper: boolean;
  /** the line that sets the part-cooling fan to `percent` (0–100) */
  fanLine(percent: number): string;
  /** lines that hand the machine limits to the firmware (settings.emitMachineLimits) */
  limitLines(l: MachineLimits): string[];
  /**
   * Klipper keeps one acceleration for every move, so with the limits written the print and travel
   * accelerations are switched by this line where the moves change kind. Marlin and RepRapFirmware
   * are given both (M204 P, T) and switch themselves.
   */
  accelLine?: (accel: number) => string;
}

const fan255 = (percent: number): string => {
  const s = Math.max(0, Math.min(255, Math.round((percent * 255) / 100)));
  return s === 0 ? 'M107' : `M106 S${s}`;
};

const marlinLimits = (l: MachineLimits): string[] => {
  const [fx, fy, fz, fe] = l.maxFeedrate;
  const [ax, ay, az, ae] = l.maxAccel;
  const [jx, jy, jz, je] = l.maxJerk;
  const lines = [
    `M201 X${mm3(ax)} Y${mm3(ay)} Z${mm3(az)} E${mm3(ae)} ;max acceleration`,
    `M203 X${mm3(fx)} Y${mm3(fy)} Z${mm3(fz)} E${mm3(fe)} ;max feedrate`,
    `M204 P${mm3(l.printAccel)} R${mm3(l.retractAccel)} T${mm3(l.travelAccel)} ;acceleration`,
  ];
  lines.push(
    l.junctionDeviation > 0
      ? `M205 J${mm3(l.junctionDeviation)} ;junction deviation`
      : `M205 X${mm3(jx)} Y${mm3(jy)} Z${mm3(jz)} E${mm3(je)} ;jerk`,
  );
  return lines;
};

const MARLIN: FlavorRules = {
  name: 'Marlin',
  griffinHeader: false,
  klipper: false,
  fanLine: fan255,
  limitLines: marlinLimits,
};

// RepRapFirmware reads an S value of 1 or less as a fraction, so the fan is written as a fraction;
// its M203 and M566 (jerk) take mm/min.
const REPRAP: FlavorRules = {
  name: 'RepRap',
  griffinHeader: false,
  klipper: false,
  fanLine: (percent) => {
    const p = Math.max(0, Math.min(100, Math.round(percent)));
    return p === 0 ? 'M107' : `M106 S${p / 100}`;
  },
  limitLines: (l) => {
    const [fx, fy, fz, fe] = l.maxFeedrate;
    const [ax, ay, az, ae] = l.maxAccel;
    const [jx, jy, jz, je] = l.maxJerk;
    return [
      `M201 X${mm3(ax)} Y${mm3(ay)} Z${mm3(az)} E${mm3(ae)} ;max acceleration`,
      `M203 X${mm3(fx * 60)} Y${mm3(fy * 60)} Z${mm3(fz * 60)} E${mm3(fe * 60)} ;max feedrate, mm/min`,
      `M204 P${mm3(l.printAccel)} T${mm3(l.travelAccel)} ;acceleration`,
      `M566 X${mm3(jx * 60)} Y${mm3(jy * 60)} Z${mm3(jz * 60)} E${mm3(je * 60)} ;jerk, mm/min`,
    ];
  },
};

// Klipper has no per-axis limits in G-code; one acceleration (switched between print and travel
// moves) and the velocity cap are what it takes.
const KLIPPER: FlavorRules = {
  name: 'Klipper',
  griffinHeader: false,
  klipper: true,
  fanLine: fan255,
  limitLines: (l) => [`SET_VELOCITY_LIMIT VELOCITY=${mm3(Math.max(l.maxFeedrate[0], l.maxFeedrate[1]))} ACCEL=${mm3(l.printAccel)}`],
  accelLine: (accel) => `M204 S${mm3(accel)}`,
};

const GRIFFIN: FlavorRules = {
  name: 'Griffin',
  griffinHeader: true,
  klipper: false,
  fanLine: fan255,
  limitLines: marlinLimits,
};

export function flavorRules(flavor: GcodeFlavor): FlavorRules {
  switch (flavor) {
    case 'reprap':
      return REPRAP;
    case 'klipper':
      return KLIPPER;
    case 'griffin':
      return GRIFFIN;
    default:
      return MARLIN;
  }
}

/** Klipper object names: one token without spaces or brackets, unique per model. */
export function klipperObjectNames(modelNames: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return modelNames.map((raw, i) => {
    let name = raw.replace(/[^A-Za-z0-9_.-]+/g, '_') || `model_${i}`;
    const count = seen.get(name) ?? 0;
    seen.set(name, count + 1);
    if (count > 0) name = `${name}_${i}`;
    return name;
  });
}
