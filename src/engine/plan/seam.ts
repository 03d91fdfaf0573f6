// Where a closed loop starts and ends (its seam).
import type { Path } from '../types.js';
import type { SeamPosition } from '../settings.js';
import { hyp } from './length.js';

/** A deterministic hash of a few integers to [0, 1) (mulberry32-style mixing). */
export function hashUnit(...values: number[]): number {
  let t = 0x9e3779b9;
  for (const v of values) {
    t = Math.imul(t ^ (v | 0), 0x85ebca6b) >>> 0;
    t = Math.imul(t ^ (t >>> 13), 0xc2b2ae35) >>> 0;
  }
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

export interface SeamContext {
  mode: SeamPosition;
  /** the fixed point behind the part that `aligned` seams gather at, µm */
  target: { x: number; y: number };
  /** for `random`: the layer index, so the same loop on the same layer always gets the same seam */
  seed: number;
  /** seams already chosen (modes that do not depend on the nozzle position), by loop */
  cache?: Map<Path, number>;
}

// How much a corner may pull an aligned seam away from the target: a sharp concave corner
// (where a seam hides best) wins against a vertex up to this much closer to the target.
const CONCAVE_PULL = 2000; // µm
const CONVEX_PULL = 800; // µm
const MIN_CORNER = Math.PI / 6; // turns gentler than 30° are not corners

/** Signed turn angle at vertex i (positive = left turn), radians. */
function turnAt(p: Path, i: number, n: number): number {
  const a = (i - 1 + n) % n, b = (i + 1) % n;
  const ux = p[2 * i] - p[2 * a], uy = p[2 * i + 1] - p[2 * a + 1];
  const vx = p[2 * b] - p[2 * i], vy = p[2 * b + 1] - p[2 * i + 1];
  return Math.atan2(ux * vy - uy * vx, ux * vx + uy * vy);
}

function alignedSeam(p: Path, n: number, target: { x: number; y: number }): number {
  let best = 0, bestScore = Infinity;
  for (let i = 0; i < n; i++) {
    const d = hyp(p[2 * i] - target.x, p[2 * i + 1] - target.y);
    // the corner bonus is bounded: skip the angle unless the vertex could still win
    if (d - CONCAVE_PULL >= bestScore - 1e-6) continue;
    let score = d;
    const turn = turnAt(p, i, n);
    const sharp = Math.min(1, (Math.abs(turn) - MIN_CORNER) / (Math.PI / 3));
    // areas lie left of their paths (outer loops CCW, holes CW): a right turn is a concave corner
    if (sharp > 0) score -= sharp * (turn < 0 ? CONCAVE_PULL : CONVEX_PULL);
    if (score < bestScore - 1e-6) {
      bestScore = score;
      best = i;
    }
  }
  return best;
}

/** Index of the vertex a closed loop starts at, given the current nozzle position. */
export function chooseSeam(p: Path, ctx: SeamContext, x: number, y: number): number {
  const n = p.length >> 1;
  if (n <= 1) return 0;
  if (ctx.mode === 'shortest') return nearestVertex(p, n, x, y);
  let seam = ctx.cache?.get(p);
  if (seam === undefined) {
    seam = fixedSeam(p, n, ctx);
    ctx.cache?.set(p, seam);
  }
  return seam;
}

function nearestVertex(p: Path, n: number, x: number, y: number): number {
  let best = 0, bd = Infinity;
  for (let i = 0; i < n; i++) {
    const d = (p[2 * i] - x) ** 2 + (p[2 * i + 1] - y) ** 2;
    if (d < bd) {
      bd = d;
      best = i;
    }
  }
  return best;
}

/** Seams that depend on the loop alone. */
function fixedSeam(p: Path, n: number, ctx: SeamContext): number {
  switch (ctx.mode) {
    case 'aligned':
      return alignedSeam(p, n, ctx.target);
    case 'rear': {
      let best = 0;
      for (let i = 1; i < n; i++) {
        const dy = p[2 * i + 1] - p[2 * best + 1];
        if (dy > 0 || (dy === 0 && Math.abs(p[2 * i] - ctx.target.x) < Math.abs(p[2 * best] - ctx.target.x))) best = i;
      }
      return best;
    }
    default:
      return Math.min(n - 1, Math.floor(hashUnit(ctx.seed, p[0], p[1], n) * n));
  }
}
