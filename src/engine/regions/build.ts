// Builds each layer's printable regions from the sliced outlines, in two passes that each work on
// one layer at a time (so they can be spread over threads): walls first, then skins and infill,
// which need the neighbouring layers' outlines.
import type { ExtrusionPath, Paths } from '../types.js';
import type { SliceSettings } from '../settings.js';
import type { IslandPaths, LayerRegions } from './types.js';
import { cleanIslands, difference, offset } from '../geom/clipper.js';
import { computeWalls, type WallResult } from './walls.js';
import { commonArea, ShieldedArea, splitSkin } from './skins.js';
import { hollowAreaOf } from './air-below.js';
import { MIN_AREA_LINES, splitBridges } from './bridges.js';
import { connectAlongEdge } from './infill-connect.js';
import { areaOf, pathLength } from '../geom/path-math.js';
import { gapFillLines } from './gap-fill.js';
import { beadArea, layerHeightUm } from '../plan/flow.js';
import { reachEdge } from './line-ends.js';
import { axesOf } from '../infill/raster.js';
import { sortMonotonic } from './monotonic.js';
import { fittedSolidLines, infillLines, infillPhase, solidLines } from '../infill/index.js';
import type { FittedLines } from '../infill/index.js';
import type { RecentResults } from './recent-results.js';
import type { CoverCache } from './cover-cache.js';
import { densityRegions, fieldAreas, layerOverrides, type DensityOverride, type FieldUm, type LayerModifier } from './density.js';

const MM = 1000;
/** Top/bottom skin grows this far into the sparse infill, so its edges rest on something. */
const SKIN_EXPAND_UM = 500;
/**
 * Bridge lines often run parallel to a straight edge, and a line that falls exactly on the edge of
 * the inset area would be lost: the inset stops this much short of half a line.
 */
const BRIDGE_INSET_SLACK_UM = 10;
/**
 * Sparse infill lines are joined along the area's edge up to this many line spacings, and a free
 * end is anchored along it up to ANCHOR spacings (see infill-connect.ts).
 */
const CONNECT_SPACINGS = 2;
const ANCHOR_SPACINGS = 0.6;

/** What pass 1 leaves for pass 2, per island. */
export interface IslandWalls {
  model: number;
  outline: Paths;
  walls: ExtrusionPath[][];
  innerArea: Paths;
  combArea: Paths;
  gaps: Paths;
  /** gaps outside the outer wall (walls.ts): their lines are the outer surface */
  outerGaps: Paths;
}

export interface LayerGeometry {
  index: number;
  /** nozzle height (top of layer), µm */
  z: number;
  height: number;
  /** per model: the layer's cross-section (empty for modifiers, which are never printed) */
  outlines: Paths[];
  /** varying infill density, when the job has modifiers or density fields */
  density?: LayerDensity;
  /** the layer right above a raft: it rests on the raft, so none of it is a bridge */
  onRaft?: boolean;
}

/** What changes the infill density on one layer. */
export interface LayerDensity {
  /** per model: its own density field, if any */
  fields: Array<FieldUm | undefined>;
  /** the modifiers' sections on this layer, in ascending priority */
  modifiers: LayerModifier[];
}

function lineWidthFor(layer: number, s: SliceSettings): number {
  return Math.round((layer === 0 ? s.firstLayerLineWidth : s.lineWidth) * MM);
}

/** What pass 1 takes from the layer below when a cross-section or an island repeats it exactly. */
export interface WallsReuse {
  islands: RecentResults<Paths[]>;
  walls: RecentResults<WallResult>;
}

