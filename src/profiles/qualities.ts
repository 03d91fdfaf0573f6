// Quality presets. Each is relative to the nozzle, so it suits any printer: layer height is a share
// of the nozzle diameter (never above 0.75 × nozzle), top/bottom layers keep a shell thickness, and
// feature speeds scale the printer's. "Recommended" on a 0.4 mm nozzle is exactly the default profile.
import type { SliceSettings } from '../engine/settings.js';
import { ProfileError } from './errors.js';
import { closeMatches, NameIndex, unknownMessage } from './names.js';

export interface QualityPreset {
  name: string;
  aliases: readonly string[];
  description: string;
  /** layer height as a share of the nozzle diameter */
  layerHeightFactor: number;
  /** first layer height as a share of the nozzle diameter */
  firstLayerHeightFactor: number;
  /** top and bottom shell thickness to reach, mm */
  shellThickness: number;
  /** fewest top and bottom layers whatever the layer height */
  minShellLayers: number;
  /** multiplier on feature print speeds (not first layer, not travel) */
  speedFactor: number;
}

export const DEFAULT_QUALITY = 'Recommended';
/** Layers thicker than this share of the nozzle bond poorly. */
export const MAX_LAYER_HEIGHT_FACTOR = 0.75;

export const QUALITIES: readonly QualityPreset[] = Object.freeze([
  {
    name: 'Recommended',
    aliases: ['Normal', 'Standard', 'Default'],
    description: '0.2 mm layers on a 0.4 mm nozzle: the balance of time and finish',
    layerHeightFactor: 0.5,
    firstLayerHeightFactor: 0.5,
    shellThickness: 0.6,
    minShellLayers: 3,
    speedFactor: 1,
  },
  {
    name: 'Highquality',
    aliases: ['High quality', 'High', 'Fine'],
    description: '0.1 mm layers on a 0.4 mm nozzle, 0.8 mm shells, 20 % slower',
    layerHeightFactor: 0.25,
    firstLayerHeightFactor: 0.5,
    shellThickness: 0.8,
    minShellLayers: 4,
    speedFactor: 0.8,
  },
  {
    name: 'Sketch',
    aliases: ['Draft', 'Fast'],
    description: '0.28 mm layers on a 0.4 mm nozzle, 20 % faster, for quick drafts',
    layerHeightFactor: 0.7,
    firstLayerHeightFactor: 0.7,
    shellThickness: 0.6,
    minShellLayers: 3,
    speedFactor: 1.2,
  },
]);

const INDEX = new NameIndex(QUALITIES, (q) => q);

export function findQuality(name: string): QualityPreset | undefined {
  return INDEX.find(name);
}

/** Like findQuality, but an unknown name throws ProfileError UNKNOWN_QUALITY with close matches. */
export function getQuality(name: string): QualityPreset {
  const found = INDEX.find(name);
  if (found) return found;
  const suggestions = closeMatches(name, INDEX.entries);
  // Three presets only: list them all when none is close.
  const listed = suggestions.length > 0 ? suggestions : QUALITIES.map((q) => q.name);
  throw new ProfileError('UNKNOWN_QUALITY', unknownMessage('quality preset', name, listed), listed);
}

const round2 = (n: number): number => Math.round(n * 100) / 100;
const round1 = (n: number): number => Math.round(n * 10) / 10;

/** A layer height for this nozzle: factor × nozzle, rounded to 0.01 mm, within [0.04, 0.75 × nozzle]. */
export function layerHeightFor(nozzle: number, factor: number): number {
  const cap = Math.floor(nozzle * MAX_LAYER_HEIGHT_FACTOR * 100 + 1e-9) / 100;
  return Math.max(0.04, Math.min(round2(nozzle * factor), cap));
}

const SCALED_SPEEDS = ['printSpeed', 'infillSpeed', 'outerWallSpeed', 'innerWallSpeed', 'topBottomSpeed', 'supportSpeed'] as const;

/** Settings a quality preset changes, given the settings so far (the printer's nozzle, speeds). */
export function qualitySettings(q: QualityPreset, current: SliceSettings): Partial<SliceSettings> {
  const layerHeight = layerHeightFor(current.nozzleDiameter, q.layerHeightFactor);
  const shellLayers = Math.max(q.minShellLayers, Math.ceil(q.shellThickness / layerHeight - 1e-9));
  const out: Partial<SliceSettings> = {
    layerHeight,
    firstLayerHeight: layerHeightFor(current.nozzleDiameter, q.firstLayerHeightFactor),
    topLayers: shellLayers,
    bottomLayers: shellLayers,
  };
  if (q.speedFactor !== 1) {
    for (const key of SCALED_SPEEDS) out[key] = round1(current[key] * q.speedFactor);
  }
  return out;
}
