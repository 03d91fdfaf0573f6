// The joins stitching may try in one layer: each open chain's tail with each chain head that lies on
// the same hole of the mesh, or within the gap limit, in the order they are tried (same-hole pairs
// first, then nearest first; ties in the order of the tails, then of the heads).
//
// Heads are found through a grid of cells the size of the gap limit, so the work follows the pairs
// there are rather than tails × heads, and is given up past MAX_PAIRS: a triangle soup's layer has
// thousands of open chains, each near thousands of heads, and listing and sorting every pair took
// 56 s and 1 GB for 20,000 random triangles. A mesh that is merely broken has a few loose ends per
// crack (the shared models: at most 16 pairs in a layer).
import type { OpenChain } from './chain.js';

/** More candidate joins than this in one layer: the layer is soup, only exact joins are made. */
export const MAX_PAIRS = 65_536;

/** Candidate joins in the order to try them: chain tails[k] → chain heads[k]. */
export interface Pairs {
  tail: Int32Array;
  head: Int32Array;
}

class PairList {
  count = 0;
  tail = new Int32Array(64);
  head = new Int32Array(64);
  /** the tail's and head's positions in their lists (the order ties are broken in) */
  order = new Float64Array(64);
  d = new Float64Array(64);
  same = new Uint8Array(64);

  push(i: number, j: number, order: number, d: number, same: boolean): void {
    if (this.count === this.tail.length) this.grow();
    const k = this.count++;
    this.tail[k] = i;
    this.head[k] = j;
    this.order[k] = order;
    this.d[k] = d;
    this.same[k] = same ? 1 : 0;
  }

  private grow(): void {
    const n = this.tail.length * 2;
    const copy = <T extends Int32Array | Float64Array | Uint8Array>(a: T, b: T): T => (b.set(a), b);
    this.tail = copy(this.tail, new Int32Array(n));
    this.head = copy(this.head, new Int32Array(n));
    this.order = copy(this.order, new Float64Array(n));
    this.d = copy(this.d, new Float64Array(n));
    this.same = copy(this.same, new Uint8Array(n));
  }
}

const cellKey = (cx: number, cy: number) => cx * 4_194_304 + cy; // cells within ±2^21 of 0 in y

/**
 * The candidate joins of `tails` (chain indices, in order) with `heads` (chain indices, in order),
 * given each one's hole (−1: none): ordered as described above, or null when there are more than
 * `maxPairs`.
 */
export function candidatePairs(
  open: OpenChain[],
  tails: number[],
  tailHole: number[],
  heads: number[],
  headHole: number[],
  maxGap: number,
  maxPairs = MAX_PAIRS,
): Pairs | null {
  const pairs = new PairList();
  const max2 = maxGap * maxGap;
  const nh = heads.length;
  // heads by grid cell, and by hole
  const cells = new Map<number, number[]>();
  const byHole = new Map<number, number[]>();
  for (let hp = 0; hp < nh; hp++) {
    const p = open[heads[hp]].points;
    const key = cellKey(Math.floor(p[0] / maxGap), Math.floor(p[1] / maxGap));
    const list = cells.get(key);
    if (list) list.push(hp);
    else cells.set(key, [hp]);
    if (headHole[hp] >= 0) {
      const same = byHole.get(headHole[hp]);
      if (same) same.push(hp);
      else byHole.set(headHole[hp], [hp]);
    }
  }
  for (let tp = 0; tp < tails.length; tp++) {
    const i = tails[tp];
    const c = open[i].points;
    const tx = c[c.length - 2];
    const ty = c[c.length - 1];
    const hole = tailHole[tp];
    const distance = (hp: number) => (open[heads[hp]].points[0] - tx) ** 2 + (open[heads[hp]].points[1] - ty) ** 2;
    // the same hole: at any distance
    if (hole >= 0) for (const hp of byHole.get(hole) ?? []) pairs.push(i, heads[hp], tp * nh + hp, distance(hp), true);
    // others within the gap limit: in the 3 × 3 cells around the tail's
    const cx = Math.floor(tx / maxGap);
    const cy = Math.floor(ty / maxGap);
    for (let gx = cx - 1; gx <= cx + 1; gx++) {
      for (let gy = cy - 1; gy <= cy + 1; gy++) {
        for (const hp of cells.get(cellKey(gx, gy)) ?? []) {
          if (hole >= 0 && headHole[hp] === hole) continue; // listed above
          const d = distance(hp);
          if (d <= max2) pairs.push(i, heads[hp], tp * nh + hp, d, false);
        }
      }
    }
    if (pairs.count > maxPairs) return null;
  }
  const { tail, head, order, d, same } = pairs;
  const idx = Int32Array.from({ length: pairs.count }, (_, k) => k);
  idx.sort((a, b) => same[b] - same[a] || d[a] - d[b] || order[a] - order[b]);
  return { tail: Int32Array.from(idx, (k) => tail[k]), head: Int32Array.from(idx, (k) => head[k]) };
}