/** Pass 1: islands and walls of one layer. */
export function wallsForLayer(g: LayerGeometry, s: SliceSettings, reuse?: WallsReuse): IslandWalls[] {
  const w = lineWidthFor(g.index, s);
  const out: IslandWalls[] = [];
  g.outlines.forEach((outline, model) => {
    // cross-sections are clean areas (the slicer makes sure), so cleanIslands may skip the polygon tree
    const split = () => cleanIslands(outline);
    for (const island of reuse ? reuse.islands.get(outline, 'islands', split) : split()) {
      const params = {
        width: w,
        wallCount: s.wallCount,
        model,
        minGapWidth: Math.round(s.minGapFillWidth * MM),
        gapFill: s.gapFill,
      };
      const key = `${params.width}:${params.wallCount}:${model}:${params.minGapWidth}:${params.gapFill}`;
      const r = reuse ? reuse.walls.get(island, key, () => computeWalls(island, params)) : computeWalls(island, params);
      out.push({ model, outline: island, walls: r.walls, innerArea: r.innerArea, combArea: r.combArea, gaps: r.gaps, outerGaps: r.outerGaps });
    }
  });
  reuse?.islands.nextLayer();
  reuse?.walls.nextLayer();
  return out;
}

/**
 * Per model, a layer's inner areas (inside the walls), which skin detection compares with; the
 * cross-sections ride along as `outlines` (what a bridge above rests on), so the callers that keep
 * a few layers' inner areas for pass 2 keep those too without knowing about them.
 */
export type LayerAreas = Paths[] & { outlines?: Paths[] };

export function innerAreasByModel(walls: IslandWalls[], models: number): LayerAreas {
  const inner: Paths[] = Array.from({ length: models }, () => []);
  const outlines: Paths[] = Array.from({ length: models }, () => []);
  for (const iw of walls) {
    inner[iw.model].push(...iw.innerArea);
    outlines[iw.model].push(...iw.outline);
  }
  return Object.assign(inner, { outlines });
}

/**
 * What holds up model m's layer from below: the layer below's cross-section; when only its inner
 * areas are known, those grown back by the walls' width.
 */
function groundBelow(below: LayerAreas | undefined, m: number, w: number, s: SliceSettings): Paths {
  if (!below) return [];
  const outline = below.outlines?.[m];
  if (outline) return outline;
  const inner = below[m] ?? [];
  return inner.length ? offset(inner, s.wallCount * w, 'round', 2, 25) : [];
}

/**
 * Pass 2: skin, infill and gap fill of one layer. `innerOf(j)` gives layer j's inner areas per model
 * (undefined beyond the model). Skin is judged against the neighbours' inner areas, not their
 * outlines: where a sloped surface puts the wall of the next layer over this layer's infill, that
 * infill is exposed to the wall's underside and has to be solid too.
 */
