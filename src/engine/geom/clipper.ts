// Polygon offsets and booleans on integer-micrometre paths, backed by Clipper2 compiled to WASM
// (clipper2-wasm: the fastest Clipper2 build measured here). Every WASM object is deleted (the two
// reused input vectors cleared) in a `finally`, since the WASM heap never shrinks. Call `initGeometry()` once before any other function.
import type { Path, Paths } from '../types.js';
import { signedArea } from './path-math.js';
import { miterOffsetWithoutUnion } from './miter-offset.js';
import { nestCleanLoops } from './loop-nesting.js';
import type * as C2 from 'clipper2-wasm/dist/clipper2z.js';
import { createRequire } from 'node:module';
// The package's CommonJS build (its "main"), not its ES build: that one is ES module syntax in a
// package without "type": "module", which Node before 20.19 and 22.7 refuses to load (SyntaxError:
// Cannot use 'import.meta' outside a module), and later ones load only after a failed first parse.
import factory from 'clipper2-wasm';

let M: C2.MainModule | null = null;
let loading: Promise<void> | null = null;

/** Loads the WASM module (about 30 ms); safe to call many times. */
export function initGeometry(): Promise<void> {
  if (M) return Promise.resolve();
  if (!loading) {
    // The .wasm file named explicitly: the glue looks beside its own file, which in the slice bundle
    // (dist/bundle/slice.cjs) is the bundle's folder. This module's URL is its own file's there too.
    const wasmFile = createRequire(import.meta.url).resolve('clipper2-wasm/dist/umd/clipper2z.wasm');
    loading = factory({ locateFile: (file) => (file.endsWith('.wasm') ? wasmFile : file) }).then((mod) => {
      M = mod;
      rawLayout = checkRawLayout();
    });
  }
  return loading;
}

function mod(): C2.MainModule {
  if (!M) throw new Error('geometry not initialised: await initGeometry() first');
  return M;
}

export type JoinKind = 'miter' | 'round' | 'square';
export type FillKind = 'evenodd' | 'nonzero' | 'positive' | 'negative';

function joinType(j: JoinKind): C2.JoinType {
  const m = mod();
  return j === 'round' ? m.JoinType.Round : j === 'square' ? m.JoinType.Square : m.JoinType.Miter;
}

function fillRule(f: FillKind): C2.FillRule {
  const m = mod();
  switch (f) {
    case 'evenodd':
      return m.FillRule.EvenOdd;
    case 'nonzero':
      return m.FillRule.NonZero;
    case 'negative':
      return m.FillRule.Negative;
    default:
      return m.FillRule.Positive;
  }
}

// Precision 0: Clipper2 rounds to whole units, which are micrometres here.
const PREC = 0;

// One scratch buffer (x, y, z per point) and one PathD serve every conversion: a JS typed array and an
// embind handle per path cost more than the copy itself on layers of many small paths.
let scratch = new Float64Array(3 * 1024);
let scratchPath: C2.PathD | null = null;

// The two input vectors (subject, clip) are kept and refilled as well: a new PathsD per call costs an
// embind handle, which on 3DBenchy's ~100k geometry calls was a tenth of the time spent in this file.
// Callers clear() them when done, so their points do not stay allocated between calls.
const inputs: [C2.PathsD | null, C2.PathsD | null] = [null, null];

function toWasm(paths: Paths, minPoints = 1, slot: 0 | 1 = 0): C2.PathsD {
  const m = mod();
  const out = (inputs[slot] ??= new m.PathsD());
  out.clear();
  const pd = (scratchPath ??= new m.PathD());
  for (const p of paths) {
    const n = p.length >> 1;
    if (n < minPoints) continue;
    if (scratch.length < n * 3) scratch = new Float64Array(Math.max(n * 3, scratch.length * 2));
    const buf = scratch;
    for (let i = 0, j = 0; i < n; i++, j += 3) {
      buf[j] = p[2 * i];
      buf[j + 1] = p[2 * i + 1];
      buf[j + 2] = 0;
    }
    // push_back copies the path into the vector, so the one PathD can be refilled
    pd.assign(buf.subarray(0, n * 3));
    out.push_back(pd);
  }
  return out;
}

