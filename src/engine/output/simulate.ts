// Print-time simulation of a motion planner with full look-ahead, as Marlin-family firmware (and
// PrusaSlicer's estimator) plan moves: per move a nominal speed and acceleration within the axis
// limits, a junction speed with the previous move (classic jerk or junction deviation), a backward
// and a forward pass so that every entry speed is reachable, then a trapezoid per move.
import type { MachineLimits } from './limits.js';
import { MoveBuffer, type MoveInput } from './move-buffer.js';
import { deviationJunctionSpeed, jerkJunctionSpeed, restJerkSpeed } from './junction.js';
import { trapezoidTime } from './trapezoid.js';
import { drain, type Steps } from '../steps.js';

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

/** Moves a pass covers between two yields of simulateSteps (~10 ms warm; the bunny at 0.06 mm has 2.6 M). */
const MOVES_PER_STEP = 1 << 18;

export function simulate(input: MoveBuffer | readonly MoveInput[], limits: MachineLimits, opts: SimulateOptions = {}): SimResult {
  return drain(simulateSteps(input, limits, opts));
}

/**
 * The same, yielding between blocks of moves of each pass: on the main thread the estimate of a large
 * print held the event loop for up to 0.2 s in one piece. The passes' loops are plain methods that
 * carry their state from block to block; the blocks cost ~10 % of the estimate (the bunny's 772,783
 * moves, warm: 51 → 56 ms).
 */
export function* simulateSteps(input: MoveBuffer | readonly MoveInput[], limits: MachineLimits, opts: SimulateOptions = {}): Steps<SimResult> {
  const plan = new MotionPlan(input, limits, opts);
  yield* inBlocks(plan.n, 'forwards', (from, to) => plan.limitSpeeds(from, to));
  plan.next = plan.lastRest;
  yield* inBlocks(plan.n, 'backwards', (from, to) => plan.slowDownInTime(from, to));
  yield* inBlocks(plan.n, 'forwards', (from, to) => plan.speedUpInTime(from, to));
  plan.exit = plan.lastRest;
  yield* inBlocks(plan.n, 'backwards', (from, to) => plan.time(from, to));
  return { totalS: plan.total, moveTimes: plan.moveTimes };
}

/** Runs a pass over moves [0, n) a block [from, to) at a time, in the pass's order, yielding after each. */
function* inBlocks(n: number, order: 'forwards' | 'backwards', pass: (from: number, to: number) => void): Steps<void> {
  if (order === 'forwards') {
    for (let from = 0; from < n; from += MOVES_PER_STEP) {
      pass(from, Math.min(n, from + MOVES_PER_STEP));
      yield;
    }
  } else {
    for (let to = n; to > 0; to -= MOVES_PER_STEP) {
      pass(Math.max(0, to - MOVES_PER_STEP), to);
      yield;
    }
  }
}

/** The simulation's arrays and the state each pass carries from one block of moves to the next. */
class MotionPlan {
  readonly n: number;
  private readonly moves: MoveBuffer;
  private readonly dist: Float64Array;
  private readonly nominal: Float64Array;
  private readonly accel: Float64Array;
  /** first the highest allowed entry speed, then the planned one */
  private readonly entry: Float64Array;
  readonly moveTimes: Float64Array;
  private readonly limits: MachineLimits;
  private readonly jerk: Float64Array;
  private readonly axisV = new Float64Array(4);
  private readonly prevAxisV = new Float64Array(4);
  // pass 1: the previous move's direction (for junction deviation: XYZ for moves that go somewhere, E
  // for extruder-only moves), speed and the speed it could start or stop at from rest
  private px = 0;
  private py = 0;
  private pz = 0;
  private pe = 0;
  private havePrev = false;
  private prevNominal = 0;
  private prevRest = 0;
  lastRest = 0;
  /** pass 2: the entry speed of the move after the block */
  next = 0;
  /** pass 3: the speed reachable at the end of the move before the block */
  private reach = Infinity;
  /** pass 4: the exit speed of the block's last move, and the time so far */
  exit = 0;
  total = 0;

  constructor(input: MoveBuffer | readonly MoveInput[], limits: MachineLimits, opts: SimulateOptions) {
    const moves = input instanceof MoveBuffer ? input : MoveBuffer.from(input);
    const n = moves.length;
    const reuse = opts.consume === true || !(input instanceof MoveBuffer);
    this.n = n;
    this.moves = moves;
    this.limits = limits;
    this.jerk = Float64Array.from(limits.maxJerk);
    this.dist = reuse ? moves.dx : new Float64Array(n);
    this.nominal = reuse ? moves.dy : new Float64Array(n);
    this.accel = reuse ? moves.dz : new Float64Array(n);
    this.entry = reuse ? moves.de : new Float64Array(n);
    // the feed column, read in pass 1 only, takes the times (every entry written, zeros included)
    this.moveTimes = reuse ? moves.feed.subarray(0, n) : new Float64Array(n);
  }

  /** Pass 1 over [from, to): each move's length, speed, acceleration and highest entry speed. */
  limitSpeeds(from: number, to: number): void {
    const { dist, nominal, accel, entry, jerk, axisV, prevAxisV } = this;
    const limits = this.limits;
    const useDeviation = limits.junctionDeviation > 0;
    const deviation = limits.junctionDeviation;
    const [fX, fY, fZ, fE] = limits.maxFeedrate;
    const [aX, aY, aZ, aE] = limits.maxAccel;
    const { printAccel, travelAccel, retractAccel } = limits;
    const { dx: mdx, dy: mdy, dz: mdz, de: mde, feed: mfeed } = this.moves;
    let { px, py, pz, pe, havePrev, prevNominal, prevRest, lastRest } = this;

    for (let i = from; i < to; i++) {
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
    this.px = px;
    this.py = py;
    this.pz = pz;
    this.pe = pe;
    this.havePrev = havePrev;
    this.prevNominal = prevNominal;
    this.prevRest = prevRest;
    this.lastRest = lastRest;
  }

  /** Pass 2 over [from, to), backwards: each move must be able to slow down to the next move's entry speed. */
  slowDownInTime(from: number, to: number): void {
    const { dist, accel, entry } = this;
    let next = this.next;
    for (let i = to - 1; i >= from; i--) {
      const len = dist[i]!;
      if (len === 0) continue;
      const reachable = Math.sqrt(next * next + 2 * accel[i]! * len);
      if (entry[i]! > reachable) entry[i] = reachable;
      next = entry[i]!;
    }
    this.next = next;
  }

  /** Pass 3 over [from, to): each entry speed must be reachable by accelerating through the previous move. */
  speedUpInTime(from: number, to: number): void {
    const { dist, accel, entry } = this;
    let reach = this.reach;
    for (let i = from; i < to; i++) {
      const len = dist[i]!;
      if (len === 0) continue;
      if (entry[i]! > reach) entry[i] = reach;
      reach = Math.sqrt(entry[i]! * entry[i]! + 2 * accel[i]! * len);
    }
    this.reach = reach;
  }

  /** Pass 4 over [from, to), backwards: each move's trapezoid and its time. */
  time(from: number, to: number): void {
    const { dist, nominal, accel, entry, moveTimes } = this;
    let exit = this.exit;
    let total = this.total;
    for (let i = to - 1; i >= from; i--) {
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
    this.exit = exit;
    this.total = total;
  }
}
