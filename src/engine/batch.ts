// A layer batch: everything from cross-sections to planned operations for a contiguous range of
// layers. Batches are independent (each slices the few neighbouring layers skin detection needs),
// so a caller may run them on several threads; `slice()` runs them in order when it has no executor.
import type { ModifierSpec, Paths } from './types.js';
import { throwIfAborted } from './types.js';
import type { SliceSettings } from './settings.js';
import type { LayerSpec } from './setup/layer-heights.js';
import { sliceMeshSteps } from './layers/index.js';
import { YIELD_AFTER_MS, drain, paced, runYielding } from './steps.js';
import { wallsForLayer, fillForLayer, innerAreasByModel, type IslandWalls, type LayerGeometry } from './regions/build.js';
import type { LayerRegions } from './regions/types.js';
import { RecentResults } from './regions/recent-results.js';
import { airBelowReach } from './regions/air-below.js';
import { withoutOverlaps } from './regions/overlap.js';
import type { WallResult } from './regions/walls.js';
import { CoverCache } from './regions/cover-cache.js';
import { CloudCoverCheck, type UncoveredSpan } from './regions/cloud-cover.js';
import type { FieldUm, LayerModifier } from './regions/density.js';
import { skirt } from './adhesion/skirt.js';
import { brim } from './adhesion/brim.js';
import { raftLayerPaths } from './adhesion/raft.js';
import { overhangXYDistance, type SupportLayer } from './support/areas.js';
import { supportPaths } from './support/paths.js';
import { defaultSeamTarget } from './plan/index.js';
import { RepeatedLayerPlanner } from './plan/repeated-layers.js';
import type { LayerPlan } from './plan/types.js';
import { encodePlans, type EncodedPlans } from './plan/codec.js';
import { ToolpathBudget } from './plan/toolpath-budget.js';

export interface BatchModel {
  /** placed positions, µm */
  positions: Float64Array;
  indices: Uint32Array;
  /** 'modifier': sliced only to change the infill density of the models it meets, never printed */
  role?: 'model' | 'modifier';
  modifier?: ModifierSpec;
  /** density field of a model or modifier, µm */
  field?: FieldUm;
  /** the triangles (ascending ids) that meet this batch's planes, when the caller shared a large mesh
   *  out among batches (trianglesPerRange over batchPlanes); without it the batch looks at them all */
  triangles?: Uint32Array;
}

export interface LayerBatch {
  models: BatchModel[];
  modelNames: string[];
  /** every layer of the job */
  specs: LayerSpec[];
  /** this batch's layers: [from, to) */
  from: number;
  to: number;
  /** layers after `from` planned from an unknown nozzle position, as `from` is: where the job's other
   *  batches start when one thread runs it as one batch (the G-code must not depend on the threads) */
  restarts?: number[];
  settings: SliceSettings;
  /** support areas of this batch's layers: [i − from] for layer i (from the support pre-pass) */
  support?: Array<SupportLayer | undefined>;
  /** the raft's outline, µm, when the job has a raft (its layers are the specs marked `raft`) */
  raft?: Paths;
  /**
   * the cross-sections of every layer of the job's one model, when the support pass has cut them
   * already (main thread only: copying them to a thread would cost more than cutting them again).
   * The batch takes them over and lets them go layer by layer.
   */
  sections?: Array<Paths | undefined>;
  /** the most bytes this batch's packed plans may take (SliceOptions.maxToolpathBytes) */
  maxToolpathBytes?: number;
}

export interface BatchResult {
  from: number;
  to: number;
  plans: LayerPlan[];
  timings: Record<string, number>;
  /** where models reach outside a point-cloud modifier that touches them (cloud-cover.ts) */
  uncovered?: UncoveredSpan[];
}

export interface EncodedBatchResult {
  from: number;
  to: number;
  /** the batch's plans, packed a chunk of layers at a time (in layer order) */
  encoded: EncodedPlans[];
  timings: Record<string, number>;
  uncovered?: UncoveredSpan[];
}

/**
 * Progress of a batch, in layers: each layer counts 1 in all, in three steps (its walls, its fill,
 * its plan), so that a job of few slow layers (a thousand overlapping models) moves its bar as each
 * is walled, not only once a whole chunk of 32 is planned.
 */
export type LayerProgress = (layers: number) => void;
const WALLS_SHARE = 0.3;
const FILL_SHARE = 0.4;
const PLAN_SHARE = 1 - WALLS_SHARE - FILL_SHARE;

