// Closing the chains that edges alone could not close (holes in the mesh, unwelded vertices).
// 1. Ends that meet at the same micrometre are joined.
// 2. The remaining (tail, head) pairs are joined nearest first, each tail and head used once; a
//    chain may close on itself the same way. Pairs whose ends lie on the boundary of the same hole
//    of the mesh come first and have no distance limit (they bridge that hole); other pairs only up
//    to `maxGap` (stitch-pairs.ts). A layer with too many candidate pairs is soup: step 2 is skipped.
// What is still open afterwards has no partner within reach and is dropped (a stray sheet, a fragment).
// A loop that needed a bridge longer than `maxGap` is kept only when its bridges are short next to
// the mesh outline it follows: the boundary of a free-standing sheet is a closed loop too, and
// closing a sheet's section would invent an area that is mostly made-up edges.
import type { OpenChain } from './chain.js';
import { candidatePairs } from './stitch-pairs.js';

/** Gaps up to this size (µm) are bridged even when no hole of the mesh explains them. */
export const MAX_STITCH_UM = 10_000;
/** A loop with long bridges is kept only if they add up to at most this share of its chains' length. */
const MAX_BRIDGE_SHARE = 0.5;
/** Beyond this many open chains in one layer the mesh is soup: only exact joins are attempted. */
const MAX_GAP_SEARCH = 4000;

export interface Stitched {
  loops: number[][];
  /** open chains left over (dropped) */
  dropped: number;
}

/** Hole id of a boundary edge, or -1 (see MeshHoles). */
export type HoleLookup = (lo: number, hi: number) => number;

function chainLength(c: number[]): number {
  let len = 0;
  for (let i = 2; i < c.length; i += 2) len += Math.hypot(c[i] - c[i - 2], c[i + 1] - c[i - 1]);
  return len;
}

/** A cycle of chains (in order) is plausible unless long bridges make up too much of it. */
function plausibleLoop(open: OpenChain[], members: number[], maxGap: number): boolean {
  let bridges = 0;
  let longest = 0;
  let along = 0;
  for (let m = 0; m < members.length; m++) {
    const a = open[members[m]].points;
    const b = open[members[(m + 1) % members.length]].points;
    const gap = Math.hypot(b[0] - a[a.length - 2], b[1] - a[a.length - 1]);
    bridges += gap;
    longest = Math.max(longest, gap);
    along += chainLength(a);
  }
  return longest <= maxGap || bridges <= MAX_BRIDGE_SHARE * along;
}

const pointKey = (x: number, y: number) => `${Math.round(x)},${Math.round(y)}`;

/** The points of the chains `members`, in order, without repeating a point where two meet. */
function joinPoints(open: OpenChain[], members: number[]): number[] {
  const pts: number[] = [];
  for (const m of members) {
    const chain = open[m].points;
    const n = pts.length;
    const skip = n > 0 && Math.round(pts[n - 2]) === Math.round(chain[0]) && Math.round(pts[n - 1]) === Math.round(chain[1]) ? 2 : 0;
    for (let q = skip; q < chain.length; q++) pts.push(chain[q]);
  }
  return pts;
}

export function stitchChains(open: OpenChain[], holeOf: HoleLookup | null, maxGap = MAX_STITCH_UM): Stitched {
  const k = open.length;
  const next = new Int32Array(k).fill(-1); // chain i's tail joins chain next[i]'s head
  const headUsed = new Uint8Array(k);
  // 1. exact joins
  const heads = new Map<string, number[]>();
  for (let j = 0; j < k; j++) {
    const key = pointKey(open[j].points[0], open[j].points[1]);
    const list = heads.get(key);
    if (list) list.push(j);
    else heads.set(key, [j]);
  }
  for (let i = 0; i < k; i++) {
    const c = open[i].points;
    const list = heads.get(pointKey(c[c.length - 2], c[c.length - 1]));
    const j = list?.find((h) => !headUsed[h]);
    if (j === undefined) continue;
    next[i] = j;
    headUsed[j] = 1;
  }
  // 2. same-hole pairs first, then nearest first within maxGap
  const tails = [...Array(k).keys()].filter((i) => next[i] < 0);
  const freeHeads = [...Array(k).keys()].filter((j) => !headUsed[j]);
  if (tails.length > 0 && tails.length <= MAX_GAP_SEARCH) {
    const tailHole = tails.map((i) => (holeOf ? holeOf(open[i].tailLo, open[i].tailHi) : -1));
    const headHole = freeHeads.map((j) => (holeOf ? holeOf(open[j].headLo, open[j].headHi) : -1));
    const pairs = candidatePairs(open, tails, tailHole, freeHeads, headHole, maxGap);
    for (let p = 0; pairs && p < pairs.tail.length; p++) {
      const i = pairs.tail[p];
      const j = pairs.head[p];
      if (next[i] >= 0 || headUsed[j]) continue;
      next[i] = j;
      headUsed[j] = 1;
    }
  }
  // 3. paths (they start where no chain leads in) are dropped; the rest are cycles, kept unless
  // long bridges make up too much of them
  const seen = new Uint8Array(k);
  const follow = (s: number): number[] => {
    const members: number[] = [];
    for (let c = s; c >= 0 && !seen[c]; c = next[c]) {
      seen[c] = 1;
      members.push(c);
    }
    return members;
  };
  let dropped = 0;
  for (let s = 0; s < k; s++) if (!headUsed[s]) dropped += follow(s).length;
  const loops: number[][] = [];
  for (let s = 0; s < k; s++) {
    if (seen[s]) continue;
    const members = follow(s);
    if (plausibleLoop(open, members, maxGap)) loops.push(joinPoints(open, members));
    else dropped += members.length;
  }
  return { loops, dropped };
}
