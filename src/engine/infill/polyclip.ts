// Clips open polylines (gyroid curves, honeycomb zigzags) against an area in plain JS. The area's
// edges go into a uniform grid; each polyline segment looks up the edges in the cells it passes,
// finds its crossings with exact orientation tests (integer µm coordinates keep them exact), and
// steps the winding number at each one; inside means non-zero winding, as in Clipper. Measured
// here, Clipper's sweep took 4–10 ms for the gyroid or honeycomb of a 150 × 120 mm area; this
// takes about 2.
import type { Path, Paths } from '../types.js';
import { pathLength } from './raster.js';

/** Grid of the area's edges: cell (i, j) lists edges in `items[start[c] … start[c+1]−1]`. */
interface EdgeGrid {
  ex: Float64Array; // edge e runs from (ex[2e], ex[2e+1]) …
  ey: Float64Array; // … to (ey[2e], ey[2e+1])
  x0: number;
  y0: number;
  cell: number;
  nx: number;
  ny: number;
  start: Int32Array;
  items: Int32Array;
}

// Slack in cell units, so rounding never drops a cell a segment ends on or touches.
const EPS = 1e-7;

/**
 * Writes into `cells` the grid cells a segment may touch (per column, the rows its y-range spans)
 * and returns how many; stops at `cells.length`, so callers size it for the longest segment.
 */
function cellsOf(g: EdgeGrid, ax: number, ay: number, bx: number, by: number, cells: Int32Array): number {
  let u0 = (ax - g.x0) / g.cell;
  let v0 = (ay - g.y0) / g.cell;
  let u1 = (bx - g.x0) / g.cell;
  let v1 = (by - g.y0) / g.cell;
  if (u1 < u0) {
    const tu = u0;
    const tv = v0;
    u0 = u1;
    v0 = v1;
    u1 = tu;
    v1 = tv;
  }
  const i0 = Math.max(0, Math.floor(u0 - EPS));
  const i1 = Math.min(g.nx - 1, Math.floor(u1 + EPS));
  const slope = u1 > u0 ? (v1 - v0) / (u1 - u0) : 0;
  let n = 0;
  for (let i = i0; i <= i1; i++) {
    // the segment's v where it enters and leaves this column (its own ends inside the column)
    const va = i <= u0 ? v0 : v0 + (i - u0) * slope;
    const vb = i + 1 >= u1 ? v1 : v0 + (i + 1 - u0) * slope;
    const j0 = Math.max(0, Math.floor(Math.min(va, vb) - EPS));
    const j1 = Math.min(g.ny - 1, Math.floor(Math.max(va, vb) + EPS));
    for (let j = j0; j <= j1 && n < cells.length; j++) cells[n++] = j * g.nx + i;
  }
  return n;
}

function buildGrid(area: Paths): EdgeGrid | null {
  let n = 0;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const p of area) {
    if (p.length < 6) continue;
    n += p.length >> 1;
    for (let i = 0; i < p.length; i += 2) {
      minX = Math.min(minX, p[i]);
      maxX = Math.max(maxX, p[i]);
      minY = Math.min(minY, p[i + 1]);
      maxY = Math.max(maxY, p[i + 1]);
    }
  }
  if (n === 0) return null;
  const ex = new Float64Array(2 * n);
  const ey = new Float64Array(2 * n);
  let e = 0;
  for (const p of area) {
    if (p.length < 6) continue;
    for (let i = 0, m = p.length; i < m; i += 2) {
      const j = (i + 2) % m;
      ex[2 * e] = p[i];
      ex[2 * e + 1] = p[i + 1];
      ey[2 * e] = p[j];
      ey[2 * e + 1] = p[j + 1];
      e++;
    }
  }
  // about two edges per cell on average; small areas get one cell
  const w = maxX - minX + 1;
  const h = maxY - minY + 1;
  const cell = Math.max(Math.sqrt((w * h) / Math.max(1, n / 2)), 100);
  const g: EdgeGrid = {
    ex, ey, x0: minX, y0: minY, cell,
    nx: Math.min(2048, Math.ceil(w / cell)),
    ny: Math.min(2048, Math.ceil(h / cell)),
    start: new Int32Array(0),
    items: new Int32Array(0),
  };
  g.cell = Math.max(w / g.nx, h / g.ny, cell);
  const cells = new Int32Array(g.nx * g.ny);
  const start = new Int32Array(g.nx * g.ny + 1);
  for (let k = 0; k < n; k++) {
    const m = cellsOf(g, ex[2 * k], ex[2 * k + 1], ey[2 * k], ey[2 * k + 1], cells);
    for (let i = 0; i < m; i++) start[cells[i] + 1]++;
  }
  for (let c = 0; c < g.nx * g.ny; c++) start[c + 1] += start[c];
  const items = new Int32Array(start[g.nx * g.ny]);
  const fill = start.slice(0, g.nx * g.ny);
  for (let k = 0; k < n; k++) {
    const m = cellsOf(g, ex[2 * k], ex[2 * k + 1], ey[2 * k], ey[2 * k + 1], cells);
    for (let i = 0; i < m; i++) items[fill[cells[i]]++] = k;
  }
  g.start = start;
  g.items = items;
  return g;
}

