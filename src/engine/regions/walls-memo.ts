// Walls of an island that was already on the layer below, taken from there instead of offset again.
// A prismatic part (a box, a plate with holes, a grid of blocks) cuts to the very same cross-section
// layer after layer, point for point; its walls, inner area and gaps are then the same too, and
// they were about a third of such a layer's work. Only the previous layer is remembered, so memory
// stays bounded, and a hit is checked point for point, never trusted on the hash alone.
import type { Paths } from '../types.js';
import { hashPaths, samePaths } from '../geom/path-math.js';
import { cleanIslands } from '../geom/clipper.js';
import { computeWalls, type WallParams, type WallResult } from './walls.js';

interface Entry {
  island: Paths;
  params: WallParams;
  result: WallResult;
}

function sameParams(a: WallParams, b: WallParams): boolean {
  return a.width === b.width && a.wallCount === b.wallCount && a.model === b.model && a.minGapWidth === b.minGapWidth && a.gapFill === b.gapFill;
}

export class WallsMemo {
  private previous = new Map<number, Entry[]>();
  private current = new Map<number, Entry[]>();
  private previousSections = new Map<number, { outline: Paths; islands: Paths[] }>();
  private currentSections = new Map<number, { outline: Paths; islands: Paths[] }>();
  /** islands whose walls came from the layer below */
  hits = 0;

  /** islands(outline), or the previous layer's split when model `model`'s section repeats it exactly. */
  islands(outline: Paths, model: number): Paths[] {
    const prev = this.previousSections.get(model);
    const split = prev && samePaths(prev.outline, outline) ? prev.islands : sectionIslands(outline);
    this.currentSections.set(model, { outline, islands: split });
    return split;
  }

  /** computeWalls(island, params), or the previous layer's result for the identical island. */
  walls(island: Paths, params: WallParams): WallResult {
    const key = hashPaths(island);
    const hit = this.previous.get(key)?.find((e) => sameParams(e.params, params) && samePaths(e.island, island));
    if (hit) this.hits++;
    const result = hit ? copyResult(hit.result) : computeWalls(island, params);
    const list = this.current.get(key);
    const entry: Entry = { island, params, result };
    if (list) list.push(entry);
    else this.current.set(key, [entry]);
    return result;
  }

  /** Call once a layer's islands are done: they become the ones the next layer is compared with. */
  nextLayer(): void {
    this.previous = this.current;
    this.current = new Map();
    this.previousSections = this.currentSections;
    this.currentSections = new Map();
  }
}

/**
 * New path objects over the same point arrays (nothing downstream changes a point array, but
 * path objects get per-layer marks): each layer owns its own walls.
 */
function copyResult(r: WallResult): WallResult {
  return {
    walls: r.walls.map((loops) => loops.map((p) => ({ ...p }))),
    innerArea: r.innerArea,
    combArea: r.combArea,
    gaps: r.gaps,
  };
}

/**
 * The islands of a layer's cross-section. The slicer hands over clean areas only (loops that neither
 * cross nor touch, wound by nesting, or else the union's output), so a lone counter-clockwise loop
 * is one island as it stands and needs no polygon tree.
 */
export function sectionIslands(section: Paths): Paths[] {
  return cleanIslands(section);
}
