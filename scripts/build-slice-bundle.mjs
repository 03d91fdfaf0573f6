// Builds the slice bundle after tsc (npm run build): dist/src/cli/slice-main.js and everything it
// imports in one file of CommonJS code in Node's module wrapper, dist/bundle/slice.cjs, plus a V8 code cache for it made after a
// warm-up slice (dist/bundle/slice.cache, slice.meta.json). bin/stratum.js loads them for
// `stratum slice` (src/cli/bundle-loader.cts) and falls back to the plain modules without them.
// Without esbuild (a production-only install) it builds nothing and says so: the CLI still works.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import * as zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = new URL('../dist/bundle/', import.meta.url);
const outfile = fileURLToPath(new URL('slice.cjs', outDir));

let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  console.warn('build-slice-bundle: esbuild is not installed; `stratum slice` will load the plain modules');
  process.exit(0);
}

// A bundled module's import.meta.url becomes the URL its own file has in the package (the bundle
// lives in dist/bundle/), so workers, the WASM file and package.json are found where they are.
const rewriteForCommonJs = {
  name: 'stratum-commonjs',
  setup(build) {
    build.onLoad({ filter: /\.js$/ }, async (args) => {
      const rel = relative(root, args.path).split('\\').join('/');
      const contents = (await readFile(args.path, 'utf8'))
        .replaceAll('import.meta.url', `__stratumFileUrl(${JSON.stringify(rel)})`);
      return { contents, loader: 'js' };
    });
  },
};

rmSync(outDir, { recursive: true, force: true });
const { metafile } = await esbuild.build({
  entryPoints: [fileURLToPath(new URL('../dist/src/cli/slice-main.js', import.meta.url))],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // npm packages are bundled too (clipper2-wasm's glue); its .wasm file stays in node_modules
  plugins: [rewriteForCommonJs],
  // Whitespace only (names stay): without the comments the text is smaller and all ASCII, which V8
  // keeps at one byte a character; one non-ASCII character in a comment doubles it (~0.9 MiB).
  minifyWhitespace: true,
  charset: 'ascii',
  // The file is Node's CommonJS wrapper around the code, compiled as it is by the loader (a wrapper
  // added at run time would make V8 copy the whole text once more).
  banner: {
    js:
      '(function (exports, require, module, __filename, __dirname) {"use strict";' +
      'const __stratumFileUrl = (rel) => require("node:url").pathToFileURL(require("node:path").join(__dirname, "..", "..", rel)).href;',
  },
  footer: { js: '})' },
  logLevel: 'warning',
  metafile: true,
  absWorkingDir: root,
});

const source = readFileSync(outfile, 'utf8');
const leftover = source.match(/\bimport\([^)]*\)/);
if (leftover) throw new Error(`build-slice-bundle: the bundle still calls ${leftover[0]}, which a vm.Script cannot run`);
if (/[^\x00-\x7f]/.test(source)) throw new Error('build-slice-bundle: the bundle is not ASCII');

// The files it was made from, so the launcher can tell a stale bundle (a bare tsc since) and skip it.
const inputs = Object.keys(metafile.inputs).map((rel) => {
  const st = statSync(join(root, rel));
  return [rel.split('\\').join('/'), st.mtimeMs, st.size, zlib.crc32 ? zlib.crc32(readFileSync(join(root, rel))) : 0];
});
writeFileSync(new URL('slice.inputs.json', outDir), JSON.stringify(inputs) + '\n');

// The cache must be made under the launcher's V8 flags: V8 rejects a cache made with other flags. The
// shebang's go on the command line; the warm-up sets bin/v8-flags.js's itself, as the launcher does.
const shebang = readFileSync(new URL('../bin/stratum.js', import.meta.url), 'utf8').split('\n', 1)[0];
const flags = shebang.split(/\s+/).filter((a) => a.startsWith('--'));
const warm = spawnSync(process.execPath, [...flags, fileURLToPath(new URL('warm-slice-cache.mjs', import.meta.url)), JSON.stringify(flags)], {
  stdio: ['ignore', 'inherit', 'inherit'],
});
if (warm.status !== 0) {
  // the bundle alone still saves the module loading; the launcher runs it without a cache
  console.warn(`build-slice-bundle: warming the code cache failed (exit ${warm.status}); the bundle runs without one`);
}
