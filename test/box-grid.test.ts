import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BoxGrid, boxDistance, type Box } from '../src/engine/plan/box-grid.js';
import { rng } from './mesh-fixtures.js';

/** The order a plain search over every remaining box gives (what the grid must reproduce). */
function plainOrder(boxes: Box[], x: number, y: number): number[] {
  const left = boxes.map((b, k) => ({ b, k }));
  const out: number[] = [];
  while (left.length) {
    let best = 0, bd = Infinity;
    for (let i = 0; i < left.length; i++) {
      const [x0, y0, x1, y1] = left[i].b;
      const dx = Math.max(x0 - x, 0, x - x1), dy = Math.max(y0 - y, 0, y - y1);
      const cx = (x0 + x1) / 2 - x, cy = (y0 + y1) / 2 - y;
      const d = Math.sqrt(dx * dx + dy * dy) * 1e3 + Math.sqrt(cx * cx + cy * cy) * 1e-3;
      if (d < bd) {
        bd = d;
        best = i;
      }
    }
    const { b, k } = left.splice(best, 1)[0];
    out.push(k);
    // the next search starts where this box "ends": a corner of it
    x = b[2];
    y = b[1];
  }
  return out;
}

function gridOrder(boxes: Box[], x: number, y: number): number[] {
  const grid = new BoxGrid(boxes);
  const out: number[] = [];
  const score = (k: number) => {
    const b = boxes[k];
    return boxDistance(b, x, y) * 1e3 + Math.sqrt(((b[0] + b[2]) / 2 - x) ** 2 + ((b[1] + b[3]) / 2 - y) ** 2) * 1e-3;
  };
  for (let k = grid.nearest(x, y, score, 1e3); k >= 0; k = grid.nearest(x, y, score, 1e3)) {
    grid.remove(k);
    out.push(k);
    x = boxes[k][2];
    y = boxes[k][1];
  }
  assert.equal(grid.size, 0);
  return out;
}

test('box order: the grid gives the same order as a search over every box', () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    const r = rng(seed);
    const boxes: Box[] = [];
    // a grid of pins, a few large plates over them (nested parts), some duplicates (ties), clusters
    for (let i = 0; i < 30; i++) for (let j = 0; j < 20; j++) boxes.push([i * 1200, j * 1200, i * 1200 + 800, j * 1200 + 800]);
    for (let k = 0; k < 5; k++) {
      const x = Math.round(r() * 30000), y = Math.round(r() * 20000);
      boxes.push([x, y, x + Math.round(r() * 20000), y + Math.round(r() * 15000)]);
    }
    for (let k = 0; k < 20; k++) boxes.push([...boxes[Math.floor(r() * boxes.length)]] as unknown as Box);
    for (let k = 0; k < 200; k++) {
      const x = 50000 + Math.round(r() * 3000), y = Math.round(r() * 3000);
      boxes.push([x, y, x + 50 + Math.round(r() * 400), y + 50 + Math.round(r() * 400)]);
    }
    // starts inside, far outside on each side, and on a box corner
    for (const [x, y] of [[15000, 9000], [-1e6, -1e6], [2e6, 5000], [30000, 3e6], [800, 800]]) {
      assert.deepEqual(gridOrder(boxes, x, y), plainOrder(boxes, x, y), `seed ${seed}, start ${x}, ${y}`);
    }
  }
});

test('box order: boxes that all span the layer (slivers fanning out from one point), among small ones', () => {
  const boxes: Box[] = [];
  for (let k = 0; k < 400; k++) {
    const a = (2 * Math.PI * k) / 400;
    const [x, y] = [Math.round(20000 * Math.cos(a)), Math.round(20000 * Math.sin(a))];
    boxes.push([Math.min(0, x), Math.min(0, y), Math.max(0, x), Math.max(0, y)]);
    if (k % 4 === 0) boxes.push([x, y, x + 300, y + 300]);
  }
  boxes.push([Infinity, Infinity, -Infinity, -Infinity]); // an empty outline's box
  for (const [x, y] of [[0, 0], [20000, 0], [-30000, 5000]]) {
    const got = gridOrder(boxes, x, y);
    assert.deepEqual(got, plainOrder(boxes, x, y));
    assert.equal(got[got.length - 1], boxes.length - 1, 'the empty box goes last');
  }
});

test('box order: few boxes, one box, none, a line of boxes (a flat grid)', () => {
  assert.deepEqual(gridOrder([], 0, 0), []);
  assert.deepEqual(gridOrder([[0, 0, 10, 10]], 5, 5), [0]);
  const three: Box[] = [[100, 0, 110, 10], [0, 0, 10, 10], [50, 0, 60, 10]];
  assert.deepEqual(gridOrder(three, 0, 0), plainOrder(three, 0, 0));
  const line: Box[] = Array.from({ length: 500 }, (_, k) => [k * 1000, 0, k * 1000 + 600, 0] as const);
  assert.deepEqual(gridOrder(line, 250_000, 0), plainOrder(line, 250_000, 0));
});

test('box grid: many exact ties (a regular grid, distances to corners) go to the box listed first', () => {
  const boxes: Box[] = [];
  for (let j = 0; j < 40; j++) for (let i = 0; i < 40; i++) boxes.push([i * 2500, j * 2500, i * 2500 + 1600, j * 2500 + 1600]);
  // the distance to a box's nearest corner, as the planner measures a seam: √(dx² + dy²)
  const cornerDist = (b: Box, x: number, y: number) => {
    let d = Infinity;
    for (const cx of [b[0], b[2]]) for (const cy of [b[1], b[3]]) d = Math.min(d, Math.sqrt((cx - x) ** 2 + (cy - y) ** 2));
    return d;
  };
  const grid = new BoxGrid(boxes);
  const taken = new Set<number>();
  let x = 50_000, y = 50_000;
  while (grid.size) {
    const k = grid.nearest(x, y, (i) => cornerDist(boxes[i], x, y));
    let want = -1, wd = Infinity;
    for (let i = 0; i < boxes.length; i++) {
      if (taken.has(i)) continue;
      const d = cornerDist(boxes[i], x, y);
      if (d < wd) (wd = d), (want = i);
    }
    assert.equal(k, want, `from ${x}, ${y}`);
    grid.remove(k);
    taken.add(k);
    [x, y] = [boxes[k][2], boxes[k][3]];
  }
  // a secondary key decides between equal scores before the list order does
  const two = new BoxGrid([[0, 0, 10, 10], [20, 0, 30, 10]]);
  assert.equal(two.nearest(15, 5, () => 10), 0);
  assert.equal(two.nearest(15, 5, () => 10, 1, (i) => -i), 1);
});
