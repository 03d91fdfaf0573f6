// Extrusion amounts and feature speeds.
import type { ExtrusionPath, FeatureType } from '../types.js';
import type { SliceSettings } from '../settings.js';

/** Where a path came from inside an island (gap fill has its own speed whatever its type). */
export type PathRole = 'wall' | 'gap' | 'skin' | 'infill' | 'extra';

/**
 * Filament mm per (µm of bead width × µm of path length) at flow 1:
 * e = flowMultiplier × flow × width × height × length / (π (d/2)²), all in mm.
 */
export function filamentPerUm2(s: SliceSettings, layerHeightUm: number): number {
  const area = Math.PI * (s.filamentDiameter / 2) ** 2;
  return (s.flowMultiplier * (layerHeightUm / 1000)) / area / 1e6;
}

/** Filament mm per µm³ of bead (flow multiplier included): e = volume / (π (d/2)²). */
export function filamentPerUm3(s: SliceSettings): number {
  const area = Math.PI * (s.filamentDiameter / 2) ** 2;
  return s.flowMultiplier / area / 1e9;
}

/** What one free side of a bead holds less than a rectangle, in units of height². */
const FREE_SIDE_LOSS = (1 - Math.PI / 4) / 2;

/**
 * Cross-section of a bead, µm²: a rectangle width × height, less what its free sides miss. Plastic
 * squeezed to the layer height bulges on a side that nothing presses against into a half circle of
 * the layer's height, so each free side holds h²(1 − π/4)/2 less than the rectangle and its outermost
 * point lies half the width from the centre. Where a neighbouring bead lies one width away, the later
 * one fills the corners against the earlier, and the pair is solid: those sides are not free. Two
 * free sides give the rounded-rectangle ("stadium") section; a bead narrower than its height is
 * taken as an ellipse at least.
 */
export function beadArea(width: number, height: number, freeSides: number): number {
  const area = width * height - freeSides * height * height * FREE_SIDE_LOSS;
  return Math.max(area, (Math.PI / 4) * width * height);
}

/** What the planner knows about a path's neighbours beyond its feature. */
export interface BeadContext {
  /** a wall loop of the island's innermost inset: its inner side faces infill or skin */
  innermostWall?: boolean;
  /** the island has walls (else its gap fill lines lie against the outline: air on both sides) */
  islandHasWalls?: boolean;
  /** skirt loops printed side by side on the layer (they share the band's two free edges) */
  skirtLoops?: number;
}

/**
 * Free sides of a path's bead: the outer wall's outside (air, or a hole); the innermost wall's
 * inside, which sparse infill touches only here and there (skin overlap fills it where skin lies);
 * both sides of sparse infill lines; the two edges of the skirt. Walls between walls, skin lines,
 * gap fill between walls, brim and raft lines lie against neighbours. Support keeps the full
 * rectangle for now: its lines are spaced by their bead width, and a rounder section would thin it
 * below its density without the matching spacing.
 */
export function freeSidesOf(path: ExtrusionPath, role: PathRole, ctx: BeadContext = {}): number {
  if (path.freeSides !== undefined) return path.freeSides;
  if (role === 'gap') return ctx.islandHasWalls === false ? 2 : 0;
  switch (path.type) {
    case 'WALL-OUTER':
      return ctx.innermostWall ? 2 : 1;
    case 'WALL-INNER':
      return ctx.innermostWall ? 1 : 0;
    case 'FILL':
      return role === 'skin' ? 0 : 2;
    case 'SKIRT':
      return 2 / Math.max(1, ctx.skirtLoops ?? 1);
    default:
      return 0;
  }
}

/** The layer thickness used for extrusion: the layer's own, else the settings' value. */
export function layerHeightUm(height: number, index: number, s: SliceSettings): number {
  if (height > 0) return height;
  return Math.round((index === 0 ? s.firstLayerHeight : s.layerHeight) * 1000);
}

function baseSpeed(type: FeatureType, role: PathRole, s: SliceSettings): number {
  if (role === 'gap' || role === 'skin') return s.topBottomSpeed;
  if (role === 'infill') return s.infillSpeed;
  switch (type) {
    case 'WALL-OUTER':
      return s.outerWallSpeed;
    case 'WALL-INNER':
      return s.innerWallSpeed;
    case 'SKIN':
      return s.topBottomSpeed;
    case 'FILL':
      return s.infillSpeed;
    case 'SKIRT':
    case 'BRIM':
      return s.skirtSpeed;
    case 'SUPPORT':
    case 'SUPPORT-INTERFACE':
    case 'RAFT':
      return s.supportSpeed;
  }
}

/** Print speed of a path, mm/s: the path's override or its feature's speed; on layer 0 the first-layer speed. */
export function pathSpeed(path: ExtrusionPath, role: PathRole, layerIndex: number, s: SliceSettings): number {
  const base = path.speed ?? baseSpeed(path.type, role, s);
  if (layerIndex !== 0) return base;
  const adhesion = path.type === 'SKIRT' || path.type === 'BRIM';
  return adhesion || path.speed !== undefined ? Math.min(base, s.firstLayerSpeed) : s.firstLayerSpeed;
}

export function travelSpeed(layerIndex: number, s: SliceSettings): number {
  return layerIndex === 0 ? s.firstLayerTravelSpeed : s.travelSpeed;
}
