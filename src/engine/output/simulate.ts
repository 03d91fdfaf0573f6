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

export interface SimulateOptions {
  /**
   * The simulation may overwrite the buffer's columns with its own working arrays (the buffer is
   * garbage afterwards). Halves the memory of a big print's estimate: each move's columns are read
   * once, in the first pass, before its working values are written in their place.
   */
  consume?: boolean;
}

/**
 * Moves shorter than this (mm) go nowhere and take no time. G-code writes positions to 0.001 mm and E
 * to 0.00001 mm, so no real move is this short; a subnormal one (a retraction of 1e-320 mm) made
 * 1 / length Infinity, and the whole estimate NaN.
 */
const MIN_MOVE_MM = 1e-9;

export function simulate(input: MoveBuffer | readonly MoveInput[], limits: MachineLimits, opts: SimulateOptions = {}): SimResult {
  const moves = input instanceof MoveBuffer ? input : MoveBuffer.from(input);
  const n = moves.length;
  const reuse = opts.consume === true || !(input instanceof MoveBuffer);
  const dist = reuse ? moves.dx : new Float64Array(n);
  const nominal = reuse ? moves.dy : new Float64Array(n);
  const accel = reuse ? moves.dz : new Float64Array(n);
  const entry = reuse ? moves.de : new Float64Array(n); // first the highest allowed entry speed, then the planned one
  const useDeviation = limits.junctionDeviation > 0;
  const deviation = limits.junctionDeviation;
  const [fX, fY, fZ, fE] = limits.maxFeedrate;
  const [aX, aY, aZ, aE] = limits.maxAccel;
  const jerk = Float64Array.from(limits.maxJerk);
  const { printAccel, travelAccel, retractAccel } = limits;
  const mdx = moves.dx, mdy = moves.dy, mdz = moves.dz, mde = moves.de, mfeed = moves.feed;

  const axisV = new Float64Array(4);
  const prevAxisV = new Float64Array(4);
  // direction for junction deviation: XYZ for moves that go somewhere, E for extruder-only moves
  let px = 0, py = 0, pz = 0, pe = 0;
  let havePrev = false;
  let prevNominal = 0;
  let prevRest = 0;
  let lastRest = 0;

  for (let i = 0; i < n; i++) {
    const dx = mdx[i]!, dy = mdy[i]!, dz = mdz[i]!, de = mde[i]!;
    const feed = mfeed[i]!;
    const xyz = Math.sqrt(dx * dx + dy * dy + dz * dz);
    const len = xyz > 0 ? xyz : Math.abs(de);
    if (!(len >= MIN_MOVE_MM) || !(feed > 0)) {
      dist[i] = 0; // goes nowhere (or has no speed): takes no time
      continue;
    }
    const inv = 1 / len;
    const cx = Math.abs(dx) * inv, cy = Math.abs(dy) * inv, cz = Math.abs(dz) * inv, ce = Math.abs(de) * inv;

    // acceleration by kind of move: extruder-only, printing (XY with extrusion), or travel;
    // speed and acceleration then capped so that no axis exceeds its own limit
    let a = xyz === 0 ? retractAccel : de > 0 && (dx !== 0 || dy !== 0) ? printAccel : travelAccel;
    let v = feed;
    if (v * cx > fX) v = fX / cx;
    if (v * cy > fY) v = fY / cy;
    if (v * cz > fZ) v = fZ / cz;
    if (v * ce > fE) v = fE / ce;
    if (a * cx > aX) a = aX / cx;
    if (a * cy > aY) a = aY / cy;
    if (a * cz > aZ) a = aZ / cz;
    if (a * ce > aE) a = aE / ce;
    const vi = v * inv;
    axisV[0] = dx * vi;
    axisV[1] = dy * vi;
    axisV[2] = dz * vi;
    axisV[3] = de * vi;

    let maxEntry: number;
    let rest = 0;
    if (useDeviation) {
      let ux = 0, uy = 0, uz = 0, ue = 0;
      if (xyz > 0) {
        ux = dx * inv;
        uy = dy * inv;
        uz = dz * inv;
      } else ue = de > 0 ? 1 : -1;
      maxEntry = havePrev ? deviationJunctionSpeed(px * ux + py * uy + pz * uz + pe * ue, a, deviation, prevNominal, v) : 0;
      px = ux;
      py = uy;
      pz = uz;
      pe = ue;
    } else {
      rest = restJerkSpeed(v, axisV, jerk);
      maxEntry = havePrev ? jerkJunctionSpeed(prevNominal, prevAxisV, prevRest, v, axisV, rest, jerk) : rest;
    }

    dist[i] = len;
    nominal[i] = v;
    accel[i] = a;
    entry[i] = maxEntry < v ? maxEntry : v;
    havePrev = true;
    prevNominal = v;
    prevRest = rest;
    lastRest = rest;
    prevAxisV[0] = axisV[0]!;
    prevAxisV[1] = axisV[1]!;
    prevAxisV[2] = axisV[2]!;
    prevAxisV[3] = axisV[3]!;
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

  // the feed column is no longer read: it takes the times (every entry written, zeros included)
  const moveTimes = reuse ? moves.feed.subarray(0, n) : new Float64Array(n);
  let total = 0;
  let exit = lastRest;
  for (let i = n - 1; i >= 0; i--) {
    const len = dist[i]!;
    if (len === 0) {
      moveTimes[i] = 0;
      continue;
    }
    const t = trapezoidTime(len, entry[i]!, nominal[i]!, Math.min(exit, nominal[i]!), accel[i]!);
    moveTimes[i] = t;
    total += t;
    exit = entry[i]!;
  }
  return { totalS: total, moveTimes };
}
