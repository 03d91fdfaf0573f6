// Orders parallel skin lines monotonically: by their position across the line direction, then
// along it, so each line is laid against one already printed (no ridges from out-of-order lines).
import type { Paths } from '../types.js';

export function sortMonotonic(lines: Paths, angleDeg: number): Paths {
  const a = (angleDeg * Math.PI) / 180;
  const dx = Math.cos(a);
  const dy = Math.sin(a);
  const keyed = lines.map((l) => {
    const mx = (l[0] + l[l.length - 2]) / 2;
    const my = (l[1] + l[l.length - 1]) / 2;
    // across: perpendicular offset (rounded to 10 µm so one line's pieces share a key); along: position on the line
    return { l, across: Math.round((-dy * mx + dx * my) / 10), along: dx * mx + dy * my };
  });
  keyed.sort((p, q) => p.across - q.across || p.along - q.along);
  return keyed.map((k) => k.l);
}