function fromWasm(paths: C2.PathsD, minPoints: number): Paths {
  if (rawLayout === true) return fromWasmRaw(paths, minPoints);
  const out: Paths = [];
  const n = paths.size();
  for (let i = 0; i < n; i++) {
    const pd = paths.get(i);
    const v = pd.view();
    const k = v.length / 3;
    if (k >= minPoints) {
      const p: Path = new Array(k * 2);
      for (let a = 0, b = 0; a < k; a++, b += 3) {
        p[2 * a] = Math.round(v[b]);
        p[2 * a + 1] = Math.round(v[b + 1]);
      }
      out.push(p);
    }
    pd.delete();
  }
  return out;
}

// Reading a result path by path through embind (`paths.get(i)`) copies each path into a new C++
// object behind a new JS handle: on layers of many small paths that cost more than the clipping.
// A PathsD is a std::vector<std::vector<PointD>> in WASM memory (libc++, 32-bit: begin/end/capacity
// pointers; PointD = x, y as float64 and z as int64, 24 bytes), so the points can be read in place.
// The layout is checked once against embind's own reading (rawLayout) and not relied on otherwise.
let rawLayout: boolean | null = null;
let heapBuffer: ArrayBufferLike | null = null;
let heapU32: Uint32Array<ArrayBufferLike> = new Uint32Array(0);
let heapF64: Float64Array<ArrayBufferLike> = new Float64Array(0);

/** The module's WASM memory (a new buffer each time the memory grows). */
function wasmMemory(m: C2.MainModule): ArrayBufferLike {
  return (m as unknown as { HEAPU8: Uint8Array }).HEAPU8.buffer;
}

function heapViews(): void {
  const buffer = wasmMemory(mod());
  // the views go stale (detached) when the WASM memory grows
  if (buffer !== heapBuffer) {
    heapBuffer = buffer;
    heapU32 = new Uint32Array(buffer);
    heapF64 = new Float64Array(buffer);
  }
}

/** Bytes of the geometry module's WASM memory on this thread (it grows with the largest job and never shrinks). */
export function geometryMemoryBytes(): number {
  return M ? wasmMemory(M).byteLength : 0;
}

/** Whether results are read straight from WASM memory (the layout check passed); for tests. */
export function readsResultsInPlace(): boolean {
  return rawLayout === true;
}

/** The address of the C++ object behind an embind handle. */
function addressOf(handle: object): number {
  return (handle as { $$?: { ptr?: number } }).$$?.ptr ?? 0;
}

function fromWasmRaw(paths: C2.PathsD, minPoints: number): Paths {
  heapViews();
  const u32 = heapU32;
  const f64 = heapF64;
  const vec = addressOf(paths) >>> 2;
  const out: Paths = [];
  for (let q = u32[vec], end = u32[vec + 1]; q < end; q += 12) {
    const begin = u32[q >>> 2];
    const k = (u32[(q >>> 2) + 1] - begin) / 24;
    if (k < minPoints) continue;
    const p: Path = new Array(k * 2);
    for (let a = 0, b = begin >>> 3; a < k; a++, b += 3) {
      p[2 * a] = Math.round(f64[b]);
      p[2 * a + 1] = Math.round(f64[b + 1]);
    }
    out.push(p);
  }
  return out;
}

/** Decides once whether fromWasmRaw reads what embind reads, on paths of several lengths. */
function checkRawLayout(): boolean {
  const probe: Paths = [[1, 2, 3, 4, 5, 6], [], [-7, 8, 9, -10, 11, 12, 13, 14, 15, 16], [17, 18, 19, 20]];
  const wasm = toWasm(probe, 1);
  try {
    if (addressOf(wasm) === 0) return false;
    rawLayout = false;
    return JSON.stringify(fromWasm(wasm, 1)) === JSON.stringify(fromWasmRaw(wasm, 1));
  } catch {
    return false;
  } finally {
    wasm.clear();
  }
}

/** Sees each miter offset: the direct result (null where it left the offset to Clipper2) and Clipper2's own. */
export type MiterOffsetObserver = (paths: Paths, delta: number, miterLimit: number, direct: Paths | null, clipper: Paths) => void;
let miterObserver: MiterOffsetObserver | null = null;

/** Has every miter offset also made by Clipper2 and shown to `observer` (bench/offset-check.ts, tests); null stops it. */
export function observeMiterOffsets(observer: MiterOffsetObserver | null): void {
  miterObserver = observer;
}

