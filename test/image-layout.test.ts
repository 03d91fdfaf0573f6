// The container image holds only what the Dockerfile's final stage copies (package.json, the
// production node_modules, dist/src, dist/bundle, bin). No Docker engine runs here, so this lays out
// the same files in a temporary directory, read from the Dockerfile itself, with node_modules
// pruned of dev dependencies as `npm prune --omit=dev` leaves it, and runs the image's two uses from
// there: `serve` taking a model over HTTP to a downloaded G-code, and the bundled `slice`. A file the
// service reads at run time that the image leaves out (a doc, a schema, a dev dependency) fails here.
import assert from 'node:assert/strict';
import { spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, readdirSync, symlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { cacheCheckable } from '../src/cli/bundle-loader.cjs';
import { CUBE_STL, REPO_ROOT, STL_SETTINGS, call, gcodeHeaderTotals, removeDir, serveEnv, startServeProcess, tempDir, upload, waitForStatus } from './api-helpers.js';

const root = tempDir('image');
const dataDir = tempDir('image-data');
const running = new Set<ChildProcess>();
after(() => {
  for (const p of running) p.kill('SIGKILL');
  removeDir(root);
  removeDir(dataDir);
});

interface Copy { from: string; to: string; fromBuild: boolean }

/** The final stage's COPY lines: sources in the repository (the build stage's /app is its root). */
function finalStageCopies(dockerfile: string): Copy[] {
  const stages = dockerfile.split(/^FROM\s/m);
  const last = stages[stages.length - 1]!;
  const copies: Copy[] = [];
  for (const m of last.matchAll(/^COPY\s+(--from=\S+\s+)?(\S+)\s+(\S+)\s*$/gm)) {
    const from = m[2]!.replace(/^\/app\//, '');
    // a destination ending in / is a directory: the file keeps its name there
    const to = (m[3]!.endsWith('/') ? m[3]! + basename(from) : m[3]!).replace(/^\.\//, '');
    copies.push({ fromBuild: m[1] !== undefined, from, to });
  }
  return copies;
}

/** node_modules as `npm prune --omit=dev` leaves it: links to the installed packages that are not dev-only. */
function productionModules(target: string, removed: Set<string>): void {
  const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
  mkdirSync(target, { recursive: true });
  for (const [path, info] of Object.entries(lock.packages)) {
    const m = /^node_modules\/((?:@[^/]+\/)?[^/]+)$/.exec(path);
    if (!m || info.dev === true || removed.has(m[1]!)) continue;
    const link = join(target, m[1]!);
    mkdirSync(dirname(link), { recursive: true });
    try {
      symlinkSync(join(REPO_ROOT, path), link, 'dir');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
}

const dockerfile = readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8');
// `rm -rf node_modules/X` in the build stage: packages the image drops (the Node 20 SQLite build; the
// image runs Node 24, so on Node 20 the package stays, as it must for the test to run there)
const removed = new Set(
  Number(process.versions.node.split('.')[0]) >= 22 ? [...dockerfile.matchAll(/rm -rf node_modules\/(\S+)/g)].map((m) => m[1]!) : [],
);
const copies = finalStageCopies(dockerfile);
const image = join(root, 'app');
const bin = join(image, 'bin', 'stratum.js');

test('the Dockerfile copies what the image needs, and only that is laid out', () => {
  const targets = copies.map((c) => c.to).sort();
  assert.deepEqual(targets, ['bin', 'dist/bundle', 'dist/src', 'node_modules', 'package.json'], dockerfile);
  for (const c of copies) {
    if (c.to === 'node_modules') productionModules(join(image, 'node_modules'), removed);
    else cpSync(join(REPO_ROOT, c.from), join(image, c.to), { recursive: true, preserveTimestamps: true });
  }
  assert.ok(!readdirSync(join(image, 'node_modules')).includes('esbuild'), 'a dev dependency was left in');
});

test('from the image layout, `serve` slices an uploaded model to a downloadable G-code', async () => {
  const env = { ...serveEnv(dataDir), NODE_ENV: 'production' };
  const made = spawnSync(process.execPath, [bin, 'keys', 'create', '--name', 'image'], { env, encoding: 'utf8', timeout: 60_000, cwd: image });
  assert.equal(made.status, 0, made.stderr);
  const served = await startServeProcess(env, bin);
  running.add(served.proc);
  const t = { url: served.url, key: made.stdout.trim() };

  const up = await upload(t, 'STL', 'cube.stl', readFileSync(CUBE_STL));
  assert.equal(up.status, 200, up.text);
  const start = await call(t.url, '/v1/stl/tasks', { key: t.key, json: { files: [up.body], settings: STL_SETTINGS } });
  assert.equal(start.status, 200, start.text);
  const done = await waitForStatus(t, 'stl', start.body.taskId, ['finished', 'failed'], 60_000);
  assert.equal(done.status, 'finished', JSON.stringify(done));
  const out = await call(t.url, `/v1/output/${done.output.outputId}/download`, { key: t.key });
  assert.equal(out.status, 200);
  assert.ok(gcodeHeaderTotals(out.text).filamentM > 1, out.text.slice(0, 300));
  // the reference the service serves is built at run time from its schemas
  const doc = await call(t.url, '/openapi.json');
  assert.equal(doc.status, 200);
  assert.ok(Object.keys(doc.body.paths).length > 20);
});

test('from the image layout, the bundled `slice` runs with its code cache', () => {
  const out = join(root, 'cube.gcode');
  // the launcher's shebang flags, under which the build made the code cache (bin/stratum runs them so)
  const flags = readFileSync(bin, 'utf8').split('\n', 1)[0]!.split(/\s+/).filter((a) => a.startsWith('--'));
  const r = spawnSync(process.execPath, [...flags, bin, 'slice', CUBE_STL, '-o', out, '--quiet'], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, STRATUM_DEBUG: '1' },
  });
  assert.equal(r.status, 0, r.stderr);
  // before Node 20.15 there is no zlib.crc32: a copy whose file times moved cannot be checked against
  // the build's record, so the launcher runs the plain modules (the image runs Node 24)
  if (cacheCheckable()) assert.match(r.stderr, /slice bundle loaded, code cache accepted/);
  assert.ok(gcodeHeaderTotals(readFileSync(out, 'utf8')).filamentM > 1);
});
