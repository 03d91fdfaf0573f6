import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initGeometry, clipLines, union } from '../src/engine/geom/clipper.js';
import { fittedSolidLines, infillLines, solidLines, gyroidCurves, gyroidPeriod } from '../src/engine/infill/index.js';
import { clipPolylines } from '../src/engine/infill/polyclip.js';
import { gridFamily } from '../src/engine/infill/scanline.js';
import { axesOf } from '../src/engine/infill/raster.js';
import type { InfillParams } from '../src/engine/infill/index.js';
import type { InfillPattern } from '../src/engine/settings.js';
import type { Path, Paths } from '../src/engine/types.js';

const W = 400; // line width, µm
const PATTERNS: InfillPattern[] = ['lines', 'grid', 'triangles', 'cubic', 'gyroid', 'honeycomb', 'concentric'];
const square = (x: number, y: number, s: number): Path => [x, y, x + s, y, x + s, y + s, x, y + s];
// clockwise hole
const hole = (x: number, y: number, s: number): Path => [x, y, x, y + s, x + s, y + s, x + s, y];
const SQUARE: Paths = [square(0, 0, 40000)];
const HOLED: Paths = [square(0, 0, 40000), hole(12000, 12000, 16000)];

const signedArea = (p: Path) => {
  let a = 0;
  for (let i = 0; i < p.length; i += 2) {
    const j = (i + 2) % p.length;
    a += p[i] * p[j + 1] - p[j] * p[i + 1];
  }
  return a / 2;
};
const areaOf = (ps: Paths) => ps.reduce((s, p) => s + signedArea(p), 0);
const length = (p: Path) => {
  let l = 0;
  for (let i = 2; i < p.length; i += 2) l += Math.hypot(p[i] - p[i - 2], p[i + 1] - p[i - 1]);
  return l;
};
const deposited = (lines: Paths, area: Paths) => (lines.reduce((s, p) => s + length(p), 0) * W) / areaOf(area);
const params = (pattern: InfillPattern, density: number, o: Partial<InfillParams> = {}): InfillParams => ({
  pattern, density, lineWidth: W, angle: 45, layerIndex: 0, z: 1000, ...o,
});

/** Even-odd point in area. */
function inside(area: Paths, x: number, y: number): boolean {
  let c = false;
  for (const p of area) {
    for (let i = 0, n = p.length; i < n; i += 2) {
      const j = (i + 2) % n;
      const [ax, ay, bx, by] = [p[i], p[i + 1], p[j], p[j + 1]];
      if (ay > y !== by > y && x < ax + ((y - ay) * (bx - ax)) / (by - ay)) c = !c;
    }
  }
  return c;
}
function distToBoundary(area: Paths, x: number, y: number): number {
  let d = Infinity;
  for (const p of area) {
    for (let i = 0, n = p.length; i < n; i += 2) {
      const j = (i + 2) % n;
      const [ax, ay, bx, by] = [p[i], p[i + 1], p[j], p[j + 1]];
      const l2 = (bx - ax) ** 2 + (by - ay) ** 2;
      const t = l2 ? Math.max(0, Math.min(1, ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / l2)) : 0;
      d = Math.min(d, Math.hypot(x - ax - t * (bx - ax), y - ay - t * (by - ay)));
    }
  }
  return d;
}
/** Every path has ≥ 2 integer points, and points sampled every 0.5 mm along it lie in the area (2 µm slack). */
function assertInside(lines: Paths, area: Paths, label: string) {
  for (const p of lines) {
    assert.ok(p.length >= 4 && p.length % 2 === 0, `${label}: path with < 2 points`);
    assert.ok(p.every(Number.isInteger), `${label}: non-integer coordinate`);
    for (let i = 2; i < p.length; i += 2) {
      const steps = Math.max(1, Math.ceil(Math.hypot(p[i] - p[i - 2], p[i + 1] - p[i - 1]) / 500));
      for (let s = 0; s <= steps; s++) {
        const x = p[i - 2] + ((p[i] - p[i - 2]) * s) / steps;
        const y = p[i - 1] + ((p[i + 1] - p[i - 1]) * s) / steps;
        assert.ok(inside(area, x, y) || distToBoundary(area, x, y) <= 2, `${label}: point ${x},${y} outside the area`);
      }
    }
  }
}