export function fillForLayer(
  g: LayerGeometry,
  walls: IslandWalls[],
  innerOf: (j: number) => LayerAreas | undefined,
  s: SliceSettings,
  recent?: RecentResults<unknown>,
  covers?: CoverCache,
): LayerRegions {
  const w = lineWidthFor(g.index, s);
  const wInfill = Math.round((g.index === 0 ? s.firstLayerLineWidth : s.infillLineWidth) * MM);
  // A sparse line has air on both sides (see beadArea): it fills the width of its section / height,
  // less than its bead width. Lines are spaced by that width, so that a density is the share of the
  // volume the infill fills (20 %: 1.79 mm apart for 0.4 × 0.2 mm beads, not 2.0).
  const hUm = layerHeightUm(g.height, g.index, s);
  const wSparse = Math.round(beadArea(wInfill, hUm, 2) / hUm);
  const skinAngle = s.skinAngle + (g.index % 2 === 1 ? 90 : 0);
  // at 100 % everything is skin, unless modifiers or fields may lower the density somewhere: then
  // the sparse area stays and its 100 % regions get solid infill lines
  const allSolid = s.infillDensity >= 100 && !g.density;
  // per model: what the next layers up/down cover
  const coveredAbove: Paths[] = [];
  const coveredBelow: Paths[] = [];
  for (let m = 0; m < g.outlines.length; m++) {
    // both runs bottom to top: the run above one layer is the run below another, and `covers`
    // intersects it once for both
    const above: Array<Paths | undefined> = [];
    for (let k = 1; k <= s.topLayers; k++) above.push(innerOf(g.index + k)?.[m]);
    const below: Array<Paths | undefined> = [];
    for (let k = s.bottomLayers; k >= 1; k--) below.push(g.index - k < 0 ? undefined : innerOf(g.index - k)?.[m]);
    const common = (run: Array<Paths | undefined>) => (covers ? covers.common(run) : commonArea(run));
    coveredAbove.push(s.topLayers > 0 ? common(above) : g.outlines[m]);
    coveredBelow.push(s.bottomLayers > 0 ? common(below) : g.outlines[m]);
  }
  // per model: the density overrides on this layer (computed once, shared by the model's islands)
  const overridesOf: Array<DensityOverride[] | undefined> = [];
  const midZ = g.z - g.height / 2;
  let modifierOverrides: DensityOverride[] | undefined; // the same for every model: computed once
  const overrides = (m: number): DensityOverride[] => {
    if (!g.density) return [];
    const field = g.density.fields[m];
    modifierOverrides ??= layerOverrides(undefined, g.density.modifiers, midZ);
    return (overridesOf[m] ??= field ? [...fieldAreas(field, midZ), ...modifierOverrides] : modifierOverrides);
  };
  // Skin narrower than the walls' band is dropped (CuraEngine's skin preshrink defaults to the same
  // width), except in parts of the inner area that narrow (splitSkin). Such a strip is what a slope
  // leaves when it moves less than the walls' width over the top/bottom layers, and the next layers'
  // walls rest on this layer's walls there anyway. Made solid and grown by the expansion, those
  // strips filled whole small parts of sloped models: 8-11 % of 3DBenchy's and the bunny's print
  // time, 4-5 % of their filament.
  const skinStripWidth = Math.max(1, s.wallCount) * w;
  // with no walls (wallCount 0) skin and infill reach the model's surface and overlap nothing: their
  // line centres stay half a line inside the cross-section
  const noWalls = s.wallCount === 0;
  // 0 % infill with no modifier or field raising it: the inside is hollow (air-below.ts)
  const hollow = s.infillDensity === 0 && !g.density && s.bridgeEnabled && g.index > 0 && !g.onRaft;
  const hollowBelowOf: Array<Paths | undefined> = [];
  const hollowOf = (m: number): Paths =>
    (hollowBelowOf[m] ??= hollowAreaOf(g.index - 1, m, innerOf, (run) => (covers ? covers.common(run) : commonArea(run)), s, SKIN_EXPAND_UM));
  // per model: what covers the layer from above and below, grown (skins.ts), made once for its islands
  const shielded: ShieldedArea[] = [];
  const islandsOut: IslandPaths[] = walls.map((iw) => {
    const shield = (shielded[iw.model] ??= new ShieldedArea(coveredAbove[iw.model], coveredBelow[iw.model]));
    // (its `bottom` is read only where there is skin to bridge: it costs a boolean)
    const split = splitSkin(iw.innerArea, coveredAbove[iw.model], coveredBelow[iw.model], allSolid, w, SKIN_EXPAND_UM, skinStripWidth, shield);
    const { solid, sparse } = split;
    const skinOverlap = noWalls ? null : (s.skinOverlap / 100) * w;
    let skin: ExtrusionPath[] = [];
    // hollow inside (0 % infill): the layer below's sparse area is air too, and any skin may lie on it
    const hollowBelow = hollow && solid.length > 0 ? hollowOf(iw.model) : [];
    const overAir = () => (hollowBelow.length > 0 ? solid : split.bottom);
    // no bridges on the first layer (it lies on the bed) or on the one above a raft, nor where too little has nothing below
    const bridgesHere = s.bridgeEnabled && g.index > 0 && !g.onRaft && solid.length > 0 && areaOf(overAir()) >= MIN_AREA_LINES * w * w;
    const ground = (): Paths => {
      const below = groundBelow(innerOf(g.index - 1), iw.model, w, s);
      return hollowBelow.length > 0 && below.length > 0 ? difference(below, hollowBelow) : below;
    };
    const { bridges, rest } = bridgesHere ? splitBridges(solid, overAir(), ground(), w) : { bridges: [], rest: solid };
    if (rest.length > 0) skin = skinPaths(rest, w, skinAngle, skinOverlap, skinOverlap ?? 0, iw.model, 0, recent);
    for (const b of bridges) {
      for (const path of skinPaths(b.area, w, b.angle, skinOverlap, (skinOverlap ?? 0) + w / 4, iw.model, BRIDGE_INSET_SLACK_UM, recent)) {
        path.bridge = true;
        path.speed = s.bridgeSpeed;
        path.flow = s.bridgeFlow / 100;
        skin.push(path);
      }
    }
    let infill: ExtrusionPath[] = [];
    const ov = sparse.length > 0 ? overrides(iw.model) : [];
    if (sparse.length > 0 && (s.infillDensity > 0 || ov.length > 0)) {
      const grow = (noWalls ? 0 : (s.infillOverlap / 100) * wInfill) - wInfill / 2;
      const shrink = () => offset(sparse, grow, 'miter', 3);
      const area = recall(recent, sparse, `infill-area:${grow}`, shrink);
      // regions are cut from the already shrunk area, so lines of neighbouring densities meet at
      // their border; every pattern is anchored to the global grid, so they stay aligned there
      const regions = densityRegions(area, s.infillDensity, ov);
      regions.forEach((r, k) => {
        const spacingWidth = r.density >= 100 ? wInfill : wSparse;
        const params = {
          pattern: s.infillPattern,
          density: r.density,
          lineWidth: spacingWidth,
          angle: s.infillAngle,
          layerIndex: g.index,
          z: g.z,
        };
        // only where one region fills the island: along a border between densities a connector would
        // add material neither side asked for
        const connect = regions.length === 1 && s.infillPattern !== 'concentric' && r.density < 100;
        const draw = (): Paths => {
          const lines = infillLines(r.area, params);
          return connect
            ? connectAlongEdge(lines, r.area, {
                maxConnect: (CONNECT_SPACINGS * spacingWidth * 100) / r.density,
                anchor: (ANCHOR_SPACINGS * spacingWidth * 100) / r.density,
                tolerance: 20,
              })
            : lines;
        };
        const phase = infillPhase(params);
        const joined =
          phase !== undefined
            ? recall(recent, r.area, `infill:${params.pattern}:${params.density}:${params.lineWidth}:${params.angle}:${phase}:${connect}`, draw)
            : draw();
        for (const points of joined) {
          const path: ExtrusionPath = { type: 'FILL', points, closed: false, width: wInfill, model: iw.model };
          if (regions.length > 1) path.densityRegion = k;
          // solid regions' lines lie side by side: no free sides (sparse ones have two)
          if (r.density >= 100) path.freeSides = 0;
          infill.push(path);
        }
      });
    }
    const gapParams = { width: w, minWidth: Math.round(s.minGapFillWidth * MM), model: iw.model };
    const gapFill = iw.gaps.length > 0 ? gapFillLines(iw.gaps, gapParams) : [];
    // a fin thinner than a line beside the outer wall is the model's surface: printed as the outer
    // wall, at its speed (as an island with no wall at all is: layer-planner.ts), not as an inner one
    if (iw.outerGaps.length > 0) {
      for (const p of gapFillLines(iw.outerGaps, gapParams)) gapFill.push({ ...p, type: 'WALL-OUTER', speed: p.speed ?? s.outerWallSpeed });
    }
    return {
      model: iw.model,
      outline: iw.outline,
      combArea: iw.combArea,
      walls: iw.walls,
      gapFill,
      skin,
      infill,
      hasSkin: skin.length > 0,
      skinArea: solid,
    };
  });
  return { index: g.index, z: g.z, height: g.height, islands: islandsOut, extras: [] };
}