/**
 * Offsets closed polygons by `delta` µm (negative shrinks). Round joins use an arc tolerance of
 * `arcTolerance` µm. Returns positive-oriented areas. Miter offsets are traced directly where that is
 * plainly right (miter-offset.ts: most of them, without Clipper2's union); the rest go to Clipper2.
 */
export function offset(paths: Paths, delta: number, join: JoinKind = 'miter', miterLimit = 2, arcTolerance = 5): Paths {
  if (paths.length === 0) return [];
  if (join === 'miter') {
    const quick = miterOffsetWithoutUnion(paths, delta, miterLimit);
    if (miterObserver !== null) miterObserver(paths, delta, miterLimit, quick, clipperOffset(paths, delta, join, miterLimit, arcTolerance));
    if (quick !== null) return quick;
  }
  return clipperOffset(paths, delta, join, miterLimit, arcTolerance);
}

function clipperOffset(paths: Paths, delta: number, join: JoinKind, miterLimit: number, arcTolerance: number): Paths {
  const m = mod();
  const src = toWasm(paths, 3);
  let res: C2.PathsD | null = null;
  try {
    res = m.InflatePathsD(src, delta, joinType(join), m.EndType.Polygon, miterLimit, PREC, arcTolerance);
    return fromWasm(res, 3);
  } finally {
    src.clear();
    res?.delete();
  }
}

/** Offsets open polylines into closed outlines (a stroke of width 2·delta); 'joined' strokes closed loops. */
export function offsetOpen(
  paths: Paths,
  delta: number,
  join: JoinKind = 'round',
  end: 'butt' | 'round' | 'square' | 'joined' = 'round',
  arcTolerance = 5,
): Paths {
  if (paths.length === 0) return [];
  const m = mod();
  const src = toWasm(paths, 2);
  let res: C2.PathsD | null = null;
  const et =
    end === 'butt' ? m.EndType.Butt : end === 'square' ? m.EndType.Square : end === 'joined' ? m.EndType.Joined : m.EndType.Round;
  try {
    res = m.InflatePathsD(src, delta, joinType(join), et, 2, PREC, arcTolerance);
    return fromWasm(res, 3);
  } finally {
    src.clear();
    res?.delete();
  }
}

function boolean(op: 'union' | 'intersection' | 'difference' | 'xor', subject: Paths, clip: Paths, fill: FillKind): Paths {
  const m = mod();
  const s = toWasm(subject, 3);
  const c = toWasm(clip, 3, 1);
  let res: C2.PathsD | null = null;
  try {
    const f = fillRule(fill);
    if (op === 'union') res = m.UnionD(s, c, f, PREC);
    else if (op === 'intersection') res = m.IntersectD(s, c, f, PREC);
    else if (op === 'difference') res = m.DifferenceD(s, c, f, PREC);
    else res = m.XorD(s, c, f, PREC);
    return fromWasm(res, 3);
  } finally {
    s.clear();
    c.clear();
    res?.delete();
  }
}

export function union(paths: Paths, fill: FillKind = 'nonzero'): Paths {
  if (paths.length === 0) return [];
  return boolean('union', paths, [], fill);
}
export function unionWith(a: Paths, b: Paths, fill: FillKind = 'nonzero'): Paths {
  if (a.length === 0 && b.length === 0) return [];
  return boolean('union', a, b, fill);
}
export function intersection(a: Paths, b: Paths, fill: FillKind = 'nonzero'): Paths {
  if (a.length === 0 || b.length === 0) return [];
  return boolean('intersection', a, b, fill);
}
export function difference(a: Paths, b: Paths, fill: FillKind = 'nonzero'): Paths {
  if (a.length === 0) return [];
  if (b.length === 0) return boolean('union', a, [], fill);
  return boolean('difference', a, b, fill);
}
export function xor(a: Paths, b: Paths, fill: FillKind = 'nonzero'): Paths {
  return boolean('xor', a, b, fill);
}

