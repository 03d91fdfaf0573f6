// Loads the slice bundle (dist/bundle/slice.cjs: `stratum slice` and everything it imports, in one
// CommonJS file made by scripts/build-slice-bundle.mjs) as a vm.Script with the V8 code cache the
// build made for it, so that a small model's slice skips resolving ~130 modules and compiling their
// functions. Any doubt about the files gives null (or a run without the cache), and the launcher
// falls back to the plain modules in dist/src: the bundle is a start-up optimisation, never a
// requirement.
// CommonJS (.cts): the launcher is CommonJS too, so a slice never starts Node's ES module loader
// (about 10 ms of a small model's whole-process time).
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';
import type { MessagePort } from 'node:worker_threads';

/** What the build writes beside the bundle, to tell whether the cache belongs to this bundle and this V8. */
export interface BundleMeta {
  /** CRC-32 of the bundle's source: V8 itself checks only the source's length */
  bundleCrc32: number;
  /** CRC-32 of the cache file: V8 checks its own checksum only in debug builds */
  cacheCrc32: number;
  /** process.versions.v8 of the node that made the cache */
  v8: string;
  /** the V8 flags the cache was made with (V8 rejects a cache made with other flags) */
  flags: string[];
  /** the bundle's and the cache's size and mtime as written: while both match, no checksum is taken */
  bundleStamp?: { size: number; mtimeMs: number };
  cacheStamp?: { size: number; mtimeMs: number };
  /**
   * The layer threads' cache (the same code, made under the flags their isolates start with:
   * thread-heap.ts): its CRC-32, flags and stamp, as for the main one
   */
  threadCacheCrc32?: number;
  threadFlags?: string[];
  threadCacheStamp?: { size: number; mtimeMs: number };
}

/** Which cache a loader wants: the main thread's, or a layer thread's (made under its flags). */
export type CacheKind = 'main' | 'thread';

export type CacheState = 'accepted' | 'rejected' | 'none';

export interface SliceBundle {
  runSliceCli: (argv: string[]) => Promise<number>;
  /** a layer thread's work (runner/layer-batch-port.ts), for the bundled slice's layer threads */
  serveLayerBatches?: (port: MessagePort) => void;
  /** accepted: V8 used the cache; rejected: V8 refused it; none: no usable cache file */
  cache: CacheState;
  script: Script;
}

export const BUNDLE_DIR = join(__dirname, '..', '..', 'bundle') + '/';
export const bundleFiles = (dir: string) => ({
  bundle: join(dir, 'slice.cjs'),
  cache: join(dir, 'slice.cache'),
  threadCache: join(dir, 'slice.thread.cache'),
  meta: join(dir, 'slice.meta.json'),
  inputs: join(dir, 'slice.inputs.json'),
});

/** A file the bundle was made from: path from the package root, mtime (ms), size and CRC-32 when bundled. */
export type BundleInput = [path: string, mtimeMs: number, size: number, crc32: number];

/**
 * Whether every file the bundle was made from is still the one it was made from. A bare `tsc`
 * rewrites dist/src without rebuilding the bundle, which must not then run yesterday's code: the
 * launcher uses the modules instead. Same size and mtime is taken as unchanged (about 130 stat calls,
 * ~1.5 ms); a file whose mtime moved but not its size (a copy that did not keep times) is compared by
 * its CRC-32.
 */
function inputsUnchanged(files: ReturnType<typeof bundleFiles>, dir: string): boolean {
  const inputs = JSON.parse(readFileSync(files.inputs, 'utf8')) as BundleInput[];
  const root = join(dir, '..', '..');
  return inputs.every(([path, mtimeMs, size, sum]) => {
    const file = join(root, path);
    const st = statSync(file, { throwIfNoEntry: false });
    if (st === undefined || st.size !== size) return false;
    return st.mtimeMs === mtimeMs || crc32(readFileSync(file)) === sum;
  });
}

// zlib.crc32 (Node 20.15+), loaded only when a checksum must be taken: node:zlib and the stream
// modules it needs are a few ms of a small slice's start, and the bundle and its cache are compared
// by size and mtime first. node:crypto would cost ~6 ms more to load. On an older Node no checksum
// can be taken and the cache is not used.
let crc32Fn: ((data: string | Uint8Array) => number) | null | undefined;
function crc32(data: string | Uint8Array): number | undefined {
  if (crc32Fn === undefined) crc32Fn = (require('node:zlib') as { crc32?: (data: string | Uint8Array) => number }).crc32 ?? null;
  return crc32Fn ? crc32Fn(data) : undefined;
}
/** Whether a code cache can be checked here, so made and used at all (Node 20.15+). */
export function cacheCheckable(): boolean {
  return crc32('') !== undefined;
}

