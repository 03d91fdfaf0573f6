// Support areas for the whole job, top to bottom: each layer's overhang (what lies beyond the layer
// below grown by h·tan(angle)) is carried down layer by layer until it meets the plate or the model,
// then cut back by the XY distance around the part and by the Z gaps above and below the part.
// This needs every layer's outline at once, so it runs as a pre-pass before the layer batches; what
// it returns is plain data (µm paths) a batch can take to another thread.
import type { Paths } from '../types.js';
import { throwIfAborted } from '../types.js';
import { drain, type Steps } from '../steps.js';
import { difference, intersection, islands, offset, simplify, union, unionWith } from '../geom/clipper.js';
import { areaOf } from '../geom/path-math.js';

/** What one layer prints as support: the plain support area and the denser interface under the part. */
export interface SupportLayer {
  support: Paths;
  interface: Paths;
}

export interface SupportAreaParams {
  /** overhang angle from vertical beyond which support is built, degrees */
  angleDeg: number;
  /** horizontal gap to the part, µm */
  xyDistance: number;
  /**
   * horizontal gap to the part where the support is under it (the part above overhangs the part
   * beside): the roof must reach up under the overhang, µm (at most xyDistance)
   */
  xyOverhangDistance: number;
  /** empty layers between support and the part above it (and below it, where support rests on the part) */
  zLayers: number;
  /** support layers under the part printed as interface */
  interfaceLayers: number;
  /** overhangs smaller than this (µm²) get no support */
  minArea: number;
  /** true: drop every column that would rest on the model ('buildplate') */
  buildplateOnly: boolean;
}

/**
 * The gap to the part beside where the support is under the part above, µm: half a line (CuraEngine's
 * default overhang distance), never more than the XY distance.
 */
export function overhangXYDistance(s: { supportXYDistance: number; lineWidth: number }): number {
  return Math.round(Math.min(s.supportXYDistance, s.lineWidth / 2) * 1000);
}

/** Vertex reduction of the carried areas, µm: unions over many layers would otherwise keep every step. */
const SIMPLIFY_UM = 25;
/** Vertex reduction of the outlines the support pass works on, µm (the XY distance is kept from the
 * simplified outline plus this much, so from the exact one too). */
const OUTLINE_SIMPLIFY_UM = 50;
/** Gaps narrower than twice this (µm) between support pieces are filled. */
const JOIN_UM = 500;
/** Support pieces thinner than this (µm) after the cuts are dropped: no line fits in them. */
const MIN_WIDTH_UM = 200;

/**
 * Support per layer (undefined where a layer has none). `exact[i]` is the union of the printed
 * models' cross-sections on model layer i (raft layers are not passed), `heights[i]` its thickness, µm.
 */
export function supportAreas(
  exact: Paths[],
  heights: number[],
  p: SupportAreaParams,
  signal?: AbortSignal,
  onProgress?: (f: number) => void,
): Array<SupportLayer | undefined> {
  return drain(supportAreaSteps(exact, heights, p, signal, onProgress));
}

/** supportAreas' work, yielding after each layer of each walk. */
export function* supportAreaSteps(
  exact: Paths[],
  heights: number[],
  p: SupportAreaParams,
  signal?: AbortSignal,
  onProgress?: (f: number) => void,
): Steps<Array<SupportLayer | undefined>> {
  const n = exact.length;
  // support needs no fine detail (the batch clips its lines against the exact outlines): fewer
  // vertices make every offset and boolean below cheaper
  const outlines = exact.map((o) => (o.length > 0 ? simplify(o, OUTLINE_SIMPLIFY_UM) : o));
  const tan = Math.tan((Math.min(89, Math.max(0, p.angleDeg)) * Math.PI) / 180);
  const zGap = Math.max(0, Math.round(p.zLayers));
  const roofLayers = Math.max(1, Math.round(p.interfaceLayers));
  const areas: Array<Paths | undefined> = new Array(n);
  // the area still looking for something to stand on, as seen from layer j + 1
  let carry: Paths = [];
  for (let j = n - 2; j >= 0; j--) {
    yield;
    if ((j & 3) === 0) throwIfAborted(signal);
    if ((j & 15) === 0) onProgress?.((n - j) / n);
    const up = outlines[j + 1];
    if (up.length > 0) {
      const below = outlines[j];
      const reach = Math.round(heights[j + 1] * tan);
      const grown = below.length > 0 ? offset(below, reach) : [];
      let overhang = difference(up, grown);
      // what lies beyond the reach is steeper than the angle; the band within reach of the layer
      // below belongs to the same slope: without it a steep face gives strips with gaps between
      if (overhang.length > 0 && below.length > 0) overhang = intersection(offset(overhang, reach + 10), up);
      overhang = dropSmall(overhang, p.minArea);
      if (overhang.length > 0) carry = carry.length > 0 ? unionWith(carry, overhang) : union(overhang);
    }
    if (carry.length === 0) continue;
    // a column that meets the model stops there
    if (outlines[j].length > 0) carry = difference(carry, outlines[j]);
    carry = simplify(carry, SIMPLIFY_UM);
    if (carry.length === 0) continue;
    // small gaps between neighbouring pieces are closed: one column prints better than two slivers
    let a = carry.length > 1 ? offset(offset(carry, JOIN_UM), -JOIN_UM) : carry;
    // Z gaps: no support within zGap layers under the part, nor within zGap layers over it
    const gap: Paths = [];
    for (let k = 1; k <= zGap; k++) {
      if (j + k < n) gap.push(...outlines[j + k]);
      if (j - k >= 0) gap.push(...outlines[j - k]);
    }
    if (outlines[j].length > 0 && a.length > 0) a = keepClear(a, outlines[j], overhead(outlines, j, zGap, roofLayers), p);
    if (gap.length > 0 && a.length > 0) a = difference(a, gap);
    if (a.length > 0) areas[j] = a;
  }
  onProgress?.(1);
  if (p.buildplateOnly) yield* dropColumnsOnModel(areas, outlines, signal);
  return yield* splitInterface(areas, outlines, zGap, Math.max(0, Math.round(p.interfaceLayers)), signal);
}

