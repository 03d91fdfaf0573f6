// Exact predicates on integer µm coordinates (within 2^25 of each other, products of differences are
// exact doubles), shared by the clean-area tests (simple-area.ts, loop-nesting.ts).

/** Sign of the turn a → b → c: 1 left, −1 right, 0 on one line. */
export function orient(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  return Math.sign((bx - ax) * (cy - ay) - (by - ay) * (cx - ax));
}

/** True when segments (a, b) and (c, d) share any point. */
export function segmentsMeet(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number): boolean {
  const o1 = orient(ax, ay, bx, by, cx, cy);
  const o2 = orient(ax, ay, bx, by, dx, dy);
  const o3 = orient(cx, cy, dx, dy, ax, ay);
  const o4 = orient(cx, cy, dx, dy, bx, by);
  if (o1 * o2 > 0 || o3 * o4 > 0) return false;
  if (o1 !== 0 || o2 !== 0 || o3 !== 0 || o4 !== 0) return true;
  // collinear: do the projections overlap?
  return Math.min(ax, bx) <= Math.max(cx, dx) && Math.min(cx, dx) <= Math.max(ax, bx) && Math.min(ay, by) <= Math.max(cy, dy) && Math.min(cy, dy) <= Math.max(ay, by);
}

/** Signed area of a closed loop (positive counter-clockwise), summed about its first point so the products stay small. */
export function loopArea(p: readonly number[]): number {
  let a = 0;
  const n = p.length;
  for (let i = 0; i < n; i += 2) {
    const j = i + 2 < n ? i + 2 : 0;
    a += (p[i] - p[0]) * (p[j + 1] - p[1]) - (p[j] - p[0]) * (p[i + 1] - p[1]);
  }
  return a / 2;
}