test('every pattern deposits its density (±12 %) on a square and on a square with a hole', async () => {
  await initGeometry();
  for (const pattern of PATTERNS) {
    for (const [name, area] of [['square', SQUARE], ['holed', HOLED]] as [string, Paths][]) {
      for (const density of [15, 20, 40]) {
        for (const layerIndex of [0, 1]) {
          const lines = infillLines(area, params(pattern, density, { layerIndex, z: 1000 + 200 * layerIndex }));
          const ratio = deposited(lines, area) / (density / 100);
          assert.ok(Math.abs(ratio - 1) <= 0.12, `${pattern} ${name} ${density}% layer ${layerIndex}: ratio ${ratio.toFixed(3)}`);
        }
      }
    }
  }
});

test('no pattern puts anything outside the area or inside its hole', async () => {
  await initGeometry();
  const star: Path = [];
  for (let i = 0; i < 24; i++) {
    const r = i % 2 ? 9000 : 25000;
    const a = (2 * Math.PI * i) / 24;
    star.push(Math.round(30000 + r * Math.cos(a)), Math.round(30000 + r * Math.sin(a)));
  }
  for (const pattern of PATTERNS) {
    for (const [name, area] of [['holed', HOLED], ['star', [star]]] as [string, Paths][]) {
      const lines = infillLines(area, params(pattern, 20));
      assert.ok(lines.length > 0, `${pattern} ${name}: empty`);
      assertInside(lines, area, `${pattern} ${name}`);
      assert.ok(lines.every((p) => length(p) >= W / 2 - 1), `${pattern} ${name}: a piece shorter than half a line width`);
    }
  }
});

test('0 % gives nothing; 100 % gives solid lines one line width apart for every pattern', async () => {
  await initGeometry();
  for (const pattern of PATTERNS) {
    assert.deepEqual(infillLines(HOLED, params(pattern, 0)), []);
    const solid = infillLines(HOLED, params(pattern, 100));
    assert.deepEqual(solid, solidLines(HOLED, W, 45), `${pattern} at 100 % is not the solid fill`);
    const odd = infillLines(HOLED, params(pattern, 100, { layerIndex: 1 }));
    assert.deepEqual(odd, solidLines(HOLED, W, 135), `${pattern} at 100 % does not turn on odd layers`);
    const ratio = deposited(solid, HOLED);
    assert.ok(Math.abs(ratio - 1) < 0.03, `${pattern} solid ratio ${ratio}`);
  }
  assert.deepEqual(infillLines([], params('lines', 20)), []);
});

/** Direction of a straight path, degrees in [0, 180). */
const direction = (p: Path) => {
  const a = (Math.atan2(p[p.length - 1] - p[1], p[p.length - 2] - p[0]) * 180) / Math.PI;
  return Math.round((a + 360) % 180);
};

test('lines turn 90° between layers; grid keeps both directions; triangles and cubic have three', async () => {
  await initGeometry();
  const dirs = (pattern: InfillPattern, layerIndex: number) =>
    [...new Set(infillLines(SQUARE, params(pattern, 20, { layerIndex })).map(direction))].sort((a, b) => a - b);
  assert.deepEqual(dirs('lines', 0), [45]);
  assert.deepEqual(dirs('lines', 1), [135]);
  assert.deepEqual(dirs('lines', 2), [45]);
  assert.deepEqual(dirs('grid', 0), [45, 135]);
  assert.deepEqual(dirs('grid', 1), [45, 135]);
  assert.deepEqual(dirs('triangles', 0), [45, 105, 165]);
  assert.deepEqual(dirs('cubic', 0), [45, 105, 165]);
});

/** Offset of a straight line along its left normal. */
const offsetOf = (p: Path, deg: number) => {
  const a = (deg * Math.PI) / 180;
  return ((p[0] + p[2]) / 2) * -Math.sin(a) + ((p[1] + p[3]) / 2) * Math.cos(a);
};

test('line positions sit on a global grid, whatever the area', async () => {
  await initGeometry();
  const spacing = (W * 100) / 20;
  for (const area of [SQUARE, [square(1234, 5678, 30000)]]) {
    const lines = infillLines(area, params('lines', 20, { angle: 0 }));
    assert.ok(lines.length > 10);
    for (const p of lines) {
      const k = offsetOf(p, 0) / spacing;
      assert.ok(Math.abs(k - Math.round(k)) < 1e-3, `line at ${offsetOf(p, 0)} is off the grid`);
    }
  }
  // triangles: every crossing of two families lies on the third (spacing 3·w·100/density)
  const tri = infillLines(SQUARE, params('triangles', 20, { angle: 0 }));
  const s3 = (3 * W * 100) / 20;
  for (const p of tri) {
    const k = offsetOf(p, direction(p)) / s3;
    assert.ok(Math.abs(k - Math.round(k)) < 1e-3, 'triangle line off the grid');
  }
});

