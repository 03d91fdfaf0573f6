// Loads the slice bundle (dist/bundle/slice.cjs: `stratum slice` and everything it imports, in one
// CommonJS file made by scripts/build-slice-bundle.mjs) as a vm.Script with the V8 code cache the
// build made for it, so that a small model's slice skips resolving ~130 modules and compiling their
// functions. Any doubt about the files gives null (or a run without the cache), and the launcher
// falls back to the plain modules in dist/src: the bundle is a start-up optimisation, never a
// requirement.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

/** What the build writes beside the bundle, to tell whether the cache belongs to this bundle and this V8. */
export interface BundleMeta {
  /** sha256 of the bundle's source: V8 itself checks only the source's length */
  bundleSha256: string;
  /** sha256 of the cache file: V8 checks its own checksum only in debug builds */
  cacheSha256: string;
  /** process.versions.v8 of the node that made the cache */
  v8: string;
  /** the V8 flags the cache was made with (V8 rejects a cache made with other flags) */
  flags: string[];
}

export type CacheState = 'accepted' | 'rejected' | 'none';

export interface SliceBundle {
  runSliceCli: (argv: string[]) => Promise<number>;
  /** accepted: V8 used the cache; rejected: V8 refused it; none: no usable cache file */
  cache: CacheState;
  script: Script;
}

export const BUNDLE_DIR = fileURLToPath(new URL('../../bundle/', import.meta.url));
export const bundleFiles = (dir: string) => ({
  bundle: join(dir, 'slice.cjs'),
  cache: join(dir, 'slice.cache'),
  meta: join(dir, 'slice.meta.json'),
});

const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

/** The cache's bytes when they are the ones made for this bundle source on this V8, else undefined. */
function readCache(files: ReturnType<typeof bundleFiles>, source: string): Buffer | undefined {
  let meta: BundleMeta;
  let cache: Buffer;
  try {
    meta = JSON.parse(readFileSync(files.meta, 'utf8')) as BundleMeta;
    cache = readFileSync(files.cache);
  } catch {
    return undefined;
  }
  if (meta.v8 !== process.versions.v8) return undefined;
  if (meta.bundleSha256 !== sha256(source) || meta.cacheSha256 !== sha256(cache)) return undefined;
  return cache;
}

/**
 * Compiles and runs the bundle's top level (which only defines its modules' functions) and gives
 * its entry point; null when the bundle is missing or fails to load. `useCache: false` compiles
 * without the cache (the build does that before it warms the code up and makes the cache).
 */
export function loadSliceBundle(dir: string = BUNDLE_DIR, opts: { useCache?: boolean } = {}): SliceBundle | null {
  const files = bundleFiles(dir);
  try {
    const source = readFileSync(files.bundle, 'utf8');
    const cachedData = opts.useCache === false ? undefined : readCache(files, source);
    const script = new Script(source, { filename: files.bundle, cachedData });
    const cache: CacheState = cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'accepted';
    // the file is the code inside Node's CommonJS wrapper: a function of (exports, require, module, …)
    const module = { exports: {} as { runSliceCli?: SliceBundle['runSliceCli'] } };
    const init = script.runInThisContext() as (...args: unknown[]) => void;
    init(module.exports, createRequire(files.bundle), module, files.bundle, dirname(files.bundle));
    const runSliceCli = module.exports.runSliceCli;
    if (typeof runSliceCli !== 'function') return null;
    if (process.env.STRATUM_DEBUG === '1') process.stderr.write(`stratum: slice bundle loaded, code cache ${cache}\n`);
    return { runSliceCli, cache, script };
  } catch (err) {
    if (process.env.STRATUM_DEBUG === '1') console.error('stratum: slice bundle not used:', err);
    return null;
  }
}

/** The meta record for a cache made now from `script` (the build's last step). */
export function describeCache(source: string, cache: Uint8Array, flags: string[]): BundleMeta {
  return { bundleSha256: sha256(source), cacheSha256: sha256(cache), v8: process.versions.v8, flags };
}
