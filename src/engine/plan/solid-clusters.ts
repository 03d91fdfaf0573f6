// An island's gap fill and skin grouped by where they lie, so the planner can print each place's
// gap fill and skin together. Printed as two whole steps (all gap fill nearest-first, then all skin),
// an island with a gap and a skin patch at each of two far ends sends the nozzle across it twice
// where once would do: gap fill here, gap fill there, skin there, skin here (the ends of the
// bridging plate's parts at 0 % infill, where the walls around its holes leave both).
import type { ExtrusionPath } from '../types.js';
import { boxOfPaths, type Box } from './box-grid.js';

/** One place's gap fill and skin, with the box around them. */
export interface SolidCluster {
  gaps: ExtrusionPath[];
  skin: ExtrusionPath[];
  box: Box;
}

function root(parent: Int32Array, i: number): number {
  while (parent[i] !== i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

/**
 * Groups the paths whose boxes, grown by `reach` µm on every side, overlap, directly or through a
 * chain of others (neighbouring skin lines lie one line width apart, so one skin patch is one
 * group). Boxes are a coarse measure: far apart paths whose boxes overlap (long diagonal lines)
 * stay together, which only leaves their order as it was. Groups come in the order of their first
 * path, gap fill before skin; each keeps its paths in their given order.
 */
export function solidClusters(gaps: ExtrusionPath[], skin: ExtrusionPath[], reach: number): SolidCluster[] {
  const paths = [...gaps, ...skin];
  const n = paths.length;
  const boxes = paths.map((p) => boxOfPaths([p.points]));
  const parent = new Int32Array(n);
  for (let i = 0; i < n; i++) parent[i] = i;
  // sweep along x: a box meets only the boxes whose x range it overlaps
  const byX = Array.from({ length: n }, (_, i) => i).sort((a, b) => boxes[a][0] - boxes[b][0]);
  const active: number[] = [];
  for (const i of byX) {
    const b = boxes[i];
    const x0 = b[0] - 2 * reach;
    let kept = 0;
    for (let a = 0; a < active.length; a++) {
      const k = active[a];
      if (boxes[k][2] < x0) continue; // ends left of every box still to come
      active[kept++] = k;
      const c = boxes[k];
      if (c[1] - reach <= b[3] + reach && b[1] - reach <= c[3] + reach) {
        const ri = root(parent, i), rk = root(parent, k);
        if (ri !== rk) parent[Math.max(ri, rk)] = Math.min(ri, rk);
      }
    }
    active.length = kept;
    active.push(i);
  }
  const at = new Map<number, SolidCluster>();
  const out: SolidCluster[] = [];
  for (let i = 0; i < n; i++) {
    const r = root(parent, i);
    let c = at.get(r);
    if (!c) {
      c = { gaps: [], skin: [], box: [Infinity, Infinity, -Infinity, -Infinity] };
      at.set(r, c);
      out.push(c);
    }
    (i < gaps.length ? c.gaps : c.skin).push(paths[i]);
    const b = boxes[i], cb = c.box as [number, number, number, number]; // made here, so writable
    cb[0] = Math.min(cb[0], b[0]);
    cb[1] = Math.min(cb[1], b[1]);
    cb[2] = Math.max(cb[2], b[2]);
    cb[3] = Math.max(cb[3], b[3]);
  }
  return out;
}