test('cubic lines shift with z, by z/√2 along their normals', async () => {
  await initGeometry();
  const spacing = (3 * W * 100) / 20;
  for (const z of [0, 1000, 2500]) {
    const lines = infillLines(SQUARE, params('cubic', 20, { angle: 0, z }));
    for (const p of lines) {
      const dir = direction(p);
      // directions 0°, 120°, 240°: 240° prints as 60°, with its normal flipped
      const o = dir === 60 ? -offsetOf(p, 60) : offsetOf(p, dir);
      const k = (o - z / Math.SQRT2) / spacing;
      assert.ok(Math.abs(k - Math.round(k)) < 1e-3, `cubic line (${dir}°) at z ${z} not shifted by z/√2`);
    }
  }
  assert.notDeepEqual(infillLines(SQUARE, params('cubic', 20, { z: 0 })), infillLines(SQUARE, params('cubic', 20, { z: 1000 })));
});

test('gyroid changes with z and its curves lie on the gyroid surface', async () => {
  await initGeometry();
  const a = infillLines(SQUARE, params('gyroid', 20, { z: 0 }));
  const b = infillLines(SQUARE, params('gyroid', 20, { z: 1200 }));
  assert.notDeepEqual(a, b);
  const period = gyroidPeriod(W, 20);
  const k = (2 * Math.PI) / period;
  for (const z of [0, 700, period / 8, 1200, 3000]) {
    const curves = gyroidCurves({ minX: 0, minY: 0, maxX: 20000, maxY: 20000 }, period, z);
    for (const p of curves) {
      for (let i = 0; i < p.length; i += 2) {
        const [x, y, zz] = [p[i] * k, p[i + 1] * k, z * k];
        const f = Math.sin(x) * Math.cos(y) + Math.sin(y) * Math.cos(zz) + Math.sin(zz) * Math.cos(x);
        assert.ok(Math.abs(f) < 0.002, `point off the surface at z ${z}: F = ${f}`);
      }
    }
  }
});

test('the JS polyline clipper agrees with Clipper on gyroid curves', async () => {
  await initGeometry();
  const star: Path = [];
  for (let i = 0; i < 40; i++) {
    const r = i % 2 ? 15000 : 40000;
    const a = (2 * Math.PI * i) / 40;
    star.push(Math.round(50000 + r * Math.cos(a)), Math.round(50000 + r * Math.sin(a)));
  }
  // two overlapping squares, not unioned: inside is non-zero winding, as for Clipper
  const overlapping: Paths = [square(0, 0, 30000), square(15000, 10000, 30000)];
  for (const area of [HOLED, [star], overlapping]) {
    for (const z of [0, 615, 1234]) {
      const curves = gyroidCurves({ minX: 0, minY: 0, maxX: 100000, maxY: 100000 }, 5000, z);
      // also polylines that start inside the area
      curves.push(...gyroidCurves({ minX: 17000, minY: 12000, maxX: 28000, maxY: 28000 }, 3000, z));
      const ours = clipPolylines(curves, area, 0);
      const ref = clipLines(curves, area);
      const lo = ours.reduce((s, p) => s + length(p), 0);
      const lr = ref.reduce((s, p) => s + length(p), 0);
      assert.ok(Math.abs(lo - lr) / lr < 1e-4, `length ${lo} vs Clipper ${lr} at z ${z}`);
      assert.equal(ours.filter((p) => length(p) > 1).length, ref.filter((p) => length(p) > 1).length);
    }
  }
});

/** Joins straight pieces on the same line whose ends meet (within 2 µm). */
function joinTouching(lines: Paths, angle: number): Paths {
  const ax = axesOf(angle);
  const along = (x: number, y: number) => x * ax.dx + y * ax.dy;
  const pieces = lines.map((p) => {
    const [a, b] = [along(p[0], p[1]), along(p[2], p[3])];
    return { o: Math.round(offsetOf(p, angle) / 10), lo: Math.min(a, b), hi: Math.max(a, b), p: a <= b ? p : [p[2], p[3], p[0], p[1]] };
  });
  pieces.sort((a, b) => a.o - b.o || a.lo - b.lo);
  const out: { o: number; hi: number; p: Path }[] = [];
  for (const q of pieces) {
    const last = out[out.length - 1];
    if (last && last.o === q.o && Math.abs(q.lo - last.hi) <= 2) {
      last.p = [last.p[0], last.p[1], q.p[2], q.p[3]];
      last.hi = q.hi;
    } else out.push({ o: q.o, hi: q.hi, p: q.p });
  }
  return out.map((q) => q.p);
}

