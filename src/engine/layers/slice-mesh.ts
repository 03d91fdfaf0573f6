// Triangles → closed cross-sections, one set per slicing plane. Triangles are bucketed by the first
// plane at or above their lowest point; a sweep up the planes keeps an active list (added from the
// bucket, removed once the plane passes their top), cuts the active triangles, chains the segments
// by edge keys, closes what the mesh left open, reduces points and resolves overlaps with a
// non-zero union (overlapping shells merge; holes wound the other way subtract).
import type { Paths } from '../types.js';
import { drain, type Steps } from '../steps.js';
import { unionLoops } from './union-loops.js';
import { SegmentBuffer, cutTriangles } from './segments.js';
import { bucketTriangles, addEntering } from './buckets.js';
import { ChainScratch, chainSegments } from './chain.js';
import { stitchChains } from './stitch.js';
import { MeshHoles } from './holes.js';
import { isCleanArea, CleanAreaScratch } from '../geom/simple-area.js';
import { simplifyLoop, SimplifyScratch } from './simplify-loop.js';

/**
 * Points closer than this (µm) to the line of their neighbours are dropped. 12 µm is about one
 * full step of a common printer's X/Y axes (80 steps/mm) and within the peers' own resolutions
 * (PrusaSlicer's G-code resolution 12.5 µm, CuraEngine's maximum deviation 25 µm). At 5 µm a finely
 * tessellated mesh kept twice the points for no shape the printer can make: broken_extra_surface's
 * G-code was 4.2 MB (2.2 MB now), and every stage after slicing paid for the points (−21 % CPU there,
 * −17 % on the bunny); the outline deviation the quality tool measures did not grow on any model.
 */
export const SIMPLIFY_TOLERANCE_UM = 12;

/** Extra detail about a slicing run, for tests and repair warnings. */
export interface SliceReport {
  /** layers where open chains had to be stitched */
  stitchedLayers: number;
  /** open chains that could not be closed and were dropped, summed over layers */
  droppedChains: number;
  /** layers that needed the polygon union (the others were already a clean area) */
  unionedLayers?: number;
}

/** Per-run scratch space shared by the layers. */
interface Scratch {
  chain: ChainScratch;
  simplify: SimplifyScratch;
  cleanArea: CleanAreaScratch;
  holes: () => MeshHoles;
}

/**
 * One layer's segments → closed, simplified loops (integer µm); `clean` when they came straight
 * from a manifold, consistently wound section (no repair was needed).
 */
function layerLoops(seg: SegmentBuffer, scratch: Scratch, report: SliceReport): { loops: number[][]; clean: boolean } {
  const { points, loopStart, open, clean } = chainSegments(seg, scratch.chain);
  const out: number[][] = [];
  for (let i = 0; i + 1 < loopStart.length; i++) {
    const s = simplifyLoop(points, loopStart[i], loopStart[i + 1], SIMPLIFY_TOLERANCE_UM, scratch.simplify);
    if (s.length >= 6) out.push(s);
  }
  if (open.length > 0) {
    const h = scratch.holes();
    const st = stitchChains(open, (lo, hi) => h.holeOf(lo, hi));
    report.stitchedLayers++;
    report.droppedChains += st.dropped;
    for (const l of st.loops) {
      const s = simplifyLoop(Float64Array.from(l), 0, l.length, SIMPLIFY_TOLERANCE_UM, scratch.simplify);
      if (s.length >= 6) out.push(s);
    }
  }
  return { loops: out, clean };
}

/**
 * Cuts a mesh placed on the bed (x, y, z per vertex in µm, any precision) with the planes `zs` (µm)
 * and returns per plane the cross-section as an area in integer µm: outer contours counter-clockwise,
 * holes clockwise, overlaps merged. Geometry must be initialised (`await initGeometry()`).
 * `triangles` (ascending ids, from trianglesPerRange) spares a pass over a large mesh's other triangles;
 * the result is the same.
 */
export function sliceMesh(positionsUm: Float64Array, indices: Uint32Array, zs: number[], report?: SliceReport, triangles?: Uint32Array): Paths[] {
  return drain(sliceMeshSteps(positionsUm, indices, zs, report, triangles));
}

/** Planes cut between two yields of sliceMeshSteps (a few ms on a large mesh, warm). */
const PLANES_PER_STEP = 16;

/**
 * sliceMesh's sweep, yielding after every few planes, so that a caller on the main thread can give
 * its event loop a turn (a Ctrl-C handler waited ~0.4 s for the Stanford bunny's 2,573 planes at
 * 0.06 mm layers, cold code, longer on a busy machine).
 */
export function* sliceMeshSteps(positionsUm: Float64Array, indices: Uint32Array, zs: number[], report?: SliceReport, triangles?: Uint32Array): Steps<Paths[]> {
  const rep: SliceReport = report ?? { stitchedLayers: 0, droppedChains: 0 };
  const nL = zs.length;
  const result: Paths[] = new Array(nL);
  // sweep the planes in ascending order whatever order they came in
  const planeOrder = [...zs.keys()].sort((a, b) => zs[a] - zs[b]);
  const sorted = Float64Array.from(planeOrder, (i) => zs[i]);
  const buckets = bucketTriangles(positionsUm, indices, sorted, triangles);
  const active = new Int32Array(buckets.order.length);
  let nActive = 0;
  const seg = new SegmentBuffer();
  let meshHoles: MeshHoles | null = null;
  const scratch: Scratch = {
    chain: new ChainScratch(),
    simplify: new SimplifyScratch(),
    cleanArea: new CleanAreaScratch(),
    holes: () => (meshHoles ??= new MeshHoles(indices)),
  };
  for (let l = 0; l < nL; l++) {
    nActive = addEntering(active, nActive, buckets, l);
    seg.reset();
    nActive = cutTriangles(positionsUm, indices, active, nActive, buckets.last, l, sorted[l], seg);
    const { loops, clean } = layerLoops(seg, scratch, rep);
    // the union resolves overlaps and orientation; a clean section that is already a valid area skips it
    if (loops.length === 0) result[planeOrder[l]] = [];
    else if (clean && isCleanArea(loops, scratch.cleanArea)) result[planeOrder[l]] = loops;
    else {
      result[planeOrder[l]] = unionLoops(loops);
      rep.unionedLayers = (rep.unionedLayers ?? 0) + 1;
    }
    if (l % PLANES_PER_STEP === PLANES_PER_STEP - 1) yield;
  }
  return result;
}
