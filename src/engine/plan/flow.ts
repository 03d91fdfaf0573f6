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
