// The fallback of the hash tables that weld vertices, find duplicate triangles and chain segments.
// Their hash functions are fixed, so a crafted file can make its keys collide: with linear probing
// every insert then walks all the earlier ones (a quadratic hang of a worker). Each table counts its
// probes and, past a bound no real mesh comes near, redoes the work by sorting, which takes
// O(n log n) whatever the keys and gives the same answer.

/** More probes than this (for n keys) means the keys collide on purpose or by a pathology. */
export function probeBudget(n: number): number {
  return 16 * n + 65_536;
}

/**
 * For items 0…n−1: the lowest-numbered item whose key equals its own (`compare` is 0), by sorting.
 * `compare` orders the keys (negative, 0, positive); items with equal keys keep their order.
 */
export function firstOfEqual(n: number, compare: (a: number, b: number) => number): Uint32Array {
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => compare(a, b) || a - b);
  const first = new Uint32Array(n);
  for (let i = 0; i < n; ) {
    const f = order[i];
    let j = i;
    while (j < n && (j === i || compare(order[j], f) === 0)) first[order[j++]] = f;
    i = j;
  }
  return first;
}
