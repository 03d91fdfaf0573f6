// Plans of repeated layers: a straight-walled part, or a plate of copies, has runs of layers whose
// paths are the same point for point (walls repeat, sparse infill alternates its direction every
// layer). Such a layer, started from where the same earlier layer started, plans to the same moves:
// they are reused, lifted to the layer's height, instead of ordered and combed again.
import type { ExtrusionPath, Paths } from '../types.js';
import type { SliceSettings } from '../settings.js';
import type { IslandPaths, LayerRegions } from '../regions/types.js';
import type { LayerPlan, PlanOp } from './types.js';
import { planLayer, type PlannedLayer, type PlanOptions } from './layer-planner.js';
import type { TravelStats } from './travel.js';
import { fanPercent } from './cooling.js';
import { layerHeightUm } from './flow.js';

/** How many recent layers a layer is compared with (sparse infill repeats every 2nd, grids every 4th). */
const RECENT = 4;

interface Planned {
  hash: number;
  context: string;
  start: { x: number; y: number } | null;
  layer: LayerRegions;
  plan: LayerPlan;
  end: { x: number; y: number };
  travel?: TravelStats;
}

export class RepeatedLayerPlanner {
  private readonly recent: Planned[] = [];
  /** layers whose plan was reused (for tests and measurements) */
  reused = 0;

  constructor(
    private readonly s: SliceSettings,
    private readonly modelNames: string[],
    private readonly layerCount: number,
    private readonly options: PlanOptions,
  ) {}

  plan(layer: LayerRegions, start: { x: number; y: number } | null): PlannedLayer {
    const hash = hashLayer(layer);
    const context = planContext(layer, this.s);
    for (const p of this.recent) {
      if (p.hash === hash && p.context === context && samePoint(p.start, start) && sameLayer(p.layer, layer)) {
        this.reused++;
        if (this.options.travelStats && p.travel) addTravelStats(this.options.travelStats, p.travel);
        return { plan: lifted(p.plan, layer), end: p.end };
      }
    }
    // the layer's own travel counts are kept with its plan, to be counted again when it is reused
    const travel = this.options.travelStats ? { straight: 0, combed: 0, retracted: 0 } : undefined;
    const planned = planLayer(layer, this.s, this.modelNames, start, this.layerCount, travel ? { ...this.options, travelStats: travel } : this.options);
    if (travel) addTravelStats(this.options.travelStats!, travel);
    this.recent.unshift({ hash, context, start, layer, plan: planned.plan, end: planned.end, ...(travel ? { travel } : {}) });
    if (this.recent.length > RECENT) this.recent.pop();
    return planned;
  }
}

function addTravelStats(into: TravelStats, from: TravelStats): void {
  into.straight += from.straight;
  into.combed += from.combed;
  into.retracted += from.retracted;
}

/**
 * What a layer's plan depends on besides its paths and its start: the first layer's speeds, the fan
 * (and whether it changes here), the extrusion height, and in `random` seam mode the layer itself.
 */
function planContext(layer: LayerRegions, s: SliceSettings): string {
  const i = layer.index;
  const fan = fanPercent(i, s);
  const fanChanges = i === 0 || fan !== fanPercent(i - 1, s);
  return `${i === 0 ? 'first' : 'later'} ${fan} ${fanChanges} ${layerHeightUm(layer.height, i, s)} ${s.seamPosition === 'random' ? i : ''}`;
}

/** The plan of an equal layer at this layer's height: the same moves, z-hops lifted by the difference. */
function lifted(plan: LayerPlan, layer: LayerRegions): LayerPlan {
  const dz = layer.z - plan.z;
  const ops: PlanOp[] = plan.ops.map((o) => (o.op === 'travel' && o.z !== undefined ? { ...o, z: o.z + dz } : { ...o }));
  return { index: layer.index, z: layer.z, height: layer.height, ops };
}

function samePoint(a: { x: number; y: number } | null, b: { x: number; y: number } | null): boolean {
  return a === null || b === null ? a === b : a.x === b.x && a.y === b.y;
}

// ── equality and hash of a layer's paths ─────────────────────────────────────────────────────────

/** The fields compared; a layer or island with any other (added later) is never taken as equal. */
const LAYER_FIELDS = new Set(['index', 'z', 'height', 'islands', 'extras']);
const ISLAND_FIELDS = new Set(['model', 'outline', 'combArea', 'walls', 'gapFill', 'skin', 'infill', 'hasSkin', 'skinArea']);
const onlyKnown = (o: object, known: Set<string>) => Object.keys(o).every((k) => known.has(k));

function sameLayer(a: LayerRegions, b: LayerRegions): boolean {
  if (!onlyKnown(a, LAYER_FIELDS) || !onlyKnown(b, LAYER_FIELDS)) return false;
  if (a.islands.length !== b.islands.length || !samePathList(a.extras, b.extras)) return false;
  for (let i = 0; i < a.islands.length; i++) if (!sameIsland(a.islands[i]!, b.islands[i]!)) return false;
  return true;
}

function sameIsland(a: IslandPaths, b: IslandPaths): boolean {
  if (!onlyKnown(a, ISLAND_FIELDS) || !onlyKnown(b, ISLAND_FIELDS)) return false;
  if (a.model !== b.model || a.hasSkin !== b.hasSkin || a.walls.length !== b.walls.length) return false;
  if (!samePolys(a.outline, b.outline) || !samePolys(a.combArea, b.combArea) || !samePolys(a.skinArea, b.skinArea)) return false;
  for (let k = 0; k < a.walls.length; k++) if (!samePathList(a.walls[k]!, b.walls[k]!)) return false;
  return samePathList(a.gapFill, b.gapFill) && samePathList(a.skin, b.skin) && samePathList(a.infill, b.infill);
}

function samePathList(a: ExtrusionPath[], b: ExtrusionPath[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!samePath(a[i]!, b[i]!)) return false;
  return true;
}

/** Every field, whatever ExtrusionPath holds now or later: a field this does not know still counts. */
function samePath(a: ExtrusionPath, b: ExtrusionPath): boolean {
  if (a === b) return true;
  const ka = Object.keys(a) as (keyof ExtrusionPath)[];
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    if (k === 'points') {
      if (!sameNumbers(a.points, b.points)) return false;
    } else if (a[k] !== b[k]) return false;
  }
  return true;
}

function samePolys(a: Paths, b: Paths): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!sameNumbers(a[i]!, b[i]!)) return false;
  return true;
}

function sameNumbers(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A quick hash of the layer's path points and counts (equality is checked in full on a match). */
function hashLayer(layer: LayerRegions): number {
  let h = 0x811c9dc5 ^ layer.islands.length;
  const mix = (v: number) => {
    h = Math.imul(h ^ (v | 0), 0x01000193);
  };
  const paths = (list: ExtrusionPath[]) => {
    mix(list.length);
    for (const p of list) {
      mix(p.points.length);
      for (let i = 0; i < p.points.length; i += 7) mix(p.points[i]!);
      mix(p.width);
    }
  };
  for (const isl of layer.islands) {
    mix(isl.outline.length);
    for (const loop of isl.outline) {
      mix(loop.length);
      if (loop.length > 0) mix(loop[0]!);
    }
    for (const w of isl.walls) paths(w);
    paths(isl.gapFill);
    paths(isl.skin);
    paths(isl.infill);
  }
  paths(layer.extras);
  return h >>> 0;
}
