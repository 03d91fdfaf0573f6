// Honeycomb: regular hexagons (edge e) traced by zigzag polylines. Each zigzag runs along one band
// of height h = e·√3/2 between two rows of hexagon centres, alternating flat runs (hexagon edges
// parallel to the zigzag) with 60° diagonals. Neighbouring zigzags share their flat runs; to avoid
// printing those twice on the same spot, each zigzag keeps its flat runs half a line width inside
// its band, so a shared edge becomes two beads side by side, while the diagonals stay exactly on
// the hexagon edges. The zigzag direction turns 60° every layer (a hexagon centre sits at the
// origin, so the cells stay where they are and the doubled edges take turns).
import type { Path, Paths } from '../types.js';
import type { InfillParams } from './types.js';
import { clipPolylines } from './polyclip.js';
import { axesOf, boundsOf, mod, projectBox } from './raster.js';

/**
 * Edge length for a density fraction d: per period 3e a zigzag is 4e − 2·w/√3 long (the flat runs
 * grow and the diagonals shrink by the half-width inset) and zigzags are h apart, so
 * d = w·(4e − 2w/√3) / (3e·h); solved for e.
 */
export function honeycombEdge(lineWidth: number, density: number): number {
  const d = Math.min(density / 100, 1);
  return (lineWidth * (4 + 2 * Math.sqrt(4 - 3 * d))) / (3 * Math.sqrt(3) * d);
}

export function honeycombPattern(area: Paths, p: InfillParams): Paths {
  const box = boundsOf(area);
  if (!box) return [];
  const w = p.lineWidth;
  const e = honeycombEdge(w, p.density);
  const h = (e * Math.sqrt(3)) / 2;
  const inset = w / 2;
  // how far a flat run's end moves along the zigzag when the run sits `inset` inside its band
  const delta = (inset * e) / (2 * h);
  const ax = axesOf(p.angle + 60 * mod(p.layerIndex, 3));
  const [u0, u1] = projectBox(box, ax.dx, ax.dy);
  const [v0, v1] = projectBox(box, ax.nx, ax.ny);
  const period = 3 * e;
  const m0 = Math.floor(u0 / period) - 1;
  const m1 = Math.ceil(u1 / period) + 1;
  const toXY = (path: Path, u: number, v: number) => {
    path.push(Math.round(u * ax.dx + v * ax.nx), Math.round(u * ax.dy + v * ax.ny));
  };

  const lines: Paths = [];
  for (let j = Math.floor(v0 / h) - 1; j <= Math.ceil(v1 / h); j++) {
    const lo = j * h;
    const hi = lo + h;
    // run A (centred on a hexagon column at u = 3e·m) lies on the band's top edge for even bands,
    // on its bottom edge for odd ones; run B (centred at u = 3e·m + 1.5e) on the other edge
    const even = mod(j, 2) === 0;
    const vA = even ? hi - inset : lo + inset;
    const vB = even ? lo + inset : hi - inset;
    const path: Path = [];
    for (let m = m0; m <= m1; m++) {
      const c = m * period;
      toXY(path, c - e / 2 - delta, vA);
      toXY(path, c + e / 2 + delta, vA);
      toXY(path, c + e - delta, vB);
      toXY(path, c + 2 * e + delta, vB);
    }
    lines.push(path);
  }
  return clipPolylines(lines, area, w / 2);
}
