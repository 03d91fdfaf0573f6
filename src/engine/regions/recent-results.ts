// Line fills (sparse infill, skin) and the areas they fill, taken from the last few layers when they repeat.
// On a prismatic part an island's infill and skin areas repeat layer after layer point for point,
// and a pattern that alternates its direction every 2 or 3 layers draws the same lines again on
// the layer 2 or 3 below. Only the last LAYERS_KEPT layers are kept, so memory stays bounded; a
// hit is checked point for point, never trusted on the hash alone. Callers name in `key` every
// input besides the area that the lines depend on.
import type { Paths } from '../types.js';
import { hashPaths, samePaths } from '../geom/path-math.js';

/** Enough for patterns that repeat every 1, 2 or 3 layers (lines, grid, honeycomb…). */
const LAYERS_KEPT = 3;

interface Entry {
  area: Paths;
  key: string;
  lines: Paths;
}

export class RecentResults {
  /** [0] = the current layer's fills, [1] = the layer below's, … */
  private layers: Array<Map<number, Entry[]>> = [new Map()];
  /** calls answered from an earlier layer */
  hits = 0;

  /** `draw()` for `area`, or what it gave for the same area and key on one of the last layers. */
  get(area: Paths, key: string, draw: () => Paths): Paths {
    const h = hashPaths(area);
    for (const layer of this.layers) {
      const hit = layer.get(h)?.find((e) => e.key === key && samePaths(e.area, area));
      if (hit) {
        this.hits++;
        this.remember(h, hit);
        return hit.lines;
      }
    }
    const lines = draw();
    this.remember(h, { area, key, lines });
    return lines;
  }

  /** Call when a layer is done. */
  nextLayer(): void {
    this.layers.unshift(new Map());
    if (this.layers.length > LAYERS_KEPT + 1) this.layers.pop();
  }

  private remember(h: number, e: Entry): void {
    const current = this.layers[0];
    const list = current.get(h);
    if (!list) current.set(h, [e]);
    else if (!list.includes(e)) list.push(e);
  }
}
