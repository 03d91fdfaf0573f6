// Draws one layer's moves: extrusions as lines of the bead's width coloured by feature type,
// travels as thin grey lines beneath, on white, scaled to the layer's printed bounds with a margin,
// and a strip below with the caption and a legend of the feature types present.
import { Canvas } from './raster.js';
import type { LayerMoves } from './gcode-reader.js';
import { CATEGORY_ORDER, TRAVEL_COLOR, category, categoryOf } from './feature-colors.js';
import type { CategoryKey } from './feature-colors.js';
import { GLYPH_HEIGHT, textWidth } from './bitmap-font.js';

export interface RenderOptions {
  /** width and height of the drawing area, pixels */
  size: number;
  /** bead width in mm (lines are drawn this wide, to scale); also the width where `beadWidths` cannot tell */
  lineWidth: number;
  /**
   * the filament's diameter, mm: each bead is then drawn as wide as the filament it feeds fills at the
   * layer's height (a gap fill or a wall narrowed to share a thin part shows at its real width)
   */
  filamentDiameter?: number;
  /** area to show in mm: [minX, minY, maxX, maxY]; default the layer's extrusion bounds */
  view?: [number, number, number, number];
  travels: boolean;
  /** first line of the strip below the drawing, e.g. the file name */
  caption: string;
}

export interface Rendered {
  canvas: Canvas;
  view: [number, number, number, number];
  /** pixels per mm */
  scale: number;
}

const MARGIN = 0.04;

/** Bounds of the extrusions (half a bead added all round), else of the travels. */
export function layerBounds(layer: LayerMoves, lineWidth: number): [number, number, number, number] | null {
  const pts = layer.extrusions.length ? layer.extrusions : layer.travels;
  if (pts.length === 0) return null;
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (let i = 0; i < pts.length; i += 2) {
    minX = Math.min(minX, pts[i]);
    maxX = Math.max(maxX, pts[i]);
    minY = Math.min(minY, pts[i + 1]);
    maxY = Math.max(maxY, pts[i + 1]);
  }
  const h = layer.extrusions.length ? lineWidth / 2 : 0;
  return [minX - h, minY - h, maxX + h, maxY + h];
}

/** Larger layers than this (mm, 10 m) are no printer's: the G-code's coordinates are broken. */
export const MAX_SPAN_MM = 10_000;

