// The slice bundle (dist/bundle/, made by scripts/build-slice-bundle.mjs during the build): the
// launcher slices through it to the same bytes as through the plain modules, uses its V8 code cache
// under the launcher's flags, and falls back cleanly when the cache or the bundle is damaged.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { BUNDLE_DIR, bundleFiles, cacheCheckable, loadSliceBundle } from '../src/cli/bundle-loader.cjs';
import type { BundleInput, BundleMeta } from '../src/cli/bundle-loader.cjs';
import { binaryStl, box, merge, soup, squareTube } from './mesh-fixtures.js';
import { THREAD_SEMI_SPACE_FLAG } from '../src/cli/thread-heap.js';
import { MODELS } from './shared-dir.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'bin', 'stratum.js');
const work = mkdtempSync(join(tmpdir(), 'stratum-bundle-test-'));
const files = bundleFiles(BUNDLE_DIR);
after(() => rmSync(work, { recursive: true, force: true }));
/** Before Node 20.15 there is no zlib.crc32 to check a cache with: the bundle then runs without one (bundle-loader.cts). */
const noCache = !cacheCheckable() && 'this Node has no zlib.crc32 (20.15+): the bundle runs without a code cache';

// A tube with a lid and a thin tower: walls, holes, skins, infill, a bridge, travels.
const model = join(work, 'tube.stl');
writeFileSync(model, binaryStl(soup(merge(squareTube(20, 8, 4), box(0, 0, 3.9, 20, 20, 5), box(8, 8, 4.9, 12, 12, 8)))));

/** The launcher's V8 flags on its shebang line (the code cache is made under them). */
const launcherFlags = readFileSync(bin, 'utf8').split('\n', 1)[0].split(/\s+/).filter((a) => a.startsWith('--'));
/** and those it sets as it starts, which depend on the V8 version (bin/v8-flags.js) */
const versionFlags = (createRequire(import.meta.url)(join(root, 'bin', 'v8-flags.js')) as { versionFlags: () => string[] }).versionFlags();

function slice(opts: { flags?: string[]; env?: Record<string, string>; launcher?: string; input?: string; out: string }) {
  const args = [...(opts.flags ?? []), opts.launcher ?? bin, 'slice', opts.input ?? model, '-o', opts.out, '--quiet'];
  const r = spawnSync(process.execPath, args, {
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, STRATUM_DEBUG: '1', ...opts.env },
  });
  assert.equal(r.status, 0, r.stderr);
  return { stderr: r.stderr, bytes: readFileSync(opts.out) };
}

test('the build made the bundle, its code cache and the meta record', { skip: noCache }, () => {
  for (const f of Object.values(files)) assert.ok(existsSync(f), `${f} is missing: npm run build makes it`);
  const meta = JSON.parse(readFileSync(files.meta, 'utf8')) as BundleMeta;
  assert.equal(meta.v8, process.versions.v8);
  assert.deepEqual(meta.flags, [...launcherFlags, ...versionFlags]);
  // the layer threads' cache: the same flags, but the young generation their isolates start with
  const threadFlags = [...launcherFlags.filter((f) => !f.startsWith('--max-semi-space-size=')), ...versionFlags, THREAD_SEMI_SPACE_FLAG];
  assert.deepEqual(meta.threadFlags, threadFlags);
  assert.equal(typeof meta.threadCacheCrc32, 'number');
});

test('the bundled slice writes the same bytes as the plain modules, with the code cache accepted', { skip: noCache }, () => {
  const inputs = [model, join(MODELS, 'xyz_calibration_cube.stl')].filter((f) => existsSync(f));
  for (const [i, input] of inputs.entries()) {
    const plain = slice({ input, env: { STRATUM_SLICE_BUNDLE: '0' }, out: join(work, `plain-${i}.gcode`) });
    assert.doesNotMatch(plain.stderr, /slice bundle/);
    assert.match(plain.stderr, /slice runs from the plain modules \(STRATUM_SLICE_BUNDLE=0\)/);
    const bundled = slice({ input, flags: launcherFlags, out: join(work, `bundled-${i}.gcode`) });
    assert.match(bundled.stderr, /slice bundle loaded, code cache accepted/);
    assert.ok(plain.bytes.length > 1000);
    assert.ok(plain.bytes.equals(bundled.bytes), `${input}: bundled G-code differs from the modules' G-code`);
    // other V8 flags than the cache was made with: V8 refuses the cache, the slice is the same
    const otherFlags = slice({ input, out: join(work, `other-${i}.gcode`) });
    assert.match(otherFlags.stderr, /slice bundle loaded, code cache rejected/);
    assert.ok(plain.bytes.equals(otherFlags.bytes));
  }
});

