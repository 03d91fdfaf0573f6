// Joins the parallel lines of a support area into zigzags: each line's end is connected to the
// nearest end of a line of the next row when the connector stays inside the area, so one area
// prints as a few long polylines instead of many short lines with a travel (and maybe a retraction)
// between each.
import type { Path, Paths } from '../types.js';

/**
 * `lines` are 2-point segments of one family, in row order (as the scan-line fill gives them);
 * `maxJoin` is the longest connector, µm. Returns polylines (every input segment used once).
 */
export function joinZigzag(lines: Paths, area: Paths, maxJoin: number): Paths {
  const chains: Path[] = [];
  // chains whose last segment ended on the previous row (candidates for the current one)
  let open: Path[] = [];
  let current: Path[] = [];
  let rowKey = NaN;
  for (const seg of lines) {
    // rows are the lines' offsets across their direction: a new row when the segment is not
    // collinear with the previous one
    const key = rowOf(seg);
    if (!(Math.abs(key - rowKey) <= ROW_TOLERANCE_UM)) {
      open = current;
      current = [];
      rowKey = key;
    }
    let best = -1;
    let bestD = maxJoin;
    let flip = false;
    for (let c = 0; c < open.length; c++) {
      const ch = open[c];
      const ex = ch[ch.length - 2];
      const ey = ch[ch.length - 1];
      const d0 = Math.hypot(seg[0] - ex, seg[1] - ey);
      const d1 = Math.hypot(seg[2] - ex, seg[3] - ey);
      if (d0 <= bestD && inside(area, (seg[0] + ex) / 2, (seg[1] + ey) / 2)) {
        best = c;
        bestD = d0;
        flip = false;
      }
      if (d1 < bestD && inside(area, (seg[2] + ex) / 2, (seg[3] + ey) / 2)) {
        best = c;
        bestD = d1;
        flip = true;
      }
    }
    const pts = flip ? [seg[2], seg[3], seg[0], seg[1]] : [seg[0], seg[1], seg[2], seg[3]];
    if (best >= 0) {
      const ch = open[best];
      open.splice(best, 1);
      ch.push(...pts);
      current.push(ch);
    } else {
      chains.push(pts);
      current.push(pts);
    }
  }
  return chains;
}

/** Segments whose offsets differ by less than this (µm, rounding of their ends) share a row. */
const ROW_TOLERANCE_UM = 20;

/** The segment's offset across its own direction, µm. */
function rowOf(seg: Path): number {
  const dx = seg[2] - seg[0];
  const dy = seg[3] - seg[1];
  const len = Math.hypot(dx, dy) || 1;
  return (seg[0] * -dy + seg[1] * dx) / len;
}

/** Non-zero winding point-in-area test. */
export function inside(area: Paths, x: number, y: number): boolean {
  let wind = 0;
  for (const p of area) {
    const n = p.length >> 1;
    for (let i = 0, j = n - 1; i < n; j = i++) {
      const xi = p[2 * i], yi = p[2 * i + 1], xj = p[2 * j], yj = p[2 * j + 1];
      if (yj <= y) {
        if (yi > y && (xi - xj) * (y - yj) - (x - xj) * (yi - yj) > 0) wind++;
      } else if (yi <= y && (xi - xj) * (y - yj) - (x - xj) * (yi - yj) < 0) wind--;
    }
  }
  return wind !== 0;
}
