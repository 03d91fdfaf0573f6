// Cutting triangles with one horizontal plane. Each triangle the plane crosses gives one segment,
// from the point on one crossed edge to the point on the other, directed so that the solid is on its
// left when the triangle's winding is counter-clockwise seen from outside. Each end carries the key
// of its edge (the two vertex indices, lower first), so segments chain exactly, without comparing
// floating-point positions.

/** The segments of one layer, in flat typed arrays (reused from layer to layer). */
export class SegmentBuffer {
  count = 0;
  /** start x, y, end x, y per segment (µm, not rounded) */
  xy = new Float64Array(4 * 1024);
  /** edge key per endpoint: [startLo, startHi, endLo, endHi] per segment */
  keys = new Int32Array(4 * 1024);

  reset(): void {
    this.count = 0;
  }

  ensure(n: number): void {
    if (4 * n <= this.xy.length) return;
    let cap = this.xy.length;
    while (cap < 4 * n) cap *= 2;
    const xy = new Float64Array(cap);
    xy.set(this.xy.subarray(0, 4 * this.count));
    const keys = new Int32Array(cap);
    keys.set(this.keys.subarray(0, 4 * this.count));
    this.xy = xy;
    this.keys = keys;
  }
}

/**
 * Cuts the active triangles with plane number `layer` at height `z` and appends their segments to
 * `out`. Triangles whose last plane (`last`) is below this one leave the active list, which is
 * compacted in place; returns its new length.
 * A vertex lying on the plane counts as above it (the plane is nudged down by an infinitesimal), so no
 * segment is ever produced twice. A horizontal face on the plane thus belongs to the solid below it:
 * a top face there prints on this layer, a bottom face from the next, half a layer above the face
 * either way (as CuraEngine and PrusaSlicer print it; nudged up, it was half a layer below).
 */
export function cutTriangles(
  positions: Float64Array,
  indices: Uint32Array,
  active: Int32Array,
  activeCount: number,
  last: Int32Array,
  layer: number,
  z: number,
  out: SegmentBuffer,
): number {
  out.ensure(out.count + activeCount);
  const xy = out.xy;
  const keys = out.keys;
  let n = out.count;
  let kept = 0;
  for (let k = 0; k < activeCount; k++) {
    const t = active[k];
    if (last[t] < layer) continue;
    active[kept++] = t;
    const v0 = indices[3 * t];
    const v1 = indices[3 * t + 1];
    const v2 = indices[3 * t + 2];
    const up0 = +(positions[3 * v0 + 2] >= z);
    const up1 = +(positions[3 * v1 + 2] >= z);
    const up2 = +(positions[3 * v2 + 2] >= z);
    const ups = up0 + up1 + up2;
    if (ups === 0 || ups === 3) continue;
    // the lone vertex: the one above when one is above, the one below when two are above
    const lone = ups === 1 ? (up0 ? 0 : up1 ? 1 : 2) : !up0 ? 0 : !up1 ? 1 : 2;
    const vl = lone === 0 ? v0 : lone === 1 ? v1 : v2; // lone vertex
    const vn = lone === 0 ? v1 : lone === 1 ? v2 : v0; // next after it in winding order
    const vp = lone === 0 ? v2 : lone === 1 ? v0 : v1; // previous
    // lone above: from edge (lone, next) to edge (prev, lone); lone below: the other way round
    const aFirst = ups === 1;
    const sa = aFirst ? vn : vp; // the non-lone vertex of the start edge
    const sb = aFirst ? vp : vn; // the non-lone vertex of the end edge
    const o = 4 * n;
    crossing(positions, vl, sa, z, xy, o);
    crossing(positions, vl, sb, z, xy, o + 2);
    keys[o] = vl < sa ? vl : sa;
    keys[o + 1] = vl < sa ? sa : vl;
    keys[o + 2] = vl < sb ? vl : sb;
    keys[o + 3] = vl < sb ? sb : vl;
    n++;
  }
  out.count = n;
  return kept;
}

/**
 * Where edge (a, b) crosses the plane, written to out[o], out[o + 1]. Computed from the lower vertex
 * towards the upper one, so both triangles sharing the edge get bit-identical points.
 */
function crossing(p: Float64Array, a: number, b: number, z: number, out: Float64Array, o: number): void {
  const za = p[3 * a + 2];
  const zb = p[3 * b + 2];
  const lo = za < zb ? a : b;
  const hi = za < zb ? b : a;
  const zl = p[3 * lo + 2];
  const t = (z - zl) / (p[3 * hi + 2] - zl);
  out[o] = p[3 * lo] + t * (p[3 * hi] - p[3 * lo]);
  out[o + 1] = p[3 * lo + 1] + t * (p[3 * hi + 1] - p[3 * lo + 1]);
}