// Orientation of c against the line a→b, with 0 counted as positive: a point exactly on a line is
// taken to lie just left of it, consistently for every test, so touching never flips parity twice.
function side(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax) >= 0 ? 1 : -1;
}

/** Winding number of the area around (px, py). */
function windingAt(g: EdgeGrid, px: number, py: number): number {
  // pattern polylines start beyond the area's bounds: skip the ray cast for them
  if (px < g.x0 || py < g.y0 || px > g.x0 + g.nx * g.cell || py > g.y0 + g.ny * g.cell) return 0;
  let wind = 0;
  const n = g.ex.length >> 1;
  for (let e = 0; e < n; e++) {
    const ax = g.ex[2 * e];
    const ay = g.ex[2 * e + 1];
    const bx = g.ey[2 * e];
    const by = g.ey[2 * e + 1];
    // edges crossing the horizontal through p, right of p: +1 going up, −1 going down
    if ((ay > py) !== (by > py) && px < ax + ((py - ay) * (bx - ax)) / (by - ay)) wind += by > ay ? 1 : -1;
  }
  return wind;
}

/**
 * The parts of the polylines inside `area`, each at least `minLength` long. Crossing points are
 * rounded to whole µm.
 */
export function clipPolylines(lines: Paths, area: Paths, minLength: number): Paths {
  const g = buildGrid(area);
  if (!g) return [];
  const { ex, ey, start, items } = g;
  const out: Paths = [];
  const stamp = new Int32Array(ex.length >> 1).fill(-1);
  const cells = new Int32Array(g.nx * g.ny);
  let ts = new Float64Array(16);
  let ds = new Int8Array(16);
  let query = 0;
  const finish = (p: Path) => {
    if (p.length >= 4 && pathLength(p) >= minLength) out.push(p);
  };
  for (const line of lines) {
    if (line.length < 4) continue;
    let wind = windingAt(g, line[0], line[1]);
    let cur: Path = wind !== 0 ? [line[0], line[1]] : [];
    for (let i = 2; i + 1 < line.length; i += 2) {
      const px = line[i - 2];
      const py = line[i - 1];
      const qx = line[i];
      const qy = line[i + 1];
      const q = query++;
      let nt = 0;
      const nc = cellsOf(g, px, py, qx, qy, cells);
      for (let ci = 0; ci < nc; ci++) {
        const c = cells[ci];
        for (let k = start[c], kEnd = start[c + 1]; k < kEnd; k++) {
          const e = items[k];
          if (stamp[e] === q) continue;
          stamp[e] = q;
          const ax = ex[2 * e];
          const ay = ex[2 * e + 1];
          const bx = ey[2 * e];
          const by = ey[2 * e + 1];
          if (side(px, py, qx, qy, ax, ay) === side(px, py, qx, qy, bx, by)) continue;
          const dp = (bx - ax) * (py - ay) - (by - ay) * (px - ax);
          const dq = (bx - ax) * (qy - ay) - (by - ay) * (qx - ax);
          if (dp >= 0 === dq >= 0) continue;
          if (nt === ts.length) {
            const grownT = new Float64Array(nt * 2);
            const grownD = new Int8Array(nt * 2);
            grownT.set(ts);
            grownD.set(ds);
            ts = grownT;
            ds = grownD;
          }
          // insertion keeps the crossings sorted along the segment; crossing an edge from its
          // right (outside of a CCW contour) to its left raises the winding number
          const t = dp / (dp - dq);
          const d = dp < 0 ? 1 : -1;
          let j = nt++;
          while (j > 0 && ts[j - 1] > t) {
            ts[j] = ts[j - 1];
            ds[j] = ds[j - 1];
            j--;
          }
          ts[j] = t;
          ds[j] = d;
        }
      }
      for (let j = 0; j < nt; j++) {
        const x = Math.round(px + (qx - px) * ts[j]);
        const y = Math.round(py + (qy - py) * ts[j]);
        const before = wind;
        wind += ds[j];
        if (before !== 0 && wind === 0) {
          cur.push(x, y);
          finish(cur);
          cur = [];
        } else if (before === 0 && wind !== 0) {
          cur = [x, y];
        }
      }
      if (wind !== 0) cur.push(qx, qy);
    }
    if (wind !== 0) finish(cur);
  }
  return out;
}
