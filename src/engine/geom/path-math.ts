// Small exact helpers on flat µm paths that need no Clipper call.
import type { Path, Paths } from '../types.js';

/** Signed area (positive = counter-clockwise), µm². */
export function signedArea(p: Path): number {
  let a = 0;
  const n = p.length;
  for (let i = 0; i < n; i += 2) {
    const j = i + 2 === n ? 0 : i + 2;
    a += p[i] * p[j + 1] - p[j] * p[i + 1];
  }
  return a / 2;
}

/** Net area of an area's paths (holes subtract), µm². */
export function areaOf(paths: Paths): number {
  let a = 0;
  for (const p of paths) a += signedArea(p);
  return a;
}

/** Length of a polyline; `closed` adds the closing segment. */
export function pathLength(p: Path, closed: boolean): number {
  let len = 0;
  const n = p.length;
  for (let i = 2; i < n; i += 2) len += Math.hypot(p[i] - p[i - 2], p[i + 1] - p[i - 1]);
  if (closed && n >= 4) len += Math.hypot(p[0] - p[n - 2], p[1] - p[n - 1]);
  return len;
}

export interface BBox {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

export function bboxOf(paths: Paths): BBox {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const p of paths) {
    for (let i = 0; i < p.length; i += 2) {
      const x = p[i];
      const y = p[i + 1];
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
  }
  return { minX, minY, maxX, maxY };
}

/** The same point lists in the same order (the same array counts as equal without a look). */
export function samePath(a: Path, b: Path): boolean {
  if (a === b) return true;
  const n = a.length;
  if (n !== b.length) return false;
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The same paths in the same order, each point for point. */
export function samePaths(a: Paths, b: Paths): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!samePath(a[i], b[i])) return false;
  return true;
}

/** A 32-bit hash of an area's coordinates (FNV-1a over the integers), for finding repeats. */
export function hashPaths(paths: Paths): number {
  let h = 0x811c9dc5 ^ paths.length;
  for (const p of paths) {
    h = Math.imul(h ^ p.length, 0x01000193);
    for (let i = 0; i < p.length; i++) h = Math.imul(h ^ (p[i] | 0), 0x01000193);
  }
  return h >>> 0;
}