/** Options of runLayerBatch. */
export interface BatchOptions {
  /** hands the plans over in chunks of `chunkLayers` layers (default 32) as they are made instead of
   *  returning them: walls, regions and op objects then exist for about one chunk at a time */
  onChunk?: (plans: LayerPlan[]) => void;
  chunkLayers?: number;
}

/**
 * Runs batches on other threads (src/runner/layer-pool.ts, which owns the threads). `onLayer` is
 * called as layers finish (for progress); `onResult` sees each batch's result as it comes in; a throw there
 * fails the run with that error (the pipeline's toolpath budget across batches).
 */
export type LayerExecutor = ((
  batches: LayerBatch[],
  onLayer: LayerProgress,
  signal?: AbortSignal,
  onResult?: (r: EncodedBatchResult) => void,
) => Promise<EncodedBatchResult[]>) & {
  /** how many batches it runs at once; with one, the pipeline hands it all the layers as one batch */
  threads?: number;
};

export function runLayerBatch(b: LayerBatch, onLayer?: LayerProgress, signal?: AbortSignal, options: BatchOptions = {}): BatchResult {
  return drain(layerBatchSteps(b, onLayer, signal, options));
}

/**
 * The same, giving the event loop a turn whenever YIELD_AFTER_MS of work have gone by: a slice on the
 * main thread (the CLI's small models) otherwise held it for the whole slice, and Ctrl-C's handler,
 * which aborts the signal, ran only once the slice was done (37 s on a grid at 0.01 mm layers; a
 * chunk of 32 layers of cold code was 1.6 s of the Stanford bunny at 0.06 mm).
 */
export function runLayerBatchYielding(b: LayerBatch, onLayer?: LayerProgress, signal?: AbortSignal, options: BatchOptions = {}): Promise<BatchResult> {
  return runYielding(paced(layerBatchSteps(b, onLayer, signal, options), YIELD_AFTER_MS), signal);
}

