// Chaining a layer's segments where many of them meet at one edge key (many triangles on one mesh
// edge: copies of a shell that share some vertices, a fan of fins around one edge). Finding a partner
// walked every endpoint of the key, used or not, so such a layer took time quadratic in the segments.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SegmentBuffer } from '../src/engine/layers/segments.js';
import { ChainScratch, chainSegments } from '../src/engine/layers/chain.js';

/** `k` triangles around one point, each a closed loop of 3 segments meeting the others at key (0, 1). */
function spokes(k: number): SegmentBuffer {
  const seg = new SegmentBuffer();
  seg.ensure(3 * k);
  const put = (x0: number, y0: number, a: [number, number], x1: number, y1: number, b: [number, number]) => {
    const o = 4 * seg.count++;
    seg.xy.set([x0, y0, x1, y1], o);
    seg.keys.set([...a, ...b], o);
  };
  for (let i = 0; i < k; i++) {
    const t0 = (2 * Math.PI * i) / k, t1 = (2 * Math.PI * (i + 0.4)) / k;
    const p: [number, number] = [2 + 2 * i, 3 + 2 * i], q: [number, number] = [3 + 2 * i, 4 + 2 * i];
    const [px, py, qx, qy] = [1e6 * Math.cos(t0), 1e6 * Math.sin(t0), 1e6 * Math.cos(t1), 1e6 * Math.sin(t1)];
    // the segment leaving the shared point last: a walk then arrives there and must find a partner
    put(px, py, p, qx, qy, q);
    put(qx, qy, q, 0, 0, [0, 1]);
    put(0, 0, [0, 1], px, py, p);
  }
  return seg;
}

test('segments sharing one edge key chain in time linear in their number', () => {
  const small = chainSegments(spokes(3), new ChainScratch());
  assert.equal(small.open.length, 0);
  assert.equal(small.loopStart[small.loopStart.length - 1], 2 * 9);
  const k = 50_000;
  const seg = spokes(k);
  const started = performance.now();
  const { loopStart, open } = chainSegments(seg, new ChainScratch());
  const ms = performance.now() - started;
  // every segment is in a closed loop (whichever spokes the walk joins at the shared point)
  assert.equal(open.length, 0);
  assert.equal(loopStart[loopStart.length - 1], 2 * 3 * k);
  assert.ok(ms < 1000, `${ms.toFixed(0)} ms`); // tens of ms; walking the shared key's whole list every time took seconds
});