/** Clips open polylines against closed areas; `inside` keeps the parts inside, else the parts outside. */
export function clipLines(lines: Paths, areas: Paths, inside = true): Paths {
  if (lines.length === 0) return [];
  if (areas.length === 0) return inside ? [] : lines.map((l) => l.slice());
  const m = mod();
  const s = toWasm(lines, 2);
  const c = toWasm(areas, 3, 1);
  const clipper = new m.ClipperD(PREC);
  const closed = new m.PathsD();
  const open = new m.PathsD();
  try {
    clipper.AddOpenSubject(s);
    clipper.AddClip(c);
    clipper.ExecutePath(inside ? m.ClipType.Intersection : m.ClipType.Difference, m.FillRule.NonZero, closed, open);
    return fromWasm(open, 2);
  } finally {
    s.clear();
    c.clear();
    clipper.delete();
    closed.delete();
    open.delete();
  }
}

/** Removes vertices closer than `epsilon` µm to the line through their neighbours. */
export function simplify(paths: Paths, epsilon: number, closed = true): Paths {
  if (paths.length === 0) return [];
  const m = mod();
  const s = toWasm(paths, closed ? 3 : 2);
  let res: C2.PathsD | null = null;
  try {
    res = m.SimplifyPathsD(s, epsilon, closed);
    return fromWasm(res, closed ? 3 : 2);
  } finally {
    s.clear();
    res?.delete();
  }
}

/** Above this many loops cleanIslands nests them itself (for fewer, Clipper2 is as fast). */
const MANY_LOOPS = 64;

/** An area with its holes: `[outer, ...holes]`. */
export type Island = Paths;

/**
 * islands() of an area that is already clean (Clipper's own output, or a slicer cross-section:
 * loops that neither cross nor touch, outer ones counter-clockwise): a lone counter-clockwise loop
 * is its own island, with no polygon tree to build. Anything else goes through islands().
 */
export function cleanIslands(paths: Paths): Island[] {
  if (paths.length === 1 && paths[0].length >= 6 && signedArea(paths[0]) > 0) return [[paths[0]]];
  if (paths.length > MANY_LOOPS) {
    // many loops: their nesting from a grid of edges, where Clipper2's sweep grows with loops²
    const nest = nestCleanLoops(paths);
    if (nest !== null) {
      const islandOf = new Int32Array(paths.length).fill(-1);
      const out: Island[] = [];
      paths.forEach((p, l) => {
        if (nest.depth[l] % 2 !== 0) return;
        islandOf[l] = out.length;
        out.push([p]);
      });
      paths.forEach((p, l) => {
        if (nest.depth[l] % 2 !== 0) out[islandOf[nest.parent[l]]].push(p);
      });
      return out;
    }
  }
  return islands(paths);
}

/** Splits areas into islands (each outer contour with its direct holes), via a Clipper PolyTree. */
export function islands(paths: Paths, fill: FillKind = 'nonzero'): Island[] {
  if (paths.length === 0) return [];
  const m = mod();
  const s = toWasm(paths, 3);
  const tree = new m.PolyPathD();
  const open = new m.PathsD();
  const clipper = new m.ClipperD(PREC);
  const out: Island[] = [];
  const pathOf = (node: C2.PolyPathD): Path => {
    const pd = node.polygon();
    const v = pd.view();
    const k = v.length / 3;
    const p: Path = new Array(k * 2);
    for (let a = 0, b = 0; a < k; a++, b += 3) {
      p[2 * a] = Math.round(v[b]);
      p[2 * a + 1] = Math.round(v[b + 1]);
    }
    pd.delete();
    return p;
  };
  const walk = (node: C2.PolyPathD): void => {
    // node is an outer contour: collect its holes, then recurse into the holes' children
    const island: Island = [pathOf(node)];
    const holes: C2.PolyPathD[] = [];
    for (let i = 0; i < node.count(); i++) {
      const h = node.child(i);
      island.push(pathOf(h));
      holes.push(h);
    }
    if (island[0].length >= 6) out.push(island.filter((p) => p.length >= 6));
    for (const h of holes) {
      for (let j = 0; j < h.count(); j++) walk(h.child(j));
    }
  };
  try {
    clipper.AddSubject(s);
    clipper.ExecutePoly(m.ClipType.Union, fillRule(fill), tree, open);
    for (let i = 0; i < tree.count(); i++) walk(tree.child(i));
    return out;
  } finally {
    s.clear();
    open.delete();
    clipper.delete();
    tree.delete();
  }
}
