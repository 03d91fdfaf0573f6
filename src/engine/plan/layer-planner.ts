// Plans one layer: extras (skirt, brim, support) first, then the islands in nearest-neighbour
// order, each island's features in print order; then the fan and the minimum layer time.
import type { ExtrusionPath } from '../types.js';
import type { SliceSettings } from '../settings.js';
import type { IslandPaths, LayerRegions } from '../regions/types.js';
import type { LayerPlan } from './types.js';
import { BoxGrid, boxDistance, boxOfPaths } from './box-grid.js';
import { hyp } from './length.js';
import { EdgeIndex } from './edge-index.js';
import type { CombRegion } from './comb.js';
import { LayerOps } from './layer-ops.js';
import { orderLoops, orderMonotonic, orderNearest, visitStart, type Visit } from './order.js';
import { wallVisits } from './walls.js';
import { solidClusters } from './solid-clusters.js';
import { beadArea, filamentPerUm3, freeSidesOf, layerHeightUm, pathSpeed, travelSpeed, type BeadContext, type PathRole } from './flow.js';
import { TravelPlanner, type TravelStats } from './travel.js';
import { capExtrusionSpeed, fanPercent, minLayerTimeCap } from './cooling.js';
import type { SeamContext } from './seam.js';

export interface PlanOptions {
  /** the point `aligned` seams gather at, µm (default: far behind the bed centre) */
  seamTarget?: { x: number; y: number };
  /** filled with travel counts when given (for tests and measurements) */
  travelStats?: TravelStats;
}

export interface PlannedLayer {
  plan: LayerPlan;
  end: { x: number; y: number };
}

/** Far behind the bed centre: aligned seams then sit at the back of each part, in line. */
export function defaultSeamTarget(s: SliceSettings): { x: number; y: number } {
  const cx = s.originCenter ? 0 : (s.bedWidth * 1000) / 2;
  const cy = s.originCenter ? 0 : (s.bedDepth * 1000) / 2;
  return { x: cx, y: cy + 1_000_000 };
}


/** A point to order the layer from when its start is unknown: its first path's start. */
function standInStart(layer: LayerRegions): { x: number; y: number } {
  const p = layer.extras[0]?.points ?? layer.islands[0]?.outline[0];
  return p && p.length >= 2 ? { x: p[0], y: p[1] } : { x: 0, y: 0 };
}

/** An island's gap fill and skin are grouped by place (solid-clusters.ts) up to this many paths. */
const MAX_CLUSTERED_PATHS = 4096;

/** Open lines grouped by their direction (whole degrees, either way along): one group per bridge. */
function byDirection(lines: ExtrusionPath[]): ExtrusionPath[][] {
  const groups = new Map<number, ExtrusionPath[]>();
  for (const l of lines) {
    const p = l.points, k = p.length;
    const deg = Math.round((Math.atan2(p[k - 1] - p[1], p[k - 2] - p[0]) * 180) / Math.PI + 360) % 180;
    const g = groups.get(deg);
    if (g) g.push(l);
    else groups.set(deg, [l]);
  }
  return [...groups.values()];
}

/** Paths with at least two points (a lone point extrudes nothing). */
function printable(paths: ExtrusionPath[]): ExtrusionPath[] {
  return paths.every((p) => p.points.length >= 4) ? paths : paths.filter((p) => p.points.length >= 4);
}

function combRegionOf(isl: IslandPaths, s: SliceSettings): CombRegion | null {
  if (isl.combArea.length === 0) return null;
  const polys = s.combing === 'noskin' && isl.hasSkin && isl.skinArea.length ? [...isl.combArea, ...isl.skinArea] : isl.combArea;
  const w = s.lineWidth * 1000;
  return { comb: new EdgeIndex(polys), allowance: (Math.max(1, s.wallCount) + 1) * w, graze: 2 * w, inset: Math.round(w / 4) };
}

/**
 * Plans one layer from the nozzle position `start` (the previous layer's end). Layers are planned
 * independently of each other given that position, so they can be spread over worker threads; a
 * thread that does not know where the previous layer ended passes null, and the layer's first move
 * is then retracted.
 * `layerCount` (the total number of layers) is part of the signature for decisions that need it;
 * nothing in the current rules does.
 */
