// Point reduction for a closed cross-section loop: rounds to whole micrometres, drops repeated
// points, then replaces runs of points by one segment when every point of the run lies within
// `tolerance` of it. Runs are grown from an anchor with a "sleeve": each point farther than the
// tolerance from the anchor narrows the cone of directions a replacing segment may take, so every
// dropped point is checked against the final segment (the error never accumulates along a gentle
// curve) and the work stays linear in the number of points. Corners (sharp turns) are always kept,
// so a run never cuts one off even when it lies within the tolerance.

/** A turn sharper than this (cosine of 30°) makes a point a corner. */
const CORNER_COS = Math.cos(Math.PI / 6);

/** Rounds to integers and removes consecutive duplicates (also last = first). */
function roundUnique(src: number[]): number[] {
  const out: number[] = [];
  let px = NaN;
  let py = NaN;
  for (let i = 0; i < src.length; i += 2) {
    const x = Math.round(src[i]);
    const y = Math.round(src[i + 1]);
    if (x === px && y === py) continue;
    out.push(x, y);
    px = x;
    py = y;
  }
  while (out.length >= 4 && out[0] === out[out.length - 2] && out[1] === out[out.length - 1]) out.length -= 2;
  return out;
}

/**
 * From anchor a, the farthest index b (≤ a + n − 1 … the loop wraps, index n is point 0 again) such
 * that the segment a → b passes within `tol` of every point between them.
 */
function farthestReach(p: number[], n: number, a: number, end: number, tol: number, corner: Uint8Array): number {
  const ax = p[2 * a];
  const ay = p[2 * a + 1];
  // the cone of allowed directions, bounded by right (rx, ry) and left (lx, ly); open until a point constrains it
  let bounded = false;
  let rx = 0, ry = 0, lx = 0, ly = 0;
  let maxDist = 0;
  let best = a + 1;
  for (let j = a + 1; j <= end; j++) {
    const jj = j % n;
    const dx = p[2 * jj] - ax;
    const dy = p[2 * jj + 1] - ay;
    const d = Math.sqrt(dx * dx + dy * dy);
    if (j > a + 1) {
      // can a → j replace a+1 … j−1? its direction must lie in the cone, and it must reach as far
      // as the points it replaces (else the farthest of them overshoots its end)
      const inCone = !bounded || (rx * dy - ry * dx >= 0 && dx * ly - dy * lx >= 0);
      if (!inCone || d < maxDist - tol) break;
      best = j;
    }
    if (corner[jj]) break; // never run past a corner
    if (d > tol) {
      // directions whose line passes within tol of this point, heading forwards: ± asin(tol / d)
      const s = tol / d;
      const c = Math.sqrt(1 - s * s);
      const ux = dx / d;
      const uy = dy / d;
      const nrx = ux * c + uy * s; // rotated clockwise by the half-angle
      const nry = uy * c - ux * s;
      const nlx = ux * c - uy * s; // rotated counter-clockwise
      const nly = uy * c + ux * s;
      if (!bounded) {
        rx = nrx, ry = nry, lx = nlx, ly = nly;
        bounded = true;
      } else {
        if (rx * nry - ry * nrx > 0) (rx = nrx), (ry = nry); // the new right bound is further left
        if (nlx * ly - nly * lx > 0) (lx = nlx), (ly = nly); // the new left bound is further right
        if (rx * ly - ry * lx < 0) {
          // empty cone: no later point can be reached any more
          if (j > a + 1) break;
        }
      }
    }
    if (d > maxDist) maxDist = d;
  }
  return best;
}

/** Marks the points where the outline turns sharply; returns the index of one of them, or 0. */
function markCorners(p: number[], n: number, corner: Uint8Array): number {
  let any = -1;
  for (let i = 0; i < n; i++) {
    const h = i === 0 ? n - 1 : i - 1;
    const j = i === n - 1 ? 0 : i + 1;
    const ax = p[2 * i] - p[2 * h];
    const ay = p[2 * i + 1] - p[2 * h + 1];
    const bx = p[2 * j] - p[2 * i];
    const by = p[2 * j + 1] - p[2 * i + 1];
    const isCorner = ax * bx + ay * by < CORNER_COS * Math.sqrt((ax * ax + ay * ay) * (bx * bx + by * by));
    corner[i] = +isCorner;
    if (isCorner && any < 0) any = i;
  }
  return Math.max(any, 0);
}

/** Rotates a flat point list so that point `k` comes first. */
function rotate(p: number[], k: number): number[] {
  return k === 0 ? p : p.slice(2 * k).concat(p.slice(0, 2 * k));
}

/** The simplified loop (integer µm), or an empty array when fewer than 3 points remain. */
export function simplifyLoop(src: number[], tolerance: number): number[] {
  let p = roundUnique(src);
  const n = p.length >> 1;
  if (n < 3) return [];
  let corner = new Uint8Array(n);
  const first = markCorners(p, n, corner);
  if (first > 0) {
    // start at a corner, so the loop's fixed first point is one that must stay anyway
    p = rotate(p, first);
    corner = Uint8Array.from({ length: n }, (_v, i) => corner[(i + first) % n]);
  }
  const out: number[] = [p[0], p[1]];
  let a = 0; // anchor: the last kept point
  while (a < n) {
    const b = farthestReach(p, n, a, n, tolerance, corner);
    if (b >= n) break; // back at the first point
    out.push(p[2 * b], p[2 * b + 1]);
    a = b;
  }
  return out.length >= 6 ? out : [];
}
