// Raft: a few layers printed under the part to hold it down and give it a flat, separable base. The
// base layer is thick with wide, widely spaced lines (it grips the bed), the middle layers are
// denser and cross it, and the top layer is solid so the part's first layer has a surface to sit on.
// The part is raised by the raft's height plus an air gap (see setup/layer-heights.ts).
import type { ExtrusionPath, Paths } from '../types.js';
import type { SliceSettings } from '../settings.js';
import { offset, simplify, union } from '../geom/clipper.js';
import { axesOf } from '../infill/raster.js';
import { gridFamily } from '../infill/scanline.js';
import { solidLines } from '../infill/solid.js';
import { joinZigzag } from '../support/zigzag.js';

const CUSP_FILL_UM = 1000;

/**
 * Thickness of each raft layer, bottom first, µm: the others at the layer height, the base 1.5× the
 * first layer's but no thicker than three quarters of the nozzle (nor thinner than the first layer):
 * a thicker bead is laid from above the bed rather than pressed onto it (a 0.4 mm first layer made a
 * 0.6 mm base on a 0.4 mm nozzle).
 */
export function raftHeights(s: SliceSettings): number[] {
  if (s.adhesionType !== 'raft' || s.raftLayers <= 0) return [];
  const h = Math.round(s.layerHeight * 1000);
  const first = Math.round(s.firstLayerHeight * 1000);
  const base = Math.max(first, Math.min(Math.round(first * 1.5), Math.round(s.nozzleDiameter * 750)));
  return Array.from({ length: Math.round(s.raftLayers) }, (_, i) => (i === 0 ? base : h));
}

/** The raft's outline: what stands on it (the part's first layer and any support there), grown by the margin. */
export function raftOutline(footprint: Paths, s: SliceSettings): Paths {
  if (footprint.length === 0) return [];
  // round joins, then a simplify: the margin is a few millimetres, the arcs need no fine detail;
  // growing 1 mm more and shrinking back fills the cusps where the grown outlines of two parts meet
  const grown = offset(union(footprint), Math.round(s.raftMargin * 1000) + CUSP_FILL_UM, 'round', 2, 20);
  return simplify(offset(grown, -CUSP_FILL_UM, 'round', 2, 20), 20);
}

/** The paths of raft layer `index` (0 = base) of `count`, filling `outline`. */
export function raftLayerPaths(outline: Paths, index: number, count: number, s: SliceSettings): ExtrusionPath[] {
  if (outline.length === 0) return [];
  const w = Math.round(s.lineWidth * 1000);
  // a one-layer raft is its own top: solid, so the part has a surface to sit on
  const top = index === count - 1;
  const base = index === 0;
  // base: beads twice as wide, 50 % covered; middle layers: 60 %, crossing the layer below; top: solid
  const width = base ? 2 * w : w;
  const area = offset(outline, -width / 2);
  if (area.length === 0) return [];
  const angle = base ? 0 : 45 + (index % 2) * 90;
  const spacing = top ? width : base ? 2 * width : width / 0.6;
  const lines: Paths = [];
  if (top) lines.push(...solidLines(area, width, angle));
  else gridFamily(area, axesOf(angle), spacing, 0, width / 2, lines);
  // one perimeter around each layer holds the line ends together
  const out: ExtrusionPath[] = area.map((points) => ({ type: 'RAFT', points, closed: true, width, model: -1 }));
  for (const points of joinZigzag(lines, offset(area, width / 4), 3 * spacing)) out.push({ type: 'RAFT', points, closed: false, width, model: -1 });
  return out;
}