/**
 * A cylinder 62 mm tall whose side is cut into rings: a binary STL over 1 MiB (the CLI slices it on
 * layer threads) with 310 layers of a 600-gon, enough layer work for the engine to use them.
 */
function ringedCylinderStl(radius = 25, height = 62, facets = 600, rings = 20): Uint8Array {
  const at = (k: number, z: number) => [radius * Math.cos((2 * Math.PI * (k % facets)) / facets), radius * Math.sin((2 * Math.PI * (k % facets)) / facets), z];
  const tris: number[] = [];
  for (let k = 0; k < facets; k++) {
    for (let j = 0; j < rings; j++) {
      const z0 = (height * j) / rings, z1 = (height * (j + 1)) / rings;
      tris.push(...at(k, z0), ...at(k + 1, z0), ...at(k + 1, z1), ...at(k, z0), ...at(k + 1, z1), ...at(k, z1));
    }
    tris.push(0, 0, 0, ...at(k + 1, 0), ...at(k, 0), 0, 0, height, ...at(k, height), ...at(k + 1, height));
  }
  return binaryStl(tris);
}

test("a large model's layer threads load the bundle and its cache too, and slice to the same bytes", { skip: noCache, timeout: 180_000 }, () => {
  const input = join(work, 'ringed-cylinder.stl');
  writeFileSync(input, ringedCylinderStl());
  assert.ok(readFileSync(input).length > 1 << 20);
  const plain = slice({ input, env: { STRATUM_SLICE_BUNDLE: '0' }, out: join(work, 'cylinder-plain.gcode') });
  assert.doesNotMatch(plain.stderr, /layer thread/);
  const bundled = slice({ input, flags: launcherFlags, out: join(work, 'cylinder-bundled.gcode') });
  assert.match(bundled.stderr, /stratum: slice bundle loaded, code cache accepted/);
  assert.match(bundled.stderr, /stratum: layer thread: slice bundle loaded, code cache accepted/);
  assert.match(plain.bytes.toString('latin1', 0, 4000), /;LAYER_COUNT:310/);
  assert.ok(plain.bytes.equals(bundled.bytes), "the bundle's layer threads wrote other G-code than the modules'");
});

/**
 * A copy of the bundle directory to damage, at the same place in a package tree as the real one
 * (NAME/dist/bundle beside NAME/node_modules): the bundle finds the WASM file relative to itself.
 */