/**
 * Skin of one solid area: parallel lines in monotonic order. A line that runs along a wall
 * overlaps it by a quarter line, or by the skin overlap if that is larger (PrusaSlicer's
 * infill/perimeter overlap in the shared profile is 25 %): line centres stay that much less than
 * half a line inside the area. With the centres half a line in, a strip along a wall parallel to
 * the lines was left bare whenever the line grid fell just outside it, and a pocket of the inner
 * area (at least 1.5 lines wide: walls.ts opens it so) could get no line at all; a quarter line
 * in, every such pocket holds a band a full spacing wide, so at least one line. Across the lines the
 * spacing and bead width are fitted so that, beside a wall running along them, the outermost bead
 * reaches the skin overlap into it (fittedSolidLines): at a fixed spacing it stopped 0 to half a
 * line short. The lines' ends
 * are then stretched back out past the edge by `endReach`: for skin, the skin overlap (the end
 * point that far into the innermost wall: 0.04 mm with the default 10 %). Ends a quarter line further, as skin had until December 2026, closed the wedges a flat line end leaves against a
 * wall at 45°, but put 11-12 % more material than the band holds into the outer 0.8 mm of every
 * solid layer (the walls' own 0.95 plus ~0.17), where a real bead end spreads into those wedges
 * anyway; bridges keep that reach, their ends being their anchors.
 * `overlap` null: there are no walls (wallCount 0), and the lines stay half a line inside the area,
 * so that they reach the model's surface and no further.
 */
