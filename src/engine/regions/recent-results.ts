// Results the last few layers computed, taken again when a layer repeats their input. A prismatic
// part (a box, a plate with holes, a grid of blocks) cuts to the very same cross-section layer after
// layer, point for point: its island split, walls, infill and skin areas repeat, and a pattern that
// alternates its direction every 2 or 3 layers draws the same lines again 2 or 3 layers up. Only the
// last `layersKept` layers are kept, so memory stays bounded; a hit is checked point for point, never
// trusted on the hash alone. Callers name in `key` every input besides the area the result depends
// on, and treat results as read-only: later layers share them.
import type { Paths } from '../types.js';
import { hashPaths, samePaths } from '../geom/path-math.js';

interface Entry<T> {
  area: Paths;
  key: string;
  result: T;
}

export class RecentResults<T> {
  /** [0] = the current layer's, [1] = the layer below's, … */
  private layers: Array<Map<number, Entry<T>[]>> = [new Map()];
  /** calls answered from an earlier layer */
  hits = 0;

  /** @param layersKept how many layers below the current one are searched */
  constructor(private readonly layersKept: number) {}

  /** `compute()` for `area`, or what it gave for the same area and key on one of the last layers. */
  get(area: Paths, key: string, compute: () => T): T {
    const h = hashPaths(area);
    for (const layer of this.layers) {
      const hit = layer.get(h)?.find((e) => e.key === key && samePaths(e.area, area));
      if (hit) {
        this.hits++;
        this.remember(h, hit);
        return hit.result;
      }
    }
    const result = compute();
    this.remember(h, { area, key, result });
    return result;
  }

  /** Call when a layer is done. */
  nextLayer(): void {
    this.layers.unshift(new Map());
    if (this.layers.length > this.layersKept + 1) this.layers.pop();
  }

  private remember(h: number, e: Entry<T>): void {
    const current = this.layers[0];
    const list = current.get(h);
    if (!list) current.set(h, [e]);
    else if (!list.includes(e)) list.push(e);
  }
}
