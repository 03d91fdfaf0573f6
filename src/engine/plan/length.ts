// Euclidean length of a vector. Math.hypot is several times slower in V8 and the planner measures
// every move.
export function hyp(dx: number, dy: number): number {
  return Math.sqrt(dx * dx + dy * dy);
}