export function planLayer(
  layer: LayerRegions,
  settings: SliceSettings,
  modelNames: string[],
  start: { x: number; y: number } | null,
  _layerCount: number,
  options: PlanOptions = {},
): PlannedLayer {
  const s = settings;
  const index = layer.index;
  const ops = new LayerOps(start, modelNames, standInStart(layer));
  const fan = fanPercent(index, s);
  if (index === 0 || fan !== fanPercent(index - 1, s)) ops.fan(fan);

  const perUm3 = filamentPerUm3(s);
  const heightUm = layerHeightUm(layer.height, index, s);
  // filament per µm of a path: its bead's cross-section (by its free sides) × the path's flow
  const ePerUmOf = (path: ExtrusionPath, role: PathRole, ctx: BeadContext) =>
    perUm3 * beadArea(path.width, heightUm, freeSidesOf(path, role, ctx)) * (path.flow ?? 1);
  const seam: SeamContext = { mode: s.seamPosition, target: options.seamTarget ?? defaultSeamTarget(s), seed: index, cache: new Map() };
  let outlineIndex: EdgeIndex | null = null;
  const outlines = () => (outlineIndex ??= new EdgeIndex(layer.islands.flatMap((i) => i.outline)));
  const travel = new TravelPlanner(s, layer.z, travelSpeed(index, s), outlines);
  // the first move of a layer retracts when retractAtLayerChange asks for it (the first move of
  // the print retracts anyway: it leaves the part, and the heated nozzle oozes, as the peers assume)
  let forceRetract = index > 0 && s.retractAtLayerChange;
  // whether the nozzle sits on a part's path (inside its outline); unknown at the layer start
  let inPart: boolean | undefined;
  // the comb region of the island the nozzle is in (undefined at the layer start: maybe any)
  let lastRegion: (() => CombRegion | null) | null | undefined;

  // Sparse infill lines whose ends lie close together along the area's edge are joined by an
  // extruded connector (as PrusaSlicer's rectilinear infill does): no travel, no retraction, and
  // the lines are anchored to each other. Only when the connector stays inside the comb area.
  const connectMax = s.infillDensity > 0 ? (1.5 * s.infillLineWidth * 1000 * 100) / Math.min(100, s.infillDensity) : 0;
  const connect = (v: Visit, prev: Visit, sx: number, sy: number, r: CombRegion | null, ePerUm: number, speed: number): boolean => {
    if (!r || v.path.type !== 'FILL') return false;
    // lines of different density regions end at their shared border: a connector there would add
    // material along it that neither region asked for
    if (prev.path.densityRegion !== v.path.densityRegion) return false;
    const d = Math.hypot(sx - ops.x, sy - ops.y);
    if (d === 0 || d > connectMax) return false;
    const hits: number[] = [];
    r.comb.crossings(ops.x, ops.y, sx, sy, hits);
    if (hits.length > 0 || !r.comb.contains(ops.x, ops.y)) return false;
    ops.extrudeVisit({ path: { ...v.path, points: [ops.x, ops.y, sx, sy], closed: false }, start: 0, reverse: false }, ePerUm, speed);
    return true;
  };

  const print = (visits: Visit[], role: PathRole, region: (() => CombRegion | null) | null, bead: (p: ExtrusionPath) => BeadContext = () => ({})) => {
    let previous: Visit | null = null;
    for (const v of visits) {
      const [sx, sy] = visitStart(v);
      if (role === 'infill' && previous !== null) {
        const ePerUm = ePerUmOf(v.path, role, bead(v.path));
        if (connect(v, previous, sx, sy, region ? region() : null, ePerUm, pathSpeed(v.path, role, index, s))) {
          ops.extrudeVisit(v, ePerUm, pathSpeed(v.path, role, index, s));
          previous = v;
          continue;
        }
      }
      previous = v;
      ops.feature(v.path.type, v.path.model, v.path.bridge === true);
      // from another island (or the skirt) no combed route can exist: islands are apart
      const from = lastRegion === undefined || lastRegion === region ? region : null;
      travel.travel(ops, sx, sy, from, forceRetract, inPart);
      forceRetract = false;
      inPart = region !== null;
      lastRegion = region;
      const ePerUm = ePerUmOf(v.path, role, bead(v.path));
      ops.extrudeVisit(v, ePerUm, pathSpeed(v.path, role, index, s));
    }
  };

  // bridges: one direction at a time, each in monotonic order, with the bridge fan while they print
  const printBridges = (lines: ExtrusionPath[], model: number, region: () => CombRegion | null) => {
    if (lines.length === 0) return;
    ops.feature('SKIN', model, true);
    // not in the fan-off layers at the bed (adhesion): the fan stays off there, bridges or not
    const bridgeFan = index + 1 <= s.fanOffLayers ? fan : s.bridgeFan;
    const fanChange = bridgeFan !== fan;
    if (fanChange) ops.fan(bridgeFan);
    for (const group of byDirection(lines)) print(orderMonotonic(group, ops.x, ops.y), 'skin', region);
    if (fanChange) ops.fan(fan);
  };

  // extras: consecutive runs of one type; loops start nearest to the nozzle
  const extras = printable(layer.extras);
  const extraSeam: SeamContext = { ...seam, mode: 'shortest', cache: undefined };
  for (let i = 0; i < extras.length; ) {
    let j = i;
    while (j < extras.length && extras[j].type === extras[i].type) j++;
    const run = extras.slice(i, j);
    const visits = run.every((p) => p.closed) ? orderLoops(run, extraSeam, ops.x, ops.y) : orderNearest(run, ops.x, ops.y);
    const skirtLoops = run[0].type === 'SKIRT' ? run.length : 1;
    print(visits, 'extra', null, () => ({ skirtLoops }));
    i = j;
  }

  // islands, nearest first
  const islands = new BoxGrid(layer.islands.map((isl) => boxOfPaths(isl.outline)));
  // inside several boxes (nested parts): the nearer centre breaks the tie
  const islandScore = (k: number) => {
    const b = islands.boxes[k];
    return boxDistance(b, ops.x, ops.y) * 1e3 + hyp((b[0] + b[2]) / 2 - ops.x, (b[1] + b[3]) / 2 - ops.y) * 1e-3;
  };
  for (let k = islands.nearest(ops.x, ops.y, islandScore, 1e3); k >= 0; k = islands.nearest(ops.x, ops.y, islandScore, 1e3)) {
    islands.remove(k);
    planIsland(layer.islands[k]);
  }

  function planIsland(isl: IslandPaths): void {
    let built: CombRegion | null | undefined;
    const region = () => (built === undefined ? (built = combRegionOf(isl, s)) : built);
    const walls = isl.walls.map(printable);
    const innermost = new Set(walls.length > 0 ? walls[walls.length - 1] : []);
    const islandHasWalls = walls.some((w) => w.length > 0);
    const bead = (p: ExtrusionPath): BeadContext => ({ innermostWall: innermost.has(p), islandHasWalls });
    const skin = printable(isl.skin);
    const bridges = skin.some((p) => p.bridge) ? skin.filter((p) => p.bridge) : [];
    const plainSkin = bridges.length ? skin.filter((p) => !p.bridge) : skin;
    // an island too thin for one wall is its gap fill alone: those lines are its outer surface, so
    // they are the outer wall, at its speed (a thin fin's top printed at the skin speed)
    const gaps = islandHasWalls ? printable(isl.gapFill) : printable(isl.gapFill).map(asOuterSurface(s));
    const printGaps = (paths: ExtrusionPath[]) => print(orderNearest(paths, ops.x, ops.y), 'gap', region, bead);
    const printSkin = (paths: ExtrusionPath[]) => print((s.monotonicSkin ? orderMonotonic : orderNearest)(paths, ops.x, ops.y), 'skin', region);
    const steps: Array<() => void> = [
      () => print(wallVisits(walls, s.outerWallFirst, seam, ops.x, ops.y), 'wall', region, bead),
      () => printGapsAndSkin(gaps, plainSkin, printGaps, printSkin),
      () => printBridges(bridges, isl.model, region),
    ];
    const infill = () => print(orderNearest(printable(isl.infill), ops.x, ops.y), 'infill', region);
    if (s.infillBeforeWalls) steps.unshift(infill);
    else steps.push(infill);
    for (const step of steps) step();
  }

  /**
   * Gap fill, then skin; where both lie in several places apart (solid-clusters.ts), place by
   * place, nearest first, each place's gap fill before its skin.
   */
  function printGapsAndSkin(
    gaps: ExtrusionPath[],
    skin: ExtrusionPath[],
    printGaps: (paths: ExtrusionPath[]) => void,
    printSkin: (paths: ExtrusionPath[]) => void,
  ): void {
    // (boxes that all overlap, such as long diagonal skin lines, make the grouping quadratic: a
    // layer with more paths than this keeps the plain order)
    const n = gaps.length + skin.length;
    const clusters = gaps.length > 0 && skin.length > 0 && n <= MAX_CLUSTERED_PATHS ? solidClusters(gaps, skin, s.lineWidth * 1000) : [];
    if (clusters.length <= 1) {
      printGaps(gaps);
      printSkin(skin);
      return;
    }
    const grid = new BoxGrid(clusters.map((c) => c.box));
    const score = (k: number) => boxDistance(grid.boxes[k], ops.x, ops.y);
    for (let k = grid.nearest(ops.x, ops.y, score); k >= 0; k = grid.nearest(ops.x, ops.y, score)) {
      grid.remove(k);
      if (clusters[k].gaps.length) printGaps(clusters[k].gaps);
      if (clusters[k].skin.length) printSkin(clusters[k].skin);
    }
  }

  const cap = minLayerTimeCap(ops.extrudedBySpeed, ops.otherTime, s);
  if (cap !== null) capExtrusionSpeed(ops.ops, cap);
  if (options.travelStats) {
    options.travelStats.straight += travel.stats.straight;
    options.travelStats.combed += travel.stats.combed;
    options.travelStats.retracted += travel.stats.retracted;
  }
  return { plan: { index, z: layer.z, height: layer.height, ops: ops.ops }, end: { x: ops.x, y: ops.y } };
}

/** A gap-fill line that is all there is of its island, printed as the outer wall (a new path: layers share theirs). */
function asOuterSurface(s: SliceSettings): (p: ExtrusionPath) => ExtrusionPath {
  return (p) => ({ ...p, type: 'WALL-OUTER', speed: p.speed ?? s.outerWallSpeed });
}
