// Feature types of Stratum/CuraEngine (`WALL-OUTER`) and PrusaSlicer (`External perimeter`) mapped to
// a few shared categories, each with one colour, so layers from the three slicers compare at a glance.
import type { Rgb } from './raster.js';

export interface FeatureCategory {
  label: string;
  color: Rgb;
}

const CATEGORIES = {
  outer: { label: 'outer wall', color: [214, 39, 40] },
  inner: { label: 'inner wall', color: [44, 160, 44] },
  skin: { label: 'skin', color: [235, 180, 0] },
  bridge: { label: 'bridge', color: [31, 119, 180] },
  infill: { label: 'infill', color: [255, 127, 14] },
  gap: { label: 'gap fill', color: [148, 103, 189] },
  support: { label: 'support', color: [23, 190, 207] },
  interface: { label: 'interface', color: [0, 110, 130] },
  skirt: { label: 'skirt/brim', color: [90, 90, 150] },
  raft: { label: 'raft', color: [140, 86, 75] },
  other: { label: 'other', color: [227, 0, 200] },
} satisfies Record<string, FeatureCategory>;

export type CategoryKey = keyof typeof CATEGORIES;

const BY_TYPE: Record<string, CategoryKey> = {
  'wall-outer': 'outer',
  'external perimeter': 'outer',
  'overhang perimeter': 'outer',
  'outer wall': 'outer',
  'wall-inner': 'inner',
  perimeter: 'inner',
  'inner wall': 'inner',
  skin: 'skin',
  'top solid infill': 'skin',
  'solid infill': 'skin',
  'internal solid infill': 'skin',
  'bottom surface': 'skin',
  'top surface': 'skin',
  ironing: 'skin',
  'bridge infill': 'bridge',
  'internal bridge infill': 'bridge',
  fill: 'infill',
  'internal infill': 'infill',
  'sparse infill': 'infill',
  'gap fill': 'gap',
  support: 'support',
  'support material': 'support',
  'support-interface': 'interface',
  'support material interface': 'interface',
  'support interface': 'interface',
  skirt: 'skirt',
  brim: 'skirt',
  'skirt/brim': 'skirt',
  raft: 'raft',
};

export function categoryOf(type: string): CategoryKey {
  const key = type.trim().toLowerCase();
  // own keys only: a file's `;TYPE:constructor` is just an unknown type
  return Object.hasOwn(BY_TYPE, key) ? BY_TYPE[key] : 'other';
}

export function category(key: CategoryKey): FeatureCategory {
  return CATEGORIES[key];
}

/** Categories in legend order. */
export const CATEGORY_ORDER = Object.keys(CATEGORIES) as CategoryKey[];

export const TRAVEL_COLOR: Rgb = [175, 175, 175];