/** The part on the layers a roof under it would touch: `count` layers above layer j's Z gap. */
function overhead(outlines: Paths[], j: number, zGap: number, count: number): Paths {
  const above: Paths = [];
  for (let k = zGap + 1; k <= zGap + count && j + k < outlines.length; k++) above.push(...outlines[j + k]);
  return above;
}

/**
 * Support area `a` kept clear of the part beside it (`outline`): by the XY distance, but only by the
 * overhang distance where the part above reaches over it (under a steep slope or a flared lip: at
 * the full distance the columns ended short of the slope, as plain support with no roof, or as a
 * few stray bits). Worked on the support area, not the outline: most layers of a column have no
 * part above them, and skip the second cut.
 */
function keepClear(a: Paths, outline: Paths, above: Paths, p: SupportAreaParams): Paths {
  const apart = difference(a, offset(outline, p.xyDistance + OUTLINE_SIMPLIFY_UM));
  const near = Math.min(p.xyDistance, p.xyOverhangDistance);
  if (above.length === 0 || near >= p.xyDistance) return apart;
  const under = intersection(a, above);
  if (under.length === 0) return apart;
  const hugging = difference(under, offset(outline, near + OUTLINE_SIMPLIFY_UM));
  return hugging.length > 0 ? union([...apart, ...hugging]) : apart;
}

/** 'buildplate': each layer's support minus the model's footprint on every layer below it. */
function* dropColumnsOnModel(areas: Array<Paths | undefined>, outlines: Paths[], signal?: AbortSignal): Steps<void> {
  let footprint: Paths = [];
  for (let j = 0; j < areas.length; j++) {
    yield;
    if ((j & 7) === 0) throwIfAborted(signal);
    const a = areas[j];
    if (a && footprint.length > 0) {
      const left = difference(a, footprint);
      areas[j] = left.length > 0 ? left : undefined;
    }
    if (outlines[j].length > 0) footprint = simplify(unionWith(footprint, outlines[j]), SIMPLIFY_UM);
  }
}

/** The top `count` layers of support under the part (above the Z gap) become interface. */
function* splitInterface(areas: Array<Paths | undefined>, outlines: Paths[], zGap: number, count: number, signal?: AbortSignal): Steps<Array<SupportLayer | undefined>> {
  const out: Array<SupportLayer | undefined> = new Array(areas.length);
  for (let j = 0; j < areas.length; j++) {
    const a = areas[j];
    if (!a) continue;
    yield;
    if ((j & 7) === 0) throwIfAborted(signal);
    const above: Paths = [];
    for (let k = zGap + 1; k <= zGap + count && j + k < outlines.length; k++) above.push(...outlines[j + k]);
    const roof = above.length > 0 ? dropThin(intersection(a, above)) : [];
    out[j] = roof.length > 0 ? { support: dropThin(difference(a, roof)), interface: roof } : { support: a, interface: [] };
  }
  return out;
}

/** Islands of an area smaller than `minArea` µm² removed. */
function dropSmall(area: Paths, minArea: number): Paths {
  if (area.length === 0) return area;
  const kept: Paths = [];
  for (const isl of islands(area)) if (areaOf(isl) >= minArea) kept.push(...isl);
  return kept;
}

/** Slivers no support line fits in removed (an opening by half the minimum width). */
function dropThin(area: Paths): Paths {
  if (area.length === 0) return area;
  return offset(offset(area, -MIN_WIDTH_UM / 2), MIN_WIDTH_UM / 2);
}
