// A small RGBA canvas with the drawing the layer preview needs: thick lines as filled capsules
// (convex polygons filled by scanline), thin one-pixel lines, rectangles and bitmap text.
import { GLYPH_ADVANCE, GLYPH_HEIGHT, GLYPH_WIDTH, glyphRows } from './bitmap-font.js';

export type Rgb = readonly [number, number, number];

/** Points per half circle of a capsule's round end. */
const CAP_STEPS = 4;

export class Canvas {
  readonly data: Uint8Array;

  constructor(
    readonly width: number,
    readonly height: number,
    background: Rgb = [255, 255, 255],
  ) {
    this.data = new Uint8Array(width * height * 4);
    this.fillRect(0, 0, width, height, background);
  }

  setPixel(x: number, y: number, c: Rgb): void {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    const i = (y * this.width + x) * 4;
    this.data[i] = c[0];
    this.data[i + 1] = c[1];
    this.data[i + 2] = c[2];
    this.data[i + 3] = 255;
  }

  getPixel(x: number, y: number): [number, number, number] {
    const i = (y * this.width + x) * 4;
    return [this.data[i], this.data[i + 1], this.data[i + 2]];
  }

  fillRect(x: number, y: number, w: number, h: number, c: Rgb): void {
    const x0 = Math.max(0, Math.round(x));
    const y0 = Math.max(0, Math.round(y));
    const x1 = Math.min(this.width, Math.round(x + w));
    const y1 = Math.min(this.height, Math.round(y + h));
    for (let py = y0; py < y1; py++) {
      for (let px = x0; px < x1; px++) this.setPixel(px, py, c);
    }
  }

  /** Fills a convex polygon (flat [x0,y0,x1,y1,…], pixel units): pixels whose centre lies inside. */
  fillConvex(poly: readonly number[], c: Rgb): void {
    let minY = Infinity;
    let maxY = -Infinity;
    for (let i = 1; i < poly.length; i += 2) {
      if (poly[i] < minY) minY = poly[i];
      if (poly[i] > maxY) maxY = poly[i];
    }
    const rowStart = Math.max(0, Math.ceil(minY - 0.5));
    const rowEnd = Math.min(this.height - 1, Math.floor(maxY - 0.5));
    const n = poly.length;
    for (let row = rowStart; row <= rowEnd; row++) {
      const yc = row + 0.5;
      let left = Infinity;
      let right = -Infinity;
      for (let i = 0; i < n; i += 2) {
        const j = (i + 2) % n;
        const ya = poly[i + 1];
        const yb = poly[j + 1];
        if ((ya <= yc && yc < yb) || (yb <= yc && yc < ya)) {
          const x = poly[i] + ((yc - ya) * (poly[j] - poly[i])) / (yb - ya);
          if (x < left) left = x;
          if (x > right) right = x;
        }
      }
      if (left > right) continue;
      const colStart = Math.max(0, Math.ceil(left - 0.5));
      const colEnd = Math.min(this.width - 1, Math.floor(right - 0.5));
      for (let col = colStart; col <= colEnd; col++) this.setPixel(col, row, c);
    }
  }

  /** A line of the given width (pixels) with round ends; thinner than 1.5 px: a plain 1 px line. */
  line(x0: number, y0: number, x1: number, y1: number, width: number, c: Rgb): void {
    if (width < 1.5) {
      this.thinLine(x0, y0, x1, y1, c);
      return;
    }
    const r = width / 2;
    const dx = x1 - x0;
    const dy = y1 - y0;
    const len = Math.hypot(dx, dy);
    // Direction angle; a dot (zero length) becomes a full circle around the point.
    const a = len > 1e-9 ? Math.atan2(dy, dx) : 0;
    const poly: number[] = [];
    // End cap around (x1,y1) from -90° to +90° of the direction, then the start cap around (x0,y0).
    for (let k = 0; k <= CAP_STEPS; k++) {
      const t = a - Math.PI / 2 + (Math.PI * k) / CAP_STEPS;
      poly.push(x1 + r * Math.cos(t), y1 + r * Math.sin(t));
    }
    for (let k = 0; k <= CAP_STEPS; k++) {
      const t = a + Math.PI / 2 + (Math.PI * k) / CAP_STEPS;
      poly.push(x0 + r * Math.cos(t), y0 + r * Math.sin(t));
    }
    this.fillConvex(poly, c);
  }

  /** One-pixel line through pixel centres (DDA). */
  thinLine(x0: number, y0: number, x1: number, y1: number, c: Rgb): void {
    const steps = Math.max(1, Math.ceil(Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0))));
    if (steps > 100_000) return; // far outside any sane view: nothing of it would be visible anyway
    for (let s = 0; s <= steps; s++) {
      const t = s / steps;
      this.setPixel(Math.floor(x0 + (x1 - x0) * t), Math.floor(y0 + (y1 - y0) * t), c);
    }
  }

  /** Bitmap text with its top-left corner at (x, y); `scale` font pixels per canvas pixel. */
  text(x: number, y: number, text: string, scale: number, c: Rgb): void {
    for (let n = 0; n < text.length; n++) {
      const rows = glyphRows(text[n]);
      const gx = x + n * GLYPH_ADVANCE * scale;
      for (let ry = 0; ry < GLYPH_HEIGHT; ry++) {
        for (let rx = 0; rx < GLYPH_WIDTH; rx++) {
          if (rows[ry] & (1 << (GLYPH_WIDTH - 1 - rx))) this.fillRect(gx + rx * scale, y + ry * scale, scale, scale, c);
        }
      }
    }
  }
}