/** runLayerBatch's work: it yields after each layer's walls, fill and plan, and inside the section cut. */
function* layerBatchSteps(b: LayerBatch, onLayer: LayerProgress | undefined, signal: AbortSignal | undefined, options: BatchOptions): Generator<void, BatchResult> {
  const s = b.settings;
  const timings: Record<string, number> = {};
  let t0 = performance.now();
  const [lo, hi] = batchPlanes(b.from, b.to, b.specs.length, s);
  const zs = b.specs.slice(lo, hi).map((l) => l.sliceZ);
  const precut = b.models.length === 1 ? b.sections : undefined;
  b.sections = undefined;
  const sections: Array<Array<Paths | undefined>> = [];
  if (precut) sections.push(precut.slice(lo, hi));
  else {
    for (const m of b.models) sections.push(yield* sliceMeshSteps(m.positions, m.indices, zs, undefined, m.triangles));
  }
  // modifiers in ascending priority (stable: equal priorities keep their order)
  const modifierOrder = b.models
    .map((m, i) => i)
    .filter((i) => b.models[i].role === 'modifier')
    .sort((x, y) => (b.models[x].modifier?.priority ?? 0) - (b.models[y].modifier?.priority ?? 0) || x - y);
  const printedModels = b.models.filter((m) => m.role !== 'modifier').length;
  const carved: Array<Paths[] | undefined> = [];
  const varies = modifierOrder.length > 0 || b.models.some((m) => m.field !== undefined);
  const geometryOf = (j: number): LayerGeometry | undefined => {
    if (j < lo || j >= hi) return undefined;
    const l = b.specs[j];
    const own = () => sections.map((layers, m) => (b.models[m].role === 'modifier' ? [] : (layers[j - lo] ?? [])));
    // several printed models: the overlaps carved once per layer (walls and fill both ask)
    const outlines = printedModels > 1 ? (carved[j - lo] ??= withoutOverlaps(own())) : own();
    // z in the model's frame (density fields, z-dependent patterns); a raft raises only the nozzle
    const g: LayerGeometry = { index: j, z: l.sliceZ + l.height / 2, height: l.height, outlines };
    if (j > 0 && b.specs[j - 1].raft && !l.raft) g.onRaft = true;
    if (varies) {
      const modifiers: LayerModifier[] = [];
      for (const m of modifierOrder) {
        const spec = b.models[m].modifier ?? { densityFactor: 1, priority: 0 };
        modifiers.push({ section: sections[m][j - lo] ?? [], priority: spec.priority, density: spec.densityFactor * 100, field: b.models[m].field });
      }
      g.density = { fields: b.models.map((m) => (m.role === 'modifier' ? undefined : m.field)), modifiers };
    }
    return g;
  };
  timings.slice = performance.now() - t0;

  // walls of the batch and of the neighbours skin detection looks at: made a chunk ahead, dropped
  // once no later layer looks at them
  const walls: Array<IslandWalls[] | undefined> = [];
  const inner: Array<Paths[] | undefined> = [];
  let wallsMade = lo;
  // repeated layers: island splits and walls from the layer below, fills from the last three (the
  // patterns repeat every 1, 2 or 3 layers)
  const wallsReuse = { islands: new RecentResults<Paths[]>(1), walls: new RecentResults<WallResult>(1) };
  const recentFills = new RecentResults<unknown>(3);
  const covers = new CoverCache(s.topLayers + s.bottomLayers + 1);
  const clouds = new CloudCoverCheck(b.models);
  function* makeWalls(end: number): Generator<void, void> {
    for (; wallsMade < end; wallsMade++) {
      const j = wallsMade;
      if ((j & 3) === 0) throwIfAborted(signal);
      walls[j - lo] = wallsForLayer(geometryOf(j)!, s, wallsReuse);
      inner[j - lo] = innerAreasByModel(walls[j - lo]!, b.models.length);
      // the neighbours' walls (below b.from, above b.to) are other batches' progress
      if (j >= b.from && j < b.to) onLayer?.(WALLS_SHARE);
      yield;
    }
  }
  const opts = { seamTarget: defaultSeamTarget(s) };
  const planner = new RepeatedLayerPlanner(s, b.modelNames, b.specs.length, opts);
  // where the start G-code left the nozzle (a purge line, a park point) is not known, and a batch
  // after the first does not know where the previous layer ended: null lets the planner retract and
  // go straight to its first path (a z-hop lifts on the way there, not at a made-up point)
  let pos: { x: number; y: number } | null = null;
  const restarts = new Set(b.restarts);
  const plans: LayerPlan[] = [];
  const chunk = options.onChunk ? Math.max(1, options.chunkLayers ?? 32) : Math.max(1, b.to - b.from);
  let tWalls = 0;
  let tFill = 0;
  let tPlan = 0;
  for (let c = b.from; c < b.to; c += chunk) {
    const cEnd = Math.min(b.to, c + chunk);
    t0 = performance.now();
    yield* makeWalls(Math.min(hi, cEnd + s.topLayers));
    tWalls += performance.now() - t0;
    t0 = performance.now();
    const regions: LayerRegions[] = [];
    for (let i = c; i < cEnd; i++) {
      if ((i & 3) === 0) throwIfAborted(signal);
      const g = geometryOf(i)!;
      if (clouds.active) clouds.check(i, (m) => (b.models[m]!.role === 'modifier' ? (sections[m]![i - lo] ?? []) : g.outlines[m]!));
      const layer = fillForLayer(g, walls[i - lo]!, (j) => (j < lo || j >= hi ? undefined : inner[j - lo]), s, recentFills, covers);
      recentFills.nextLayer();
      covers.nextLayer();
      layer.z = b.specs[i].z;
      if (i === 0) addAdhesion(layer, g, b, s);
      addRaftAndSupport(layer, g, b, s);
      regions.push(layer);
      onLayer?.(FILL_SHARE);
      yield;
    }
    tFill += performance.now() - t0;
    for (let j = lo; j < cEnd - s.bottomLayers - airBelowReach(s); j++) {
      walls[j - lo] = undefined;
      inner[j - lo] = undefined;
    }
    // nor at the cross-sections before the next chunk (their walls are made)
    for (const layers of sections) for (let j = lo; j < cEnd; j++) layers[j - lo] = undefined;
    for (let j = lo; j < cEnd; j++) carved[j - lo] = undefined;

    t0 = performance.now();
    const chunkPlans: LayerPlan[] = options.onChunk ? [] : plans;
    for (const layer of regions) {
      throwIfAborted(signal);
      if (restarts.has(layer.index)) pos = null;
      const { plan, end } = planner.plan(layer, pos);
      chunkPlans.push(plan);
      pos = end;
      onLayer?.(PLAN_SHARE);
      yield;
    }
    options.onChunk?.(chunkPlans);
    tPlan += performance.now() - t0;
  }
  timings.walls = tWalls;
  timings.fill = tFill;
  timings.plan = tPlan;
  const result: BatchResult = { from: b.from, to: b.to, plans, timings };
  if (clouds.active) result.uncovered = clouds.result();
  return result;
}