/** Size and mtime of a file, as the meta record keeps them; undefined when it cannot be read. */
function stamp(file: string): { size: number; mtimeMs: number } | undefined {
  const st = statSync(file, { throwIfNoEntry: false });
  return st ? { size: st.size, mtimeMs: st.mtimeMs } : undefined;
}
const sameStamp = (a: { size: number; mtimeMs: number } | undefined, b: { size: number; mtimeMs: number } | undefined) =>
  a !== undefined && b !== undefined && a.size === b.size && a.mtimeMs === b.mtimeMs;

/** The cache's bytes when they are the ones made for this bundle source on this V8, else undefined. */
function readCache(files: ReturnType<typeof bundleFiles>, source: string, kind: CacheKind): Buffer | undefined {
  let meta: BundleMeta;
  let cache: Buffer;
  const file = kind === 'thread' ? files.threadCache : files.cache;
  try {
    meta = JSON.parse(readFileSync(files.meta, 'utf8')) as BundleMeta;
    cache = readFileSync(file);
  } catch {
    return undefined;
  }
  if (meta.v8 !== process.versions.v8) return undefined;
  const [cacheCrc32, cacheStamp] = kind === 'thread' ? [meta.threadCacheCrc32, meta.threadCacheStamp] : [meta.cacheCrc32, meta.cacheStamp];
  // the files as the build left them: no need to read them through a checksum
  if (sameStamp(meta.bundleStamp, stamp(files.bundle)) && sameStamp(cacheStamp, stamp(file))) return cache;
  // (no zlib.crc32 on this Node: undefined matches no recorded sum)
  if (meta.bundleCrc32 !== crc32(source) || cacheCrc32 === undefined || cacheCrc32 !== crc32(cache)) return undefined;
  return cache;
}

/**
 * Compiles and runs the bundle's top level (which only defines its modules' functions) and gives
 * its entry points; null when the bundle is missing, stale (see inputsUnchanged) or fails to load. `useCache: false` compiles
 * without the cache (the build does that before it warms the code up and makes the cache). `who`
 * names the loader in STRATUM_DEBUG's lines (a layer thread's start with it); `cache: 'thread'`
 * takes the layer threads' cache.
 */
export function loadSliceBundle(dir: string = BUNDLE_DIR, opts: { useCache?: boolean; who?: string; cache?: CacheKind } = {}): SliceBundle | null {
  const who = opts.who ? `${opts.who}: ` : '';
  const files = bundleFiles(dir);
  try {
    if (!inputsUnchanged(files, dir)) throw new Error('stale: a file it was built from has changed since (npm run build)');
    const source = readFileSync(files.bundle, 'utf8');
    const cachedData = opts.useCache === false ? undefined : readCache(files, source, opts.cache ?? 'main');
    const script = new Script(source, { filename: files.bundle, cachedData });
    const cache: CacheState = cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'accepted';
    // the file is the code inside Node's CommonJS wrapper: a function of (exports, require, module, …)
    const module = { exports: {} as Partial<Pick<SliceBundle, 'runSliceCli' | 'serveLayerBatches'>> };
    const init = script.runInThisContext() as (...args: unknown[]) => void;
    init(module.exports, createRequire(files.bundle), module, files.bundle, dirname(files.bundle));
    const { runSliceCli, serveLayerBatches } = module.exports;
    if (typeof runSliceCli !== 'function') return null;
    if (process.env.STRATUM_DEBUG === '1') process.stderr.write(`stratum: ${who}slice bundle loaded, code cache ${cache}\n`);
    return { runSliceCli, serveLayerBatches, cache, script };
  } catch (err) {
    if (process.env.STRATUM_DEBUG === '1') console.error(`stratum: ${who}slice bundle not used:`, err);
    return null;
  }
}

/**
 * The meta record for the caches made now from the bundle's script (the build's last step): the
 * main thread's, and the layer threads' when made (`thread`).
 */
export function describeCache(
  source: string,
  cache: Uint8Array,
  flags: string[],
  thread?: { cache: Uint8Array; flags: string[] },
): BundleMeta | null {
  const bundleCrc32 = crc32(source);
  const cacheCrc32 = crc32(cache);
  if (bundleCrc32 === undefined || cacheCrc32 === undefined) return null;
  const meta: BundleMeta = { bundleCrc32, cacheCrc32, v8: process.versions.v8, flags };
  if (thread) {
    meta.threadCacheCrc32 = crc32(thread.cache);
    meta.threadFlags = thread.flags;
  }
  return meta;
}

/** The meta record with the bundle's and the caches' size and mtime, once they are written. */
export function stampCache(meta: BundleMeta, dir: string = BUNDLE_DIR): BundleMeta {
  const files = bundleFiles(dir);
  const bundleStamp = stamp(files.bundle);
  const cacheStamp = stamp(files.cache);
  const threadCacheStamp = meta.threadCacheCrc32 === undefined ? undefined : stamp(files.threadCache);
  return bundleStamp && cacheStamp ? { ...meta, bundleStamp, cacheStamp, ...(threadCacheStamp ? { threadCacheStamp } : {}) } : meta;
}
