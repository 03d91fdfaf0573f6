// One layer's support toolpaths: the support and interface areas (from support/areas.ts) filled with
// lines, a grid or zigzags, and, as the last step, clipped against the part grown by the least XY
// distance (the overhang distance) so that no support line can ever extrude in or next to the part.
import type { ExtrusionPath, Paths } from '../types.js';
import type { SupportPattern } from '../settings.js';
import { clipLines, offset } from '../geom/clipper.js';
import { axesOf } from '../infill/raster.js';
import { gridFamily } from '../infill/scanline.js';
import { joinZigzag } from './zigzag.js';
import type { SupportLayer } from './areas.js';

export interface SupportPathParams {
  pattern: SupportPattern;
  /** support density, % */
  density: number;
  /** interface density, % */
  interfaceDensity: number;
  /** bead width, µm */
  lineWidth: number;
  /** the least gap to the part, µm: the support areas keep more beside the part (supportXYDistance), this much under an overhang */
  keepOut: number;
  layerIndex: number;
}

/** Support lines run along x; interface lines cross them (and turn every layer) so they bridge the gaps. */
const SUPPORT_ANGLE = 0;

/** Paths of one layer: SUPPORT first, then SUPPORT-INTERFACE. `part` = the models' outlines on the layer. */
export function supportPaths(layer: SupportLayer, part: Paths, p: SupportPathParams): ExtrusionPath[] {
  const w = p.lineWidth;
  const out: ExtrusionPath[] = [];
  // beads stay inside the area: an outline half a width inside its edge holds the line ends
  // together (the column stands better) and the lines fill what lies inside the outline
  const rim = offset(layer.support, -w / 2);
  const body = [...rim.map((loop) => [...loop, loop[0], loop[1]]), ...fill(offset(rim, -w), p.pattern, p.density, w, SUPPORT_ANGLE)];
  const roofAngle = SUPPORT_ANGLE + 90 + (p.layerIndex % 2 === 0 ? 0 : 45);
  const roof = fill(offset(layer.interface, -w / 2), 'zigzag', p.interfaceDensity, w, roofAngle);
  // miter joins reach a little farther than round ones at corners: the safe side
  const keepOut = part.length > 0 ? offset(part, p.keepOut) : [];
  const clip = (lines: Paths) => (keepOut.length > 0 ? clipLines(lines, keepOut, false) : lines);
  for (const points of clip(body)) if (points.length >= 4) out.push({ type: 'SUPPORT', points, closed: false, width: w, model: -1 });
  for (const points of clip(roof)) if (points.length >= 4) out.push({ type: 'SUPPORT-INTERFACE', points, closed: false, width: w, model: -1 });
  return out;
}

/** Lines of one pattern in `area` (already shrunk to the bead centres), anchored to the global grid. */
function fill(area: Paths, pattern: SupportPattern, density: number, w: number, angle: number): Paths {
  if (area.length === 0 || !(density > 0)) return [];
  const d = Math.min(100, density);
  if (pattern === 'grid') {
    // two crossing families at the same total material as one family at `density`
    const spacing = (2 * w * 100) / d;
    const lines: Paths = [];
    gridFamily(area, axesOf(angle), spacing, 0, w / 2, lines);
    gridFamily(area, axesOf(angle + 90), spacing, 0, w / 2, lines);
    return lines;
  }
  const spacing = (w * 100) / d;
  const lines: Paths = [];
  gridFamily(area, axesOf(angle), spacing, 0, w / 2, lines);
  return pattern === 'zigzag' ? joinZigzag(lines, offset(area, w / 4), 3 * spacing) : lines;
}
