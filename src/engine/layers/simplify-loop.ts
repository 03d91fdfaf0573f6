// Point reduction for a closed cross-section loop: rounds to whole micrometres, drops repeated
// points, then replaces runs of points by one segment when every point of the run lies within
// `tolerance` of it. Runs are grown from an anchor with a "sleeve": each point farther than the
// tolerance from the anchor narrows the cone of directions a replacing segment may take, so every
// dropped point is checked against the final segment (the error never accumulates along a gentle
// curve) and the work stays linear in the number of points. Corners (sharp turns) are always kept,
// so a run never cuts one off even when it lies within the tolerance. Turns are measured on the
// points before rounding: on a finely tessellated curve (segments of a few µm) whole-µm rounding
// alone bends the outline by tens of degrees at nearly every point, and keeping all of those as
// corners leaves tens of thousands of points for the wall offsets (a 20,000-segment cylinder took 16 s).

/** A turn sharper than this (cosine of 30°) makes a point a corner. */
const CORNER_COS = Math.cos(Math.PI / 6);

/**
 * A point (before rounding) closer than this (µm) to the segment between its neighbours lies on it.
 * Where a plane cuts a flat face made of several triangles, it crosses their shared edges at points
 * that lie on the face's line exactly, bar floating-point error (~1e-10 µm), and slide along it from
 * one layer to the next. Dropped, they leave the same points on every layer of a straight-walled
 * part, so its layers repeat exactly. Points of a truly bent outline are farther off.
 */
const ON_CHORD_UM = 1e-3;

/** Scratch arrays reused from loop to loop. */
export class SimplifyScratch {
  /** the rounded points */
  p = new Float64Array(1024);
  /** the same points before rounding (each the first source point that rounds to it) */
  raw = new Float64Array(1024);
  corner = new Uint8Array(512);
  ensure(points: number): void {
    if (this.corner.length >= points) return;
    let cap = this.corner.length;
    while (cap < points) cap *= 2;
    this.p = new Float64Array(cap * 2);
    this.raw = new Float64Array(cap * 2);
    this.corner = new Uint8Array(cap);
  }
}

/**
 * Rounds src[from, to) into p as integers, dropping consecutive repeats (also last = first), and
 * keeps each kept point's unrounded coordinates in raw; returns the point count.
 */
function roundUnique(src: Float64Array, from: number, to: number, p: Float64Array, raw: Float64Array): number {
  let w = 0;
  let px = NaN;
  let py = NaN;
  for (let i = from; i < to; i += 2) {
    const x = Math.round(src[i]);
    const y = Math.round(src[i + 1]);
    if (x === px && y === py) continue;
    raw[w] = src[i];
    raw[w + 1] = src[i + 1];
    p[w++] = x;
    p[w++] = y;
    px = x;
    py = y;
  }
  while (w >= 4 && p[0] === p[w - 2] && p[1] === p[w - 1]) w -= 2;
  return w >> 1;
}

/** Whether raw point i lies on the segment from raw point a to raw point b (see ON_CHORD_UM). */
function onChord(raw: Float64Array, a: number, i: number, b: number): boolean {
  const ax = raw[2 * a], ay = raw[2 * a + 1];
  const ux = raw[2 * b] - ax, uy = raw[2 * b + 1] - ay;
  const vx = raw[2 * i] - ax, vy = raw[2 * i + 1] - ay;
  const len2 = ux * ux + uy * uy;
  const along = ux * vx + uy * vy;
  if (!(along > 0 && along < len2)) return false; // beyond an end: a spike, not a point on the way
  const cross = ux * vy - uy * vx;
  return cross * cross < ON_CHORD_UM * ON_CHORD_UM * len2;
}

/**
 * Drops the points of a closed loop of n points that lie on the segment between their kept
 * neighbours (ON_CHORD_UM), compacting p and raw in place; returns the new count.
 */
function dropOnChord(p: Float64Array, raw: Float64Array, n: number): number {
  const move = (to: number, from: number) => {
    p[2 * to] = p[2 * from];
    p[2 * to + 1] = p[2 * from + 1];
    raw[2 * to] = raw[2 * from];
    raw[2 * to + 1] = raw[2 * from + 1];
  };
  let w = 0;
  for (let i = 0; i < n; i++) {
    move(w++, i);
    // the point before the one just kept may now lie between its neighbours, and the one before it…
    while (w >= 3 && onChord(raw, w - 3, w - 2, w - 1)) {
      move(w - 2, w - 1);
      w--;
    }
  }
  // around the join: the last point (between its predecessor and the first) and the first (between
  // the last and the second), until neither goes
  for (let changed = true; changed && w > 3; ) {
    changed = false;
    if (onChord(raw, w - 2, w - 1, 0)) {
      w--;
      changed = true;
    }
    if (w > 3 && onChord(raw, w - 1, 0, 1)) {
      for (let k = 1; k < w; k++) move(k - 1, k);
      w--;
      changed = true;
    }
  }
  return w;
}

/** Marks the points where the outline turns sharply; returns the index of the first, or 0. */
function markCorners(p: Float64Array, n: number, corner: Uint8Array): number {
  let first = -1;
  for (let i = 0; i < n; i++) {
    const h = i === 0 ? n - 1 : i - 1;
    const j = i === n - 1 ? 0 : i + 1;
    const ax = p[2 * i] - p[2 * h];
    const ay = p[2 * i + 1] - p[2 * h + 1];
    const bx = p[2 * j] - p[2 * i];
    const by = p[2 * j + 1] - p[2 * i + 1];
    const isCorner = ax * bx + ay * by < CORNER_COS * Math.sqrt((ax * ax + ay * ay) * (bx * bx + by * by));
    corner[i] = isCorner ? 1 : 0;
    if (isCorner && first < 0) first = i;
  }
  return first < 0 ? 0 : first;
}

/**
 * From anchor a (an index that may exceed n: indices wrap), the farthest b ≤ end such that the
 * segment a → b passes within `tol` of every point between them, not running past a corner.
 */
function farthestReach(p: Float64Array, n: number, a: number, end: number, tol: number, corner: Uint8Array): number {
  const ai = a % n;
  const ax = p[2 * ai];
  const ay = p[2 * ai + 1];
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
        if (rx * ly - ry * lx < 0 && j > a + 1) break; // empty cone: nothing further can be reached
      }
    }
    if (d > maxDist) maxDist = d;
  }
  return best;
}

/**
 * Simplifies the closed loop src[from, to) (flat x, y in µm). Returns the loop in integer µm,
 * starting at a corner when it has one, or an empty array when fewer than 3 points remain.
 */
export function simplifyLoop(src: Float64Array, from: number, to: number, tolerance: number, s: SimplifyScratch): number[] {
  s.ensure((to - from) >> 1);
  const p = s.p;
  const n = dropOnChord(p, s.raw, roundUnique(src, from, to, p, s.raw));
  if (n < 3) return [];
  // start at a corner, so the loop's fixed first point is one that must stay anyway
  const first = markCorners(s.raw, n, s.corner);
  const out: number[] = [p[2 * first], p[2 * first + 1]];
  const end = first + n;
  let a = first; // anchor: the last kept point
  for (;;) {
    const b = farthestReach(p, n, a, end, tolerance, s.corner);
    if (b >= end) break; // back at the first point
    const bi = b % n;
    out.push(p[2 * bi], p[2 * bi + 1]);
    a = b;
  }
  return out.length >= 6 ? out : [];
}
