// Keys crafted to collide in the fixed hash functions of welding, duplicate detection and chaining:
// with linear probing each insert would walk all the earlier ones (hours for a few MB of file). The
// tables count their probes and fall back to sorting; the answers must be the hash tables' answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { weld } from '../src/engine/mesh/weld.js';
import { dropDuplicateTriangles } from '../src/engine/mesh/duplicates.js';
import { SegmentBuffer } from '../src/engine/layers/segments.js';
import { ChainScratch, chainSegments } from '../src/engine/layers/chain.js';
import { rng } from './mesh-fixtures.js';

/** The multiplicative inverse of an odd number mod 2³². */
function inverse(k: number): number {
  let x = k;
  for (let i = 0; i < 5; i++) x = Math.imul(x, 2 - Math.imul(k, x));
  return x;
}
/** Undoes x ^= x >>> 13. */
const unshift13 = (y: number) => (y ^ (y >>> 13) ^ (y >>> 26)) >>> 0;
/** A float's bits whose value lies between about 0.004 and 1000 in size (either sign). */
const moderate = (bits: number) => {
  const exponent = (bits >>> 23) & 0xff;
  return exponent >= 119 && exponent <= 136;
};

test('welding: 150,000 distinct vertices in one hash slot, each given twice', { timeout: 30_000 }, () => {
  // weld's hash before folding: imul(a, K1) ^ imul(b ^ b >>> 16, K2) ^ imul(c ^ c >>> 13, K3)
  const K2 = 0x85ebca77, K3 = 0xc2b2ae3d, invK3 = inverse(K3);
  const r = rng(7);
  const pts: number[] = [];
  const seen = new Set<string>();
  while (pts.length < 3 * 150_000) {
    const b = (0x3c000000 + r() * 0x8000000) >>> 0; // 0.0078…0.125
    const c = unshift13(Math.imul(Math.imul(b ^ (b >>> 16), K2) ^ 0x1234567, invK3));
    if (!moderate(c) || seen.has(`${b},${c}`)) continue;
    seen.add(`${b},${c}`);
    pts.push(0, b, c);
  }
  const n = pts.length / 3;
  const bits = new Uint32Array(2 * pts.length);
  bits.set(pts);
  bits.set(pts, pts.length);
  // triangles (v, v+1, v+2) over the first copy, then the same corners from the second copy
  const { mesh, repeated, flat, collapsed } = weld(new Float32Array(bits.buffer), null);
  // (random triangles: a few are thin enough to count as flat, both copies, and their corners go)
  assert.equal(collapsed, 0);
  assert.ok(flat < 10, `${flat} flat`);
  assert.equal(mesh.positions.length / 3, n - (3 * flat) / 2, 'each vertex once');
  assert.equal(repeated, n / 3 - flat / 2, 'the second copy of every triangle is a repeat');
});

test('duplicate triangles: 200,000 triangles in one hash slot, some repeated', { timeout: 30_000 }, () => {
  // the slot hash of a sorted triple: imul(a, K1) ^ imul(b, K2) ^ imul(c, K3)
  const K1 = 0x9e3779b1, K2 = 0x85ebca77, invK3 = inverse(0xc2b2ae3d);
  const tris: number[] = [];
  for (let a = 0; tris.length < 3 * 200_000; a++) {
    const b = a + 1;
    const c = Math.imul(Math.imul(a, K1) ^ Math.imul(b, K2) ^ 0x2468ace, invK3) >>> 0;
    if (c > b) tris.push(a, b, c);
  }
  const count = tris.length / 3;
  const all = Uint32Array.from([...tris, ...tris.slice(0, 300), ...[tris[5], tris[4], tris[3]]]);
  const d = dropDuplicateTriangles(all, count + 101);
  // triangle 1: twice one way, once the other: one copy is left of it
  assert.equal(d.repeated, 99);
  assert.equal(d.cancelled, 2);
  assert.equal(d.count, count);
  assert.deepEqual([...all.subarray(0, 6)], tris.slice(0, 6), 'the first copies kept, in order');
});

test('chaining: 150,000 edge keys in one hash slot close into their loops', { timeout: 30_000 }, () => {
  // chain's hash: imul(lo, K1) ^ imul(hi, K2)
  const K1 = 0x9e3779b1, invK2 = inverse(0x85ebca77);
  const keys: [number, number][] = [];
  for (let lo = 1; keys.length < 150_000; lo++) keys.push([lo, Math.imul(Math.imul(lo, K1) ^ 0x55aa55, invK2)]);
  const seg = new SegmentBuffer();
  const loops = keys.length / 3;
  seg.ensure(keys.length);
  for (let l = 0; l < loops; l++) {
    // a small triangle per loop, far from the others
    const x = (l % 300) * 1000, y = Math.floor(l / 300) * 1000;
    const p = [[x, y], [x + 500, y], [x, y + 500]];
    for (let j = 0; j < 3; j++) {
      const o = 4 * seg.count++;
      const [a, b] = [3 * l + j, 3 * l + ((j + 1) % 3)];
      seg.xy.set([p[j][0], p[j][1], p[(j + 1) % 3][0], p[(j + 1) % 3][1]], o);
      seg.keys.set([...keys[a], ...keys[b]], o);
    }
  }
  const { loopStart, open, clean } = chainSegments(seg, new ChainScratch());
  assert.equal(open.length, 0);
  assert.equal(loopStart.length - 1, loops);
  assert.equal(loopStart[loops], 2 * 3 * loops);
  assert.ok(clean);
});
