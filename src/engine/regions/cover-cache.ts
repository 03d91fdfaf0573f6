// The common area of a run of layers, computed once for the two layers that ask for it. Skin
// detection intersects the inner areas of the N layers above a layer and of the N layers below it:
// the run above layer i is the run below layer i + N + 1, so every run would otherwise be
// intersected twice. Entries are found by the identity of the layers' area objects (no hashing),
// and dropped once no later layer can ask for them.
import type { Paths } from '../types.js';
import { commonArea } from './skins.js';

interface Entry {
  run: Paths[];
  area: Paths;
  layer: number;
}

export class CoverCache {
  private byFirst = new Map<Paths, Entry[]>();
  private layer = 0;
  hits = 0;

  /** @param keepLayers how many layers an entry may wait for its second use */
  constructor(private readonly keepLayers: number) {}

  /** commonArea(run), where `run` lists the layers' areas bottom to top. */
  common(run: Array<Paths | undefined>): Paths {
    if (run.length === 0) return [];
    for (const o of run) if (!o || o.length === 0) return [];
    const areas = run as Paths[];
    const list = this.byFirst.get(areas[0]);
    const hit = list?.find((e) => e.run.length === areas.length && e.run.every((a, k) => a === areas[k]));
    if (hit) {
      this.hits++;
      return hit.area;
    }
    const entry: Entry = { run: areas.slice(), area: commonArea(areas), layer: this.layer };
    if (list) list.push(entry);
    else this.byFirst.set(areas[0], [entry]);
    return entry.area;
  }

  /** Call when a layer is done. */
  nextLayer(): void {
    this.layer++;
    for (const [first, list] of this.byFirst) {
      const kept = list.filter((e) => this.layer - e.layer <= this.keepLayers);
      if (kept.length === 0) this.byFirst.delete(first);
      else if (kept.length !== list.length) this.byFirst.set(first, kept);
    }
  }
}
