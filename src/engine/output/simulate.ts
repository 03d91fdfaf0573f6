// Print-time simulation of a motion planner with full look-ahead, as Marlin-family firmware (and
// PrusaSlicer's estimator) plan moves: per move a nominal speed and acceleration within the axis
// limits, a junction speed with the previous move (classic jerk or junction deviation), a backward
// and a forward pass so that every entry speed is reachable, then a trapezoid per move.
import type { MachineLimits } from './limits.js';
import { MoveBuffer, type MoveInput } from './move-buffer.js';
import { deviationJunctionSpeed, jerkJunctionSpeed, restJerkSpeed } from './junction.js';
import { trapezoidTime } from './trapezoid.js';

export interface SimResult {
  /** total time, seconds */
  totalS: number;
  /** time of each move, seconds (0 for moves that go nowhere) */
  moveTimes: Float64Array;
}

export function simulate(input: MoveBuffer | readonly MoveInput[], limits: MachineLimits): SimResult {
  const moves = input instanceof MoveBuffer ? input : MoveBuffer.from(input);
  const n = moves.length;
  const dist = new Float64Array(n);
  const nominal = new Float64Array(n);
  const accel = new Float64Array(n);
  const entry = new Float64Array(n); // first the highest allowed entry speed, then the planned one
  const useDeviation = limits.junctionDeviation > 0;
  const { maxFeedrate, maxAccel, maxJerk } = limits;

  const unit = [0, 0, 0, 0];
  const axisV = [0, 0, 0, 0];
  const dir = [0, 0, 0, 0];
  const prevDir = [0, 0, 0, 0];
  const prevAxisV = [0, 0, 0, 0];
  let havePrev = false;
  let prevNominal = 0;
  let prevRest = 0;
  let lastRest = 0;

  for (let i = 0; i < n; i++) {
    const dx = moves.dx[i]!, dy = moves.dy[i]!, dz = moves.dz[i]!, de = moves.de[i]!;
    const feed = moves.feed[i]!;
    const xyz = Math.sqrt(dx * dx + dy * dy + dz * dz);
    const len = xyz > 0 ? xyz : Math.abs(de);
    if (len === 0 || !(feed > 0)) continue; // goes nowhere (or has no speed): takes no time
    const inv = 1 / len;
    unit[0] = dx * inv;
    unit[1] = dy * inv;
    unit[2] = dz * inv;
    unit[3] = de * inv;

    // acceleration by kind of move: extruder-only, printing (XY with extrusion), or travel
    let a = xyz === 0 ? limits.retractAccel : de > 0 && (dx !== 0 || dy !== 0) ? limits.printAccel : limits.travelAccel;
    let v = feed;
    for (let k = 0; k < 4; k++) {
      const c = Math.abs(unit[k]!);
      if (c === 0) continue;
      if (v * c > maxFeedrate[k]!) v = maxFeedrate[k]! / c;
      if (a * c > maxAccel[k]!) a = maxAccel[k]! / c;
    }
    for (let k = 0; k < 4; k++) axisV[k] = unit[k]! * v;
    // direction for junction deviation: XYZ for moves that go somewhere, E for extruder-only moves
    if (xyz > 0) {
      dir[0] = unit[0]!;
      dir[1] = unit[1]!;
      dir[2] = unit[2]!;
      dir[3] = 0;
    } else {
      dir[0] = dir[1] = dir[2] = 0;
      dir[3] = Math.sign(de);
    }

    const rest = useDeviation ? 0 : restJerkSpeed(v, axisV, maxJerk);
    let maxEntry: number;
    if (!havePrev) {
      maxEntry = rest;
    } else if (useDeviation) {
      const dot = prevDir[0]! * dir[0]! + prevDir[1]! * dir[1]! + prevDir[2]! * dir[2]! + prevDir[3]! * dir[3]!;
      maxEntry = deviationJunctionSpeed(dot, a, limits.junctionDeviation, prevNominal, v);
    } else {
      maxEntry = jerkJunctionSpeed(prevNominal, prevAxisV, prevRest, v, axisV, rest, maxJerk);
    }

    dist[i] = len;
    nominal[i] = v;
    accel[i] = a;
    entry[i] = Math.min(maxEntry, v);
    havePrev = true;
    prevNominal = v;
    prevRest = rest;
    lastRest = rest;
    for (let k = 0; k < 4; k++) {
      prevDir[k] = dir[k]!;
      prevAxisV[k] = axisV[k]!;
    }
  }

  // backward pass: each move must be able to slow down to the next move's entry speed
  let next = lastRest;
  for (let i = n - 1; i >= 0; i--) {
    const len = dist[i]!;
    if (len === 0) continue;
    const reachable = Math.sqrt(next * next + 2 * accel[i]! * len);
    if (entry[i]! > reachable) entry[i] = reachable;
    next = entry[i]!;
  }
  // forward pass: each entry speed must be reachable by accelerating through the previous move
  let reach = Infinity;
  for (let i = 0; i < n; i++) {
    const len = dist[i]!;
    if (len === 0) continue;
    if (entry[i]! > reach) entry[i] = reach;
    reach = Math.sqrt(entry[i]! * entry[i]! + 2 * accel[i]! * len);
  }

  const moveTimes = new Float64Array(n);
  let total = 0;
  let exit = lastRest;
  for (let i = n - 1; i >= 0; i--) {
    const len = dist[i]!;
    if (len === 0) continue;
    const t = trapezoidTime(len, entry[i]!, nominal[i]!, Math.min(exit, nominal[i]!), accel[i]!);
    moveTimes[i] = t;
    total += t;
    exit = entry[i]!;
  }
  return { totalS: total, moveTimes };
}