test('the scanline clipper agrees with Clipper, also where lines run through vertices', async () => {
  await initGeometry();
  let seed = 7;
  const rand = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const lattice = (n: number) => 1000 * Math.floor(rand() * n);
  for (let trial = 0; trial < 6; trial++) {
    // squares for slanted lines; diamonds with vertices on a 1 mm lattice for 0° and 90° lines at
    // 1 mm spacing, which then pass exactly through vertices (lines along edges are ambiguous, so
    // no area here has edges parallel to its lines)
    const squares: Paths = [];
    const diamonds: Paths = [];
    for (let i = 0; i < 8; i++) {
      squares.push(square(lattice(40), lattice(40), 1000 * (2 + Math.floor(rand() * 15))));
      const [cx, cy, r] = [lattice(40), lattice(40), 1000 * (2 + Math.floor(rand() * 10))];
      diamonds.push([cx + r, cy, cx, cy + r, cx - r, cy, cx, cy - r]);
    }
    const cases: [Paths, number, number][] = [
      [union(squares), 30.5, 1100],
      [union(squares), 45, 900],
      [union(diamonds), 0, 1000],
      [union(diamonds), 90, 1000],
    ];
    for (const [area, angle, spacing] of cases) {
      const ours: Paths = [];
      gridFamily(area, axesOf(angle), spacing, 0, 0, ours);
      const ax = axesOf(angle);
      const long: Paths = [];
      for (let k = -100; k <= 100; k++) {
        const o = k * spacing;
        long.push([o * ax.nx - 1e5 * ax.dx, o * ax.ny - 1e5 * ax.dy, o * ax.nx + 1e5 * ax.dx, o * ax.ny + 1e5 * ax.dy].map(Math.round));
      }
      // Clipper splits a line where it touches the boundary at one point from inside; join those
      const ref = joinTouching(clipLines(long, area), angle).filter((p) => length(p) > 2);
      const lo = ours.reduce((s, p) => s + length(p), 0);
      const lr = ref.reduce((s, p) => s + length(p), 0);
      assert.ok(lr > 0);
      assert.ok(Math.abs(lo - lr) <= 2 * ref.length, `trial ${trial} ${angle}°: ${lo} vs Clipper ${lr}`);
      // where a line passes a point where the boundary touches itself, either may split it or not
      assert.equal(joinTouching(ours, angle).filter((p) => length(p) > 2).length, ref.length, `trial ${trial} ${angle}°: piece count`);
    }
  }
});

test('solidLines covers a square at exactly one line width, monotonic, split at a hole', async () => {
  await initGeometry();
  for (const angle of [0, 45, 135]) {
    const lines = solidLines(SQUARE, W, angle);
    const offsets = lines.map((p) => offsetOf(p, angle));
    for (let i = 1; i < lines.length; i++) {
      const d = offsets[i] - offsets[i - 1];
      assert.ok(d >= -1, `${angle}°: not sorted across`);
      assert.ok(Math.abs(d) <= 1 || Math.abs(d - W) <= 1, `${angle}°: step ${d} is not one line width`);
    }
    assert.ok(Math.abs(deposited(lines, SQUARE) - 1) < 0.02, `${angle}°: coverage ${deposited(lines, SQUARE)}`);
    assert.ok(lines.every((p) => direction(p) === angle % 180), `${angle}°: a line points the other way`);
  }
  const lines = solidLines(HOLED, W, 0);
  assertInside(lines, HOLED, 'solid holed');
  // rows through the hole come in two pieces, left and right of it, in order along the row
  const rows = new Map<number, Path[]>();
  for (const p of lines) rows.set(Math.round(offsetOf(p, 0)), [...(rows.get(Math.round(offsetOf(p, 0))) ?? []), p]);
  const through = [...rows.entries()].filter(([y]) => y > 12000 && y < 28000);
  assert.ok(through.length >= 38);
  for (const [, ps] of through) {
    assert.equal(ps.length, 2);
    assert.ok(ps[0][2] <= 12001 && ps[1][0] >= 27999, 'pieces not split at the hole or out of order');
  }
  assert.ok(Math.abs(deposited(lines, HOLED) - 1) < 0.03);
});