function skinPaths(solid: Paths, w: number, angle: number, overlap: number | null, endReach: number, model: number, slack = 0, recent?: RecentResults<unknown>): ExtrusionPath[] {
  const draw = (): FittedLines => {
    const inward = w / 2 - (overlap === null ? 0 : Math.max(w / 4, overlap)) - slack;
    const inset = offset(solid, -inward, 'miter', 3);
    if (inset.length === 0) return { lines: [], width: w };
    // no wall to reach: the lines end half a line inside the edge, where the inset clipped them
    if (overlap === null) return { lines: sortMonotonic(solidLines(inset, w, angle), angle), width: w };
    // beside an edge along the lines, the outermost beads reach the skin overlap into the wall
    // every piece is kept until its ends are stretched: at an acute corner the line nearest the
    // tip crosses the inset in under half a line but the area in a full one, and dropping it left
    // a bare triangle of up to 0.19 mm² (the calibration cube's letter Z, on every layer)
    const { lines, width } = fittedSolidLines(inset, w, angle, { edgeDistance: inward, sideOverlap: overlap, minLength: 1 });
    // up to ten line widths: a line meeting the wall at 5° needs 1.6 mm to cross the last 0.14 mm
    const axes = axesOf(angle);
    const stretched = reachEdge(lines, 10 * w, offset(solid, endReach, 'miter', 3), axes, 2 * w);
    // then, as before, no line shorter than half a line is printed
    const reach = stretched.filter((l) => pathLength(l, false) >= w / 2);
    return { lines: sortMonotonic(reach, angle), width };
  };
  const { lines, width } = recall(recent, solid, `skin:${w}:${angle}:${overlap}:${endReach}:${slack}`, draw);
  return lines.map((points) => ({ type: 'SKIN', points, closed: false, width, model }));
}

/** `compute()`, or what an earlier layer computed for the same area and key (`recent`'s keys name what they hold). */
function recall<T>(recent: RecentResults<unknown> | undefined, area: Paths, key: string, compute: () => T): T {
  return recent ? (recent.get(area, key, compute) as T) : compute();
}
