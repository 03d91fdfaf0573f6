// Gap fill along gaps that curl round (a C, a spiral arm): one line from end to end along the middle,
// not a line between the two points farthest apart, which on such a gap ran back along itself (twice
// the material down a spiral's middle) or left part of it empty.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initGeometry } from '../src/engine/geom/clipper.js';
import { pathLength } from '../src/engine/geom/path-math.js';
import { gapFillLines } from '../src/engine/regions/gap-fill.js';

/** A strip of even width along the curve c(t), t in [0, 1], as one counter-clockwise loop (µm), and the curve's length. */
function strip(c: (t: number) => [number, number], width: number, steps: number): { loop: number[]; length: number } {
  const mid: [number, number][] = [];
  for (let i = 0; i <= steps; i++) mid.push(c(i / steps));
  const side = (sign: number) =>
    mid.map(([x, y], i) => {
      const [ax, ay] = mid[Math.max(0, i - 1)], [bx, by] = mid[Math.min(steps, i + 1)];
      const l = Math.hypot(bx - ax, by - ay);
      return [Math.round(x - (sign * (by - ay) * width) / 2 / l), Math.round(y + (sign * (bx - ax) * width) / 2 / l)];
    });
  const left = side(1), right = side(-1);
  const loop = [...right, ...left.reverse()].flat();
  let area = 0;
  for (let i = 0; i < loop.length; i += 2) {
    const j = (i + 2) % loop.length;
    area += loop[i] * loop[j + 1] - loop[j] * loop[i + 1];
  }
  let length = 0;
  for (let i = 1; i <= steps; i++) length += Math.hypot(mid[i][0] - mid[i - 1][0], mid[i][1] - mid[i - 1][1]);
  return { loop: area > 0 ? loop : reverseLoop(loop), length };
}

function reverseLoop(p: number[]): number[] {
  const q: number[] = [];
  for (let i = p.length - 2; i >= 0; i -= 2) q.push(p[i], p[i + 1]);
  return q;
}

test('a C-shaped gap and a spiral gap get one line from end to end, as long as their middles', async () => {
  await initGeometry();
  const shapes = {
    // three quarters of a circle of 5 mm radius
    c: strip((t) => [5000 * Math.cos(1.5 * Math.PI * t), 5000 * Math.sin(1.5 * Math.PI * t)], 400, 300),
    // three turns of a spiral, 2 mm apart
    spiral: strip((t) => {
      const a = 6 * Math.PI * t, r = 3000 + (2000 * a) / (2 * Math.PI);
      return [r * Math.cos(a), r * Math.sin(a)];
    }, 400, 1200),
  };
  for (const [name, { loop, length }] of Object.entries(shapes)) {
    const lines = gapFillLines([loop], { width: 400, minWidth: 100, model: 0 });
    const total = lines.reduce((s, l) => s + pathLength(l.points, l.closed), 0);
    assert.ok(Math.abs(total - length) < 0.05 * length, `${name}: lines ${Math.round(total)} µm along a middle of ${Math.round(length)} µm`);
    for (const l of lines) assert.ok(l.width >= 300 && l.width <= 450, `${name}: width ${l.width}`);
  }
});