test('fittedSolidLines: beside edges along the lines the outermost beads reach the walls; corners keep solidLines', async () => {
  await initGeometry();
  // skin of a strip between two walls: the area given is the strip inset by `edgeDistance`, and the
  // beads should reach `sideOverlap` past the strip's edges on both sides, for any strip width
  const fit = { edgeDistance: 100, sideOverlap: 40 };
  for (const strip of [690, 800, 1000, 1270, 1500, 2000, 4100, 10200]) {
    const inset: Paths = [[0, 100, 20000, 100, 20000, strip - 100, 0, strip - 100]];
    const { lines, width } = fittedSolidLines(inset, W, 0, fit);
    const ys = lines.map((l) => l[1]!).sort((a, b) => a - b);
    const reachLow = -(ys[0]! - width / 2);
    const reachHigh = ys[ys.length - 1]! + width / 2 - strip;
    assert.ok(Math.abs(reachLow - 40) <= 1 && Math.abs(reachHigh - 40) <= 1, `${strip} µm strip: beads reach ${reachLow} / ${reachHigh} µm past its edges, not 40`);
    for (let i = 1; i < ys.length; i++) assert.ok(Math.abs(ys[i]! - ys[i - 1]! - width) <= 1, `${strip} µm strip: lines ${ys[i]! - ys[i - 1]!} apart at width ${width}`);
    assert.ok(width >= 0.75 * W && width <= 1.34 * W, `${strip} µm strip: width ${width}`);
    // solidLines at the fixed width left a bare band beside one edge or both on most of these
    const fixed = solidLines(inset, W, 0).map((l) => l[1]!);
    if (strip === 690) assert.equal(fixed.length, 1, 'the 0.69 mm strip no longer shows what the fit is for');
  }
  // skinOverlap 25 %: a reach of half a line puts the outermost centres on the area's edge, where a
  // line can vanish; they stay a few µm inside and the beads still reach into the walls
  for (const strip of [800, 1000, 1200, 1600, 2000]) {
    const inset: Paths = [[0, 100, 20000, 100, 20000, strip - 100, 0, strip - 100]];
    const { lines, width } = fittedSolidLines(inset, W, 0, { edgeDistance: 100, sideOverlap: 100 });
    const ys = lines.map((l) => l[1]!).sort((a, b) => a - b);
    const past = Math.min(-(ys[0]! - width / 2), ys[ys.length - 1]! + width / 2 - strip);
    assert.ok(past >= 80 && past <= 101, `${strip} µm strip at 25 %: beads reach ${past} µm past its edges`);
  }
  // a sliver along one edge, thinner than where the first line would go: still a line (solidLines')
  for (const h of [30, 45, 61]) assert.equal(fittedSolidLines([[0, 0, 3000, 0, 1500, h]], W, 0, fit).lines.length, solidLines([[0, 0, 3000, 0, 1500, h]], W, 0).length, `sliver ${h} µm`);
  // the 0.69 mm strip (3DBenchy's windshield top) gets two beads instead of one
  assert.equal(fittedSolidLines([[0, 100, 20000, 100, 20000, 590, 0, 590]], W, 0, fit).lines.length, 2);
  // 45° lines on a square: both ends of the extent are corners, so nothing changes
  assert.deepEqual(fittedSolidLines(SQUARE, W, 45, fit), { lines: solidLines(SQUARE, W, 45), width: W });
  // a right triangle with its long leg along the lines: lines start from that edge at the line
  // width, and the corner at the other end is left as solidLines would
  const tri: Paths = [[0, 0, 20000, 0, 0, 10000]];
  const { lines, width } = fittedSolidLines(tri, W, 0, fit);
  assert.equal(width, W);
  const ys = [...new Set(lines.map((l) => l[1]!))].sort((a, b) => a - b);
  assert.equal(ys[0], W / 2 - 140, 'the first line does not sit a bead from the flat edge');
  assertInside(lines, tri, 'triangle');
});

test('short pieces are left out', async () => {
  await initGeometry();
  // a thin sliver: 45° lines cut only short stubs near its ends
  const sliver: Paths = [[0, 0, 30000, 0, 30000, 150]];
  for (const lines of [solidLines(sliver, W, 90), infillLines(sliver, params('grid', 50))]) {
    assert.ok(lines.every((p) => length(p) >= W / 2));
  }
});

