// Sorting keys that arrive as a few long monotone runs: a polygon's edges keyed by their left end
// rise along each stretch of the outline that heads right and fall along each that heads left, so a
// 240-edge loop is typically 5-10 runs. Merging the runs (a natural merge sort) costs n·log2(runs)
// comparisons; TypedArray.prototype.sort's general sort took twice as long on the Stanford bunny's
// offsets, where this sort was a third of the clean-area test (simple-area.ts).

/** Reusable buffers for sortRuns. */
export class RunSortScratch {
  tmp = new Float64Array(1024);
  starts = new Int32Array(1025);

  ensure(n: number): void {
    if (this.tmp.length >= n) return;
    let cap = this.tmp.length;
    while (cap < n) cap *= 2;
    this.tmp = new Float64Array(cap);
    this.starts = new Int32Array(cap + 1);
  }
}

/**
 * Sorts the first `n` entries of `keys` ascending (distinct, finite numbers: equal keys may come out
 * in either order) and returns the array holding the result: `keys` itself or the scratch's buffer.
 */
export function sortRuns(keys: Float64Array, n: number, s: RunSortScratch): Float64Array {
  s.ensure(n);
  const starts = s.starts;
  // split into maximal runs, turning falling ones round
  let runs = 0;
  for (let i = 0; i < n; ) {
    let j = i + 1;
    if (j < n && keys[j] < keys[j - 1]) {
      while (j < n && keys[j] < keys[j - 1]) j++;
      for (let a = i, b = j - 1; a < b; a++, b--) {
        const v = keys[a];
        keys[a] = keys[b];
        keys[b] = v;
      }
    } else {
      while (j < n && keys[j] >= keys[j - 1]) j++;
    }
    starts[runs++] = i;
    i = j;
  }
  starts[runs] = n;
  // merge neighbouring runs pairwise until one is left, back and forth between the two buffers
  let src: Float64Array = keys;
  let dst: Float64Array = s.tmp;
  while (runs > 1) {
    let w = 0;
    for (let r = 0; r < runs; r += 2) {
      const a0 = starts[r];
      const a1 = starts[r + 1]; // n for the last run, whose pair is empty
      const b1 = r + 2 <= runs ? starts[r + 2] : n;
      let a = a0;
      let b = a1;
      let o = a0;
      while (a < a1 && b < b1) dst[o++] = src[a] <= src[b] ? src[a++] : src[b++];
      while (a < a1) dst[o++] = src[a++];
      while (b < b1) dst[o++] = src[b++];
      starts[w++] = a0;
    }
    starts[w] = n;
    runs = w;
    const t = src;
    src = dst;
    dst = t;
  }
  return src;
}
