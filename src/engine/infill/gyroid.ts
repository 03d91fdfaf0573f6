// Gyroid: the cross-section at height z of the surface sin x·cos y + sin y·cos z + sin z·cos x = 0
// (coordinates scaled by 2π / period), traced analytically as long wavy polylines.
//
// With z fixed the equation reads A·cos u + B·sin u = C for one coordinate u, whose coefficients
// depend only on the other coordinate t; writing A·cos u + B·sin u = R·sin(u + φ) gives two
// solution branches u = asin(C/R) − φ and u = π − asin(C/R) − φ, repeating every 2π in u. Solving
// for y along x always has a solution when |sin z| ≤ 1/√2, solving for x along y when
// |cos z| ≤ 1/√2; one of the two always holds, so every layer is traced without gaps.
import type { Path, Paths } from '../types.js';
import type { Box, InfillParams } from './types.js';
import { clipPolylines } from './polyclip.js';
import { boundsOf } from './raster.js';

const TAU = 2 * Math.PI;

/**
 * Curve length per unit area of the cross-section, times the period, averaged over z (measured
 * with gyroidCurves on 8 × 8 periods at 200 heights, and checked against marching squares). A
 * period P then deposits lineWidth · GYROID_LENGTH_FACTOR / P of the area on average. Single
 * layers differ, as the surface does: from −6 % (z a multiple of P/4) to +23 % at the levels
 * where the section passes through saddle points (z = P/8 + k·P/4); 80 % of layers lie within
 * −6 %…+10 %.
 */
export const GYROID_LENGTH_FACTOR = 2.46;

/**
 * Largest distance (µm) between the printed chords and the true curve. At 20 % and 0.4 mm lines,
 * 25 µm gives segments 0.45 mm long on average (3DBenchy, measured in the G-code: CuraEngine's
 * gyroid 0.35 mm, PrusaSlicer's 0.65 mm); 10 µm gave 0.29 mm and a 230 MB G-code for the bunny.
 */
export const GYROID_TOLERANCE = 25;
const MAX_DEPTH = 6;

/** Period (µm) whose cross-sections deposit `density` % of the area with beads `lineWidth` wide. */
export function gyroidPeriod(lineWidth: number, density: number): number {
  return (lineWidth * GYROID_LENGTH_FACTOR * 100) / density;
}

/**
 * The cross-section at height z as unclipped polylines covering `box`. `samplesPerPeriod` sets the
 * base sampling step along the curves; each step is halved until its chord lies within a quarter
 * of GYROID_TOLERANCE of the curve, then Douglas–Peucker thins the points to GYROID_TOLERANCE.
 */
export function gyroidCurves(box: Box, period: number, z: number, samplesPerPeriod = 12): Paths {
  const scale = TAU / period;
  const zt = z * scale;
  const cz = Math.cos(zt);
  const sz = Math.sin(zt);
  const alongX = Math.abs(sz) <= Math.SQRT1_2;
  const step = TAU / samplesPerPeriod;
  const [tMin, tMax] = alongX ? [box.minX, box.maxX] : [box.minY, box.maxY];
  const [uLo, uHi] = alongX ? [box.minY * scale, box.maxY * scale] : [box.minX * scale, box.maxX * scale];
  const t0 = tMin * scale - step;
  const n = Math.ceil((tMax * scale + step - t0) / step);

  // along x: sin x·cos y + cos z·sin y = −sin z·cos x; along y: sin z·cos x + cos y·sin x = −cos z·sin y
  const solve = (t: number, branch: number): number => {
    const A = alongX ? Math.sin(t) : sz;
    const B = alongX ? cz : Math.cos(t);
    const C = alongX ? -sz * Math.cos(t) : -cz * Math.sin(t);
    const R = Math.hypot(A, B);
    const s = Math.asin(Math.max(-1, Math.min(1, C / R)));
    return (branch === 0 ? s : Math.PI - s) - Math.atan2(A, B);
  };
  // the nearest 2π-equivalent of u to `ref`, so a branch stays continuous
  const unwrap = (u: number, ref: number) => u + TAU * Math.round((ref - u) / TAU);

  // trace to a quarter of the tolerance, then drop the points the tolerance does not need
  // (fewer, longer segments: the G-code of a big gyroid-filled model grows with the point count)
  const tol = (GYROID_TOLERANCE * TAU) / period;
  const traceTol = tol / 4;
  const out: Paths = [];
  for (let branch = 0; branch < 2; branch++) {
    const ts: number[] = [t0];
    const us: number[] = [solve(t0, branch)];
    // appends points between (ta, ua) and (tb, ub) until every chord lies within tol of the curve
    const refine = (ta: number, ua: number, tb: number, ub: number, depth: number) => {
      const tm = (ta + tb) / 2;
      const um = unwrap(solve(tm, branch), (ua + ub) / 2);
      const dt = tb - ta;
      const du = ub - ua;
      const dev = Math.abs((um - ua) * dt - (tm - ta) * du) / Math.hypot(dt, du);
      if (dev <= traceTol || depth >= MAX_DEPTH) return;
      refine(ta, ua, tm, um, depth + 1);
      ts.push(tm);
      us.push(um);
      refine(tm, um, tb, ub, depth + 1);
    };
    for (let i = 1; i <= n; i++) {
      const t = t0 + i * step;
      const ta = ts[ts.length - 1];
      const ua = us[us.length - 1];
      const u = unwrap(solve(t, branch), ua);
      refine(ta, ua, t, u, 0);
      ts.push(t);
      us.push(u);
    }
    const keep = douglasPeucker(ts, us, tol);
    let uMin = Infinity;
    let uMax = -Infinity;
    for (const u of us) {
      if (u < uMin) uMin = u;
      if (u > uMax) uMax = u;
    }
    const k0 = Math.ceil((uLo - uMax) / TAU);
    const k1 = Math.floor((uHi - uMin) / TAU);
    for (let k = k0; k <= k1; k++) {
      const path: Path = [];
      const du = TAU * k;
      for (const i of keep) {
        const t = Math.round(ts[i] / scale);
        const u = Math.round((us[i] + du) / scale);
        if (alongX) path.push(t, u);
        else path.push(u, t);
      }
      out.push(path);
    }
  }
  return out;
}

/** Indices of the points Douglas–Peucker keeps so the polyline stays within `tol` of all of them. */
function douglasPeucker(xs: number[], ys: number[], tol: number): number[] {
  const n = xs.length;
  const keep = new Uint8Array(n);
  keep[0] = 1;
  keep[n - 1] = 1;
  const stack: number[] = [0, n - 1];
  while (stack.length > 0) {
    const b = stack.pop()!;
    const a = stack.pop()!;
    const dx = xs[b] - xs[a];
    const dy = ys[b] - ys[a];
    const len = Math.hypot(dx, dy) || 1;
    let worst = -1;
    let far = tol;
    for (let i = a + 1; i < b; i++) {
      const d = Math.abs((xs[i] - xs[a]) * dy - (ys[i] - ys[a]) * dx) / len;
      if (d > far) {
        far = d;
        worst = i;
      }
    }
    if (worst >= 0) {
      keep[worst] = 1;
      stack.push(a, worst, worst, b);
    }
  }
  const out: number[] = [];
  for (let i = 0; i < n; i++) if (keep[i]) out.push(i);
  return out;
}

export function gyroidPattern(area: Paths, p: InfillParams): Paths {
  const box = boundsOf(area);
  if (!box) return [];
  const curves = gyroidCurves(box, gyroidPeriod(p.lineWidth, p.density), p.z);
  return clipPolylines(curves, area, p.lineWidth / 2);
}