function bundleCopy(name: string): ReturnType<typeof bundleFiles> & { dir: string } {
  const dir = join(work, name, 'dist', 'bundle');
  cpSync(BUNDLE_DIR, dir, { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(work, name, 'node_modules'));
  symlinkSync(join(root, 'dist', 'src'), join(work, name, 'dist', 'src'));
  return { dir, ...bundleFiles(dir) };
}

test('a corrupt, foreign or missing cache is not given to V8; a stale or broken bundle is not loaded', { skip: noCache }, () => {
  const corrupt = bundleCopy('corrupt');
  const cache = readFileSync(corrupt.cache);
  for (let i = 64; i < cache.length; i += 97) cache[i] ^= 0x5a;
  writeFileSync(corrupt.cache, cache);
  assert.equal(loadSliceBundle(corrupt.dir)?.cache, 'none');
  // each cache is checked on its own: the layer threads' is whole, and given to V8 (which takes it
  // under their flags only), until it is damaged too
  const corruptThread = bundleCopy('corrupt-thread');
  assert.notEqual(loadSliceBundle(corruptThread.dir, { cache: 'thread' })?.cache, 'none');
  const threadCache = readFileSync(corruptThread.threadCache);
  threadCache[threadCache.length >> 1] ^= 0x5a;
  writeFileSync(corruptThread.threadCache, threadCache);
  assert.equal(loadSliceBundle(corruptThread.dir, { cache: 'thread' })?.cache, 'none');

  const foreign = bundleCopy('foreign');
  const meta = JSON.parse(readFileSync(foreign.meta, 'utf8')) as BundleMeta;
  writeFileSync(foreign.meta, JSON.stringify({ ...meta, v8: '0.0.0' }));
  assert.equal(loadSliceBundle(foreign.dir)?.cache, 'none');

  // a bundle rebuilt after the cache (same length, other text): V8 checks only the length
  const rebuilt = bundleCopy('rebuilt');
  const source = readFileSync(rebuilt.bundle, 'utf8');
  writeFileSync(rebuilt.bundle, source.replace('"use strict";', "'use strict';"));
  assert.equal(loadSliceBundle(rebuilt.dir)?.cache, 'none');

  const bare = bundleCopy('bare');
  writeFileSync(bare.meta, '{ not json');
  assert.equal(loadSliceBundle(bare.dir)?.cache, 'none');

  assert.equal(loadSliceBundle(join(work, 'no-such-dir')), null);
  // stale: a file the bundle was made from changed since (a bare tsc), so its code is not run
  const stale = bundleCopy('stale');
  const inputs = JSON.parse(readFileSync(stale.inputs, 'utf8')) as BundleInput[];
  assert.ok(inputs.some(([path]) => path === 'dist/src/cli/slice-command.js'));
  inputs[0][1] -= 1000;
  writeFileSync(stale.inputs, JSON.stringify(inputs));
  // another time but the same size and content (a copy that did not keep times): still fresh
  assert.notEqual(loadSliceBundle(stale.dir), null);
  inputs[0][3] ^= 1;
  writeFileSync(stale.inputs, JSON.stringify(inputs));
  assert.equal(loadSliceBundle(stale.dir), null);
  const unknown = bundleCopy('unknown-inputs');
  rmSync(unknown.inputs);
  assert.equal(loadSliceBundle(unknown.dir), null);
  const broken = bundleCopy('broken');
  writeFileSync(broken.bundle, 'this is not javascript {');
  assert.equal(loadSliceBundle(broken.dir), null);
});

test('a bundle loaded from a damaged cache slices in this process to the same bytes', { skip: noCache }, async () => {
  const corrupt = bundleCopy('corrupt-run');
  const cache = readFileSync(corrupt.cache);
  cache.fill(0, 100, 200);
  writeFileSync(corrupt.cache, cache);
  const bundle = loadSliceBundle(corrupt.dir);
  assert.ok(bundle);
  assert.equal(bundle.cache, 'none');
  const out = join(work, 'in-process.gcode');
  assert.equal(await bundle.runSliceCli([model, '-o', out, '--quiet']), 0);
  const plain = slice({ env: { STRATUM_SLICE_BUNDLE: '0' }, out: join(work, 'plain-again.gcode') });
  assert.ok(plain.bytes.equals(readFileSync(out)));
  // the bundle reports errors as the CLI does: a missing model is exit 1 with a one-line message
  assert.equal(await bundle.runSliceCli([join(work, 'missing.stl'), '-o', out, '--quiet']), 1);
});

test('the launcher falls back to the plain modules when the bundle cannot load', () => {
  // a copy of the package whose bundle is not JavaScript
  const pkg = join(work, 'pkg');
  mkdirSync(join(pkg, 'dist', 'bundle'), { recursive: true });
  cpSync(join(root, 'bin'), join(pkg, 'bin'), { recursive: true });
  cpSync(join(root, 'dist', 'src'), join(pkg, 'dist', 'src'), { recursive: true });
  cpSync(join(root, 'package.json'), join(pkg, 'package.json'));
  symlinkSync(join(root, 'node_modules'), join(pkg, 'node_modules'));
  writeFileSync(join(pkg, 'dist', 'bundle', 'slice.cjs'), 'this is not javascript {');
  const fallback = slice({ launcher: join(pkg, 'bin', 'stratum.js'), out: join(work, 'fallback.gcode') });
  assert.match(fallback.stderr, /slice bundle not used/);
  const plain = slice({ env: { STRATUM_SLICE_BUNDLE: '0' }, out: join(work, 'plain-3.gcode') });
  assert.ok(plain.bytes.equals(fallback.bytes));
});