export function renderLayer(layer: LayerMoves, opts: RenderOptions): Rendered {
  const view = opts.view ?? layerBounds(layer, opts.lineWidth);
  if (!view) throw new Error(`layer ${layer.number} has no moves to draw`);
  const size = opts.size;
  const [minX, minY, maxX, maxY] = view;
  const span = Math.max(maxX - minX, maxY - minY, 1e-3);
  // 1e308 or Infinity in a G1 word would scale the picture to nothing: say so instead
  if (!(span <= MAX_SPAN_MM)) {
    throw new Error(`layer ${layer.number} spans ${Number.isFinite(span) ? `${span.toPrecision(3)} mm` : 'an endless distance'}, more than any printer's ${MAX_SPAN_MM / 1000} m: its coordinates are out of range`);
  }
  const scale = (size * (1 - 2 * MARGIN)) / span;
  // Centre the view in the square; image y grows downwards, printer Y upwards.
  const offX = size / 2 - ((minX + maxX) / 2) * scale;
  const offY = size / 2 + ((minY + maxY) / 2) * scale;
  const px = (x: number) => offX + x * scale;
  const py = (y: number) => offY - y * scale;

  const fontScale = Math.max(1, Math.round(size / 500));
  const rowHeight = (GLYPH_HEIGHT + 4) * fontScale;
  const present = presentCategories(layer);
  const legendRows = legendLayout(present, size, fontScale);
  const strip = rowHeight * (1 + legendRows.length) + 2 * fontScale;
  const canvas = new Canvas(size, size + strip);

  if (opts.travels) {
    const t = layer.travels;
    for (let i = 0; i < t.length; i += 4) canvas.thinLine(px(t[i]), py(t[i + 1]), px(t[i + 2]), py(t[i + 3]), TRAVEL_COLOR);
  }
  const widths = beadWidths(layer, opts.lineWidth, opts.filamentDiameter);
  const ex = layer.extrusions;
  const types = layer.extrusionTypes;
  let lastType = '';
  let color = category('other').color;
  for (let i = 0, s = 0; i < ex.length; i += 4, s++) {
    if (types[s] !== lastType) {
      lastType = types[s];
      color = category(categoryOf(lastType)).color;
    }
    canvas.line(px(ex[i]), py(ex[i + 1]), px(ex[i + 2]), py(ex[i + 3]), Math.max(1, widths(s) * scale), color);
  }

  // The strip: a rule, the caption, then the legend.
  canvas.fillRect(0, size, size, fontScale, [200, 200, 200]);
  const zText = Number.isFinite(layer.z) ? `  Z ${layer.z.toFixed(2)}` : '';
  const scaleText = `  ${(10 * scale).toFixed(0)} PX/CM`;
  canvas.text(4 * fontScale, size + 3 * fontScale, `LAYER ${layer.number}${zText}${scaleText}  ${opts.caption}`, fontScale, [0, 0, 0]);
  legendRows.forEach((row, r) => {
    const y = size + 3 * fontScale + rowHeight * (r + 1);
    for (const item of row) {
      const c = category(item.key);
      canvas.fillRect(item.x, y, GLYPH_HEIGHT * fontScale, GLYPH_HEIGHT * fontScale, c.color);
      canvas.text(item.x + (GLYPH_HEIGHT + 3) * fontScale, y, c.label, fontScale, [0, 0, 0]);
    }
  });
  return { canvas, view, scale };
}

/** Beads narrower or wider than this share of the nominal width are drawn at the nominal width (a
 *  wipe, a prime, a move too short to say). */
const WIDTH_RANGE: [number, number] = [0.1, 4];

/**
 * Each extrusion's bead width, mm: the filament it feeds over its length at the layer's height (a
 * rectangle's width: a bead with free sides is up to 0.02 mm wider at 0.2 mm layers); `nominal`
 * without a diameter or a layer height, or where the figure is out of WIDTH_RANGE.
 */
export function beadWidths(layer: LayerMoves, nominal: number, filamentDiameter?: number): (i: number) => number {
  const h = layer.height;
  if (!filamentDiameter || !(h > 0)) return () => nominal;
  const area = Math.PI * (filamentDiameter / 2) ** 2;
  const ex = layer.extrusions;
  return (i) => {
    const len = Math.hypot(ex[4 * i + 2] - ex[4 * i], ex[4 * i + 3] - ex[4 * i + 1]);
    const w = (layer.extrusionE[i] * area) / (len * h);
    return w >= WIDTH_RANGE[0] * nominal && w <= WIDTH_RANGE[1] * nominal ? w : nominal;
  };
}

function presentCategories(layer: LayerMoves): CategoryKey[] {
  const seen = new Set<CategoryKey>([...new Set(layer.extrusionTypes)].map(categoryOf));
  return CATEGORY_ORDER.filter((k) => seen.has(k));
}

/** Legend items placed left to right, wrapping to a new row when the width runs out. */
function legendLayout(keys: CategoryKey[], width: number, fontScale: number): { key: CategoryKey; x: number }[][] {
  const rows: { key: CategoryKey; x: number }[][] = [];
  let row: { key: CategoryKey; x: number }[] = [];
  let x = 4 * fontScale;
  for (const key of keys) {
    const w = (GLYPH_HEIGHT + 3) * fontScale + textWidth(category(key).label, fontScale) + 8 * fontScale;
    if (row.length && x + w > width) {
      rows.push(row);
      row = [];
      x = 4 * fontScale;
    }
    row.push({ key, x });
    x += w;
  }
  if (row.length) rows.push(row);
  return rows;
}