/** Layers planned at a time before they are packed (walls, regions and op objects exist for about
 *  this many layers at once, whether the batch is a sixteenth of the job or the whole of it). */
export const CHUNK_LAYERS = 32;

/** The same, with the plans packed chunk by chunk for transfer between threads. */
export function runLayerBatchEncoded(b: LayerBatch, onLayer?: LayerProgress, signal?: AbortSignal): EncodedBatchResult {
  const encoded: EncodedPlans[] = [];
  const budget = new ToolpathBudget(b.maxToolpathBytes);
  const onChunk = (p: LayerPlan[]) => {
    const e = encodePlans(p);
    encoded.push(e);
    budget.addPacked(e);
  };
  const r = runLayerBatch(b, onLayer, signal, { chunkLayers: CHUNK_LAYERS, onChunk });
  const result: EncodedBatchResult = { from: r.from, to: r.to, encoded, timings: r.timings };
  if (r.uncovered) result.uncovered = r.uncovered;
  return result;
}

/** Raft paths on raft layers, support paths where the pre-pass found support, after the skirt. */
function addRaftAndSupport(layer: LayerRegions, g: LayerGeometry, b: LayerBatch, s: SliceSettings): void {
  const spec = b.specs[g.index];
  if (spec.raft && b.raft) {
    const count = b.specs.filter((l) => l.raft).length;
    layer.extras.push(...raftLayerPaths(b.raft, g.index, count, s));
  }
  const sup = b.support?.[g.index - b.from];
  if (!sup) return;
  const paths = supportPaths(sup, g.outlines.flat(), {
    pattern: s.supportPattern,
    density: s.supportDensity,
    interfaceDensity: s.supportInterfaceDensity,
    lineWidth: Math.round((g.index === 0 ? s.firstLayerLineWidth : s.lineWidth) * 1000),
    // the areas keep the XY distance beside the part and the overhang distance under it: the last
    // clip keeps the nearer of the two
    keepOut: overhangXYDistance(s),
    layerIndex: g.index,
  });
  // On the first layer above a raft the part keeps the air gap (it must come off), but support must
  // stand on the raft: its beads fill the gap too, so they are made that much taller (a gap of 0.25 mm
  // under a 0.2 mm bead left support columns dropped loose onto the raft).
  const below = b.specs[g.index - 1];
  if (g.onRaft && below) {
    const rise = spec.z - below.z;
    if (rise > spec.height) for (const p of paths) p.flow = (p.flow ?? 1) * (rise / spec.height);
  }
  layer.extras.push(...paths);
}

function addAdhesion(layer0: LayerRegions, g: LayerGeometry, b: LayerBatch, s: SliceSettings): void {
  // the skirt goes around everything on the first layer: the raft, else the part and its support
  const sup = b.support?.[0 - b.from];
  const first = b.raft && b.specs[0]?.raft ? b.raft : [...g.outlines.flat(), ...(sup ? [...sup.support, ...sup.interface] : [])];
  const w = Math.round(s.firstLayerLineWidth * 1000);
  if (s.adhesionType === 'skirt' || s.adhesionType === 'raft') {
    layer0.extras.push(
      ...skirt(first, {
        distance: Math.round(s.skirtDistance * 1000),
        loops: s.skirtLoops,
        minLength: Math.round(s.skirtMinLength * 1000),
        width: w,
      }),
    );
  } else if (s.adhesionType === 'brim') {
    layer0.extras.push(...brim(first, s.brimWidth, w));
  }
}

/**
 * The layers a batch of layers [from, to) cuts: skin detection looks topLayers above and bottomLayers
 * below (one more below at 0 % infill, for the hollow of the layer below: air-below.ts).
 */
export function batchPlanes(from: number, to: number, layerCount: number, s: Pick<SliceSettings, 'topLayers' | 'bottomLayers' | 'infillDensity'>): [number, number] {
  return [Math.max(0, from - s.bottomLayers - airBelowReach(s)), Math.min(layerCount, to + s.topLayers)];
}

/** Splits `count` layers into about `parts` contiguous batches of equal length (at least 8 layers each). */
export function splitLayers(count: number, parts: number): Array<[number, number]> {
  const n = Math.max(1, Math.min(parts, Math.ceil(count / 8)));
  const out: Array<[number, number]> = [];
  for (let i = 0; i < n; i++) {
    const from = Math.floor((i * count) / n);
    const to = Math.floor(((i + 1) * count) / n);
    if (to > from) out.push([from, to]);
  }
  return out;
}
