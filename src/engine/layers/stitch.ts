// Closing the chains that edges alone could not close (holes in the mesh, unwelded vertices).
// First, ends that meet at the same micrometre are joined. Then the remaining gaps are bridged
// nearest first: every (tail, head) pair closer than `maxGap` is a candidate, shortest taken
// first, each tail and head used once; a chain may close on itself the same way. What is still
// open afterwards has no partner within reach and is dropped.

/** Gaps up to this size (µm) are bridged: a missing triangle leaves a gap about its own size. */
export const MAX_STITCH_UM = 10_000;
/** A path left open is closed on itself when its gap is at most this share of its length. */
export const SELF_CLOSE_RATIO = 0.25;
/** Beyond this many open chains in one layer the mesh is soup: only exact joins are attempted. */
const MAX_GAP_SEARCH = 4000;

export interface Stitched {
  loops: number[][];
  /** open chains left over (dropped) */
  dropped: number;
}

function pathLength(c: number[]): number {
  let len = 0;
  for (let i = 2; i < c.length; i += 2) len += Math.hypot(c[i] - c[i - 2], c[i + 1] - c[i - 1]);
  return len;
}

/** True when the path through `members` (in order) ends near enough to its start to close. */
function closableOnItself(open: number[][], members: number[]): boolean {
  const head = open[members[0]];
  const tail = open[members[members.length - 1]];
  const gap = Math.hypot(tail[tail.length - 2] - head[0], tail[tail.length - 1] - head[1]);
  let len = 0;
  for (const m of members) len += pathLength(open[m]);
  return gap <= SELF_CLOSE_RATIO * len;
}

/** The points of the chains `members`, in order, without repeating a point where two meet. */
function joinPoints(open: number[][], members: number[]): number[] {
  const pts: number[] = [];
  for (const m of members) {
    const chain = open[m];
    const n = pts.length;
    const skip = n > 0 && Math.round(pts[n - 2]) === Math.round(chain[0]) && Math.round(pts[n - 1]) === Math.round(chain[1]) ? 2 : 0;
    for (let q = skip; q < chain.length; q++) pts.push(chain[q]);
  }
  return pts;
}

const pointKey = (x: number, y: number) => `${Math.round(x)},${Math.round(y)}`;

export function stitchChains(open: number[][], maxGap = MAX_STITCH_UM): Stitched {
  const k = open.length;
  const next = new Int32Array(k).fill(-1); // chain i's tail joins chain next[i]'s head
  const headUsed = new Uint8Array(k);
  // 1. exact joins
  const heads = new Map<string, number[]>();
  for (let j = 0; j < k; j++) {
    const key = pointKey(open[j][0], open[j][1]);
    const list = heads.get(key);
    if (list) list.push(j);
    else heads.set(key, [j]);
  }
  for (let i = 0; i < k; i++) {
    const c = open[i];
    const list = heads.get(pointKey(c[c.length - 2], c[c.length - 1]));
    if (!list) continue;
    const j = list.find((h) => !headUsed[h]);
    if (j === undefined) continue;
    next[i] = j;
    headUsed[j] = 1;
  }
  // 2. nearest-first gap bridging among what is left
  const tails = [...Array(k).keys()].filter((i) => next[i] < 0);
  const freeHeads = [...Array(k).keys()].filter((j) => !headUsed[j]);
  if (tails.length > 0 && tails.length <= MAX_GAP_SEARCH) {
    const pairs: { d: number; i: number; j: number }[] = [];
    const max2 = maxGap * maxGap;
    for (const i of tails) {
      const c = open[i];
      const tx = c[c.length - 2];
      const ty = c[c.length - 1];
      for (const j of freeHeads) {
        const d = (open[j][0] - tx) ** 2 + (open[j][1] - ty) ** 2;
        if (d <= max2) pairs.push({ d, i, j });
      }
    }
    pairs.sort((a, b) => a.d - b.d);
    for (const { i, j } of pairs) {
      if (next[i] >= 0 || headUsed[j]) continue;
      next[i] = j;
      headUsed[j] = 1;
    }
  }
  // 3. paths start where no chain leads in: close them on themselves or drop them; what is
  // left unvisited after that is made of cycles
  const seen = new Uint8Array(k);
  const loops: number[][] = [];
  let dropped = 0;
  const follow = (s: number): number[] => {
    const members: number[] = [];
    for (let c = s; c >= 0 && !seen[c]; c = next[c]) {
      seen[c] = 1;
      members.push(c);
    }
    return members;
  };
  for (let s = 0; s < k; s++) {
    if (headUsed[s]) continue;
    const members = follow(s);
    if (closableOnItself(open, members)) loops.push(joinPoints(open, members));
    else dropped += members.length;
  }
  for (let s = 0; s < k; s++) if (!seen[s]) loops.push(joinPoints(open, follow(s)));
  return { loops, dropped };
}
