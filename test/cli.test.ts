// The command line end to end (spawning `node bin/stratum.js` as a user would), plus the preview's
// G-code reader and rasteriser and the --set parser on their own.
import { MODELS } from './shared-dir.js';
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, createReadStream, existsSync, ftruncateSync, linkSync, lstatSync, openSync, rmSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import { readGcodeLayer } from '../src/cli/gcode-reader.js';
import { Canvas } from '../src/cli/raster.js';
import { parseSetArgs, parseSupport } from '../src/cli/set-values.js';
import { formatDuration } from '../src/cli/format.js';
import { writeFileAtomic } from '../src/cli/atomic-write.js';
import { readInputFile } from '../src/cli/read-input.js';
import { binaryStl, box, merge, soup, zip, type TestMesh } from './mesh-fixtures.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'bin', 'stratum.js');
const models = MODELS;
const cube = join(models, 'xyz_calibration_cube.stl');
const work = mkdtempSync(join(tmpdir(), 'stratum-cli-test-'));
after(() => rmSync(work, { recursive: true, force: true }));

function stratum(...args: string[]) {
  return stratumWith({}, ...args);
}

function stratumWith(env: Record<string, string>, ...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', cwd: work, timeout: 60_000, env: { ...process.env, ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const lines = (text: string) => text.split('\n').filter((l) => l.trim() !== '');

// ── dispatch and usage ──────────────────────────────────────────────────────────────────────

test('--version prints the package version', () => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  const r = stratum('--version');
  assert.equal(r.code, 0);
  assert.equal(r.stdout.trim(), pkg.version);
});

test('help lists the commands; an unknown command is a usage error (exit 2, usage on stderr)', () => {
  const help = stratum('help');
  assert.equal(help.code, 0);
  for (const cmd of ['serve', 'keys', 'slice', 'preview', 'printers', 'filaments', 'qualities']) assert.match(help.stdout, new RegExp(`\\b${cmd}\\b`));
  const bad = stratum('slise');
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /unknown command "slise"/);
  assert.match(bad.stderr, /usage: stratum/);
  assert.equal(bad.stdout, '');
});

test('slice usage errors exit 2 without a stack trace', () => {
  for (const args of [
    ['slice', cube], // no -o
    ['slice', cube, '-o', 'x.gcode', '--support', 'x'],
    ['slice', cube, '-o', 'x.gcode', '--frobnicate'],
    ['slice', cube, '-o', 'x.gcode', '--set', 'novalue'],
    // a quote left open: the firmware would not run a `"G28` line
    ['slice', cube, '-o', 'x.gcode', '--set', 'startGcode="G28'],
    ['slice', cube, '-o', 'x.gcode', '--set', 'filamentName="'],
  ]) {
    const r = stratum(...args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
    assert.match(r.stderr, /--help/);
    // the message as written, not the error's class name
    assert.match(r.stderr, /^stratum slice: (?!UsageError|TypeError)/);
  }
  assert.equal(existsSync(join(work, 'x.gcode')), false);
});

// ── slice ───────────────────────────────────────────────────────────────────────────────────

test('slice writes G-code whose header matches the --json figures (calibration cube)', () => {
  const out = join(work, 'cube.gcode');
  const r = stratum('slice', cube, '-o', out, '--json');
  assert.equal(r.code, 0, r.stderr);
  const stats = JSON.parse(r.stdout) as { layerCount: number; printTimeS: number; filamentMm: number; printTime: string };
  const head = readFileSync(out, 'utf8').slice(0, 4000);
  assert.match(head, /^;FLAVOR:Marlin$/m);
  assert.match(head, /^;LAYER_COUNT:100$/m, 'a 20 mm cube at 0.2 mm layers');
  assert.equal(stats.layerCount, 100);
  const time = Number(/^;TIME:(\d+)/m.exec(head)?.[1]);
  assert.ok(time > 0, 'a print time in the header');
  assert.ok(time === Math.round(stats.printTimeS) || time === Math.floor(stats.printTimeS), `;TIME:${time} vs ${stats.printTimeS}`);
  assert.match(stats.printTime, /^\d+:\d\d:\d\d$/);
  assert.ok(stats.filamentMm > 500 && stats.filamentMm < 3000, `filament ${stats.filamentMm} mm (peers: about 1250–1330)`);
  assert.deepEqual(readdirSync(work).filter((f) => f.endsWith('.tmp')), [], 'no temporary file left');
});

test('an embossed X (two crossing 1.2 mm strokes) is filled, not printed as a hollow outline', () => {
  // one wall loop each side leaves a 0.4 mm channel down every stroke, widening at the crossing:
  // gap fill must follow the whole channel (it once filled only the crossing: 61 % of the volume)
  const turned = (m: TestMesh, deg: number): TestMesh => {
    const a = (deg * Math.PI) / 180, c = Math.cos(a), s = Math.sin(a);
    const p = [...m.positions];
    for (let i = 0; i < p.length; i += 3) [p[i], p[i + 1]] = [p[i] * c - p[i + 1] * s, p[i] * s + p[i + 1] * c];
    return { positions: p, indices: m.indices };
  };
  const bar = box(-6, -0.6, 0, 6, 0.6, 2);
  const model = join(work, 'x-glyph.stl');
  writeFileSync(model, binaryStl(soup(merge(turned(bar, 60), turned(bar, -60)))));
  const r = stratum('slice', model, '-o', join(work, 'x-glyph.gcode'), '--set', 'adhesionType=none', '--json', '--quiet');
  assert.equal(r.code, 0, r.stderr);
  const { filamentMm } = JSON.parse(r.stdout) as { filamentMm: number };
  // two 12 × 1.2 mm bars less their rhombus of overlap (1.2² / sin 120°), 2 mm high
  const volume = (2 * 12 * 1.2 - (1.2 * 1.2) / Math.sin((2 * Math.PI) / 3)) * 2;
  const ratio = (filamentMm * Math.PI * 0.875 ** 2) / volume;
  assert.ok(ratio > 0.85 && ratio < 1.1, `deposited ${ratio.toFixed(3)} of the X's volume`);
});

test('the worker-thread path writes the same G-code as the main-thread path', () => {
  const main = join(work, 'cube-main.gcode');
  const worker = join(work, 'cube-worker.gcode');
  const a = stratumWith({ STRATUM_SLICE_THREAD: 'main' }, 'slice', cube, '-o', main, '--quiet');
  const b = stratumWith({ STRATUM_SLICE_THREAD: 'worker' }, 'slice', cube, '-o', worker, '--quiet');
  assert.equal(a.code, 0, a.stderr);
  assert.equal(b.code, 0, b.stderr);
  assert.ok(readFileSync(main).equals(readFileSync(worker)), 'identical output');
  const bad = join(work, 'garbage-worker.stl');
  writeFileSync(bad, 'solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 nan\n');
  const err = stratumWith({ STRATUM_SLICE_THREAD: 'worker' }, 'slice', bad, '-o', join(work, 'gw.gcode'));
  assert.equal(err.code, 1, 'an engine error from the thread is a failure, not a crash');
  assert.equal(lines(err.stderr).length, 1, err.stderr);
  assert.match(err.stderr, /^stratum slice: error: /);
});

test('a small slice runs WASM on Liftoff only, a larger one optimised, with the same G-code either way', () => {
  const auto = join(work, 'cube-tier-auto.gcode');
  const opt = join(work, 'cube-tier-opt.gcode');
  const a = stratumWith({ STRATUM_DEBUG: '1' }, 'slice', cube, '-o', auto, '--quiet');
  const b = stratumWith({ STRATUM_DEBUG: '1', STRATUM_WASM_TIER: 'optimising' }, 'slice', cube, '-o', opt, '--quiet');
  assert.equal(a.code, 0, a.stderr);
  assert.equal(b.code, 0, b.stderr);
  assert.match(a.stderr, /WASM tier liftoff/);
  assert.match(b.stderr, /WASM tier optimising/);
  assert.ok(readFileSync(auto).equals(readFileSync(opt)), 'identical output');
  const large = stratumWith({ STRATUM_DEBUG: '1' }, 'slice', join(models, 'broken_extra_surface.stl'), '-o', join(work, 'es.gcode'), '--quiet');
  assert.equal(large.code, 0, large.stderr);
  assert.match(large.stderr, /WASM tier optimising/);
});

test('slice prints a one-line summary on stderr (not a TTY: no progress bar)', () => {
  const out = join(work, 'cube-summary.gcode');
  const r = stratum('slice', cube, '-o', out, '--set', 'infillDensity=15', '--support', 'n');
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, '');
  assert.doesNotMatch(r.stderr, /\r/, 'no carriage returns on a pipe');
  const summary = lines(r.stderr).filter((l) => !l.startsWith('warning:'));
  assert.equal(summary.length, 1, r.stderr);
  assert.match(summary[0], /100 layers, print time \d+:\d\d:\d\d, filament \d+\.\d\d m \d+\.\d g, sliced in \d+\.\d\d s/);
});

test('a bad model file fails with exit 1, one line naming the problem, and no output file', () => {
  const bad = join(work, 'garbage.stl');
  writeFileSync(bad, 'this is not a mesh at all\n');
  const out = join(work, 'garbage.gcode');
  const r = stratum('slice', bad, '-o', out);
  assert.equal(r.code, 1);
  assert.equal(lines(r.stderr).length, 1, r.stderr);
  assert.doesNotMatch(r.stderr, /\n\s+at /);
  assert.equal(existsSync(out), false);
  assert.deepEqual(readdirSync(work).filter((f) => f.startsWith('.garbage')), []);

  const missing = stratum('slice', join(work, 'nope.stl'), '-o', out);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /nope\.stl: no such file/);
});

test('a slice that fails on a file read with warnings repeats them: a cut-short binary STL says so', () => {
  // a 20 mm box whose header declares its 12 triangles, cut after the first 2
  const tris = soup(box(0, 0, 0, 20, 20, 20));
  const cut = join(work, 'cut.stl');
  writeFileSync(cut, binaryStl(tris.slice(0, 2 * 9), 'cut short', 12));
  const out = join(work, 'cut.gcode');
  const r = stratum('slice', cut, '-o', out);
  assert.equal(r.code, 1);
  assert.equal(lines(r.stderr).length, 1, r.stderr);
  assert.match(r.stderr, /header declares 12 triangles but the file size holds 2/);
  assert.equal(existsSync(out), false);
});

test('an output that is the input file (same path, a link or a hard link) is refused and the input kept', () => {
  const dir = mkdtempSync(join(work, 'same-'));
  const model = join(dir, 'model.stl');
  const original = readFileSync(cube);
  writeFileSync(model, original);
  symlinkSync('model.stl', join(dir, 'soft.stl'));
  linkSync(model, join(dir, 'hard.stl'));
  for (const out of [model, join(dir, '.', 'model.stl'), join(dir, 'soft.stl'), join(dir, 'hard.stl')]) {
    const r = stratum('slice', model, '-o', out);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /^stratum slice: error: cannot write .*: it is the input file .*model\.stl, which the result would replace/);
    assert.deepEqual(readFileSync(model), original, `-o ${out} left the model as it was`);
  }
  // the other commands that read one file and write another
  const gcode = join(dir, 'model.gcode');
  assert.equal(stratum('slice', model, '-o', gcode, '--quiet').code, 0);
  const before = readFileSync(gcode);
  for (const args of [
    ['preview', gcode, '--layer', '3', '-o', gcode],
    ['fcode', 'encode', gcode, '-o', gcode],
    ['workspace', 'from-stl', model, '-o', model],
  ]) {
    const r = stratum(...args);
    assert.equal(r.code, 1, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, /it is the input file/);
  }
  assert.deepEqual(readFileSync(gcode), before);
  assert.deepEqual(readFileSync(model), original);
});

test('several models slice into a directory, each as it would alone; one that fails does not stop the others', () => {
  const dir = join(work, 'batch');
  const holes = join(models, 'holes_thin_wall.stl');
  const broken = join(work, 'broken.stl');
  writeFileSync(broken, 'solid x\n  facet normal 0 0 1\n');
  const r = stratum('slice', cube, broken, holes, '-o', dir, '--set', 'infillDensity=15');
  assert.equal(r.code, 1, r.stderr);
  assert.deepEqual(readdirSync(dir).sort(), ['holes_thin_wall.gcode', 'xyz_calibration_cube.gcode']);
  const err = lines(r.stderr);
  assert.match(err[0]!, /^.*batch\/xyz_calibration_cube\.gcode: 100 layers, print time/);
  assert.match(err[1]!, /^stratum slice: error: .*broken\.stl: ASCII STL without any facets$/);
  assert.match(err[2]!, /^.*batch\/holes_thin_wall\.gcode: \d+ layers/);
  assert.match(err[3]!, /^2 of 3 models sliced into .*batch in \d+\.\d\d s; 1 failed$/);
  // byte for byte what a process of its own writes
  for (const model of [cube, holes]) {
    const name = model.split('/').pop()!.replace('.stl', '.gcode');
    const alone = join(work, `alone-${name}`);
    assert.equal(stratum('slice', model, '-o', alone, '--quiet', '--set', 'infillDensity=15').code, 0);
    assert.deepEqual(readFileSync(join(dir, name)), readFileSync(alone), name);
  }
  // --json: one record per model, failures with their message
  const json = stratum('slice', cube, broken, '-o', join(work, 'batch-json'), '--json', '--format', 'fcode');
  assert.equal(json.code, 1);
  const records = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
  assert.equal(records.length, 2);
  assert.equal(records[0]!.format, 'FCODE');
  assert.match(String(records[0]!.output), /batch-json\/xyz_calibration_cube\.fcode$/);
  assert.equal(records[0]!.layerCount, 100);
  assert.equal(records[1]!.error, 'ASCII STL without any facets');
  // refused before any work: two models that would share an output; -o naming a file
  const twin = join(work, 'twin');
  mkdirSync(twin, { recursive: true });
  writeFileSync(join(twin, 'xyz_calibration_cube.stl'), readFileSync(cube));
  const clash = stratum('slice', cube, join(twin, 'xyz_calibration_cube.stl'), '-o', join(work, 'clash'));
  assert.equal(clash.code, 1);
  assert.match(clash.stderr, /would both be written to .*clash\/xyz_calibration_cube\.gcode/);
  assert.equal(existsSync(join(work, 'clash')), false);
  const onFile = stratum('slice', cube, holes, '-o', join(dir, 'holes_thin_wall.gcode'));
  assert.equal(onFile.code, 1);
  assert.match(onFile.stderr, /with several models -o names a directory, and this is a file/);
  const underFile = stratum('slice', cube, holes, '-o', join(dir, 'holes_thin_wall.gcode', 'more'));
  assert.equal(underFile.code, 1);
  assert.match(underFile.stderr, /^stratum slice: error: cannot create .*more: .*holes_thin_wall\.gcode is a file, not a directory$/m);
});

test('serve with a data directory it cannot make fails at once, naming the setting', () => {
  const file = join(work, 'a-file');
  writeFileSync(file, 'x');
  for (const dataDir of [join(file, 'data'), ...(existsSync('/proc/self') ? ['/proc/stratum-nope/data'] : [])]) {
    const r = stratumWith({ STRATUM_DATA_DIR: dataDir }, 'serve', '--port', '0');
    assert.equal(r.code, 1, `${dataDir}: ${r.stderr}`);
    assert.match(r.stderr, /^stratum serve: error: cannot use the data directory .* \(STRATUM_DATA_DIR, --data-dir\): (ENOTDIR|ENOENT)/m);
  }
});

test('inputs are read up to 512 MiB: a larger file fails at once, an endless device after the limit', async () => {
  // a sparse file: its size says 600 MiB, its blocks hold nothing
  const big = join(work, 'huge.stl');
  const fd = openSync(big, 'w');
  ftruncateSync(fd, 600 * 1024 * 1024);
  closeSync(fd);
  const r = stratum('slice', big, '-o', join(work, 'huge.gcode'));
  assert.equal(r.code, 1);
  assert.match(r.stderr, /^stratum slice: error: cannot read .*huge\.stl: it is 600 MiB, more than the 512 MiB an input may have/);
  rmSync(big);
  // a device that never ends, with a small limit to keep the test light
  await assert.rejects(readInputFile('/dev/zero', 3 * 1024 * 1024), /cannot read \/dev\/zero: it gives more than the 3\.00 MiB|cannot read \/dev\/zero: it gives more than the 3 MiB/);
  // a pipe is read to its end: the model on standard input
  // (a shell pipe: Node's own stdin for a child is a socket, which /dev/stdin cannot open)
  const piped = spawnSync('sh', ['-c', 'cat "$1" | "$2" "$3" slice /dev/stdin -o stdin.gcode --quiet', 'sh', cube, process.execPath, bin], { cwd: work, timeout: 60_000 });
  assert.equal(piped.status, 0, String(piped.stderr));
  assert.match(readFileSync(join(work, 'stdin.gcode'), 'utf8'), /^;LAYER_COUNT:100$/m);
});

test('a value option given twice is a usage error, not the last one taken silently; repeatable ones repeat', () => {
  const twice = stratum('slice', cube, '-o', 'a.gcode', '--printer', 'Creality Ender 3', '--output', 'b.gcode');
  assert.equal(twice.code, 2);
  assert.match(twice.stderr, /^stratum slice: --output is given twice \(-o "a\.gcode", then --output "b\.gcode"\): give it once$/m);
  assert.ok(!existsSync(join(work, 'a.gcode')) && !existsSync(join(work, 'b.gcode')), 'nothing written');
  assert.equal(stratum('preview', 'x.gcode', '--layer', '1', '--layer', '2', '-o', 'x.png').code, 2);
  assert.equal(stratum('keys', 'create', '--name', 'a', '--name', 'b').code, 2);
  // --set repeats (a later one wins, as documented); a flag said twice is still one flag
  const sets = stratum('slice', cube, '-o', 'sets.gcode', '--set', 'infillDensity=10', '--set', 'infillDensity=20', '--quiet', '--quiet', '--json');
  assert.equal(sets.code, 0, sets.stderr);
  const only = (density: number) => JSON.parse(stratum('slice', cube, '-o', `d${density}.gcode`, '--set', `infillDensity=${density}`, '--quiet', '--json').stdout).filamentMm;
  const twenty = only(20);
  assert.notEqual(only(10), twenty, 'the densities do not tell apart');
  assert.equal(JSON.parse(sets.stdout).filamentMm, twenty, 'the later --set did not win');
});

test('a blank printer, filament or quality name is a usage error (exit 2), not the default preset', () => {
  for (const [flag, value] of [['--printer', ''], ['-p', '   '], ['--filament', ''], ['--quality', ' ']]) {
    const out = join(work, 'blank.gcode');
    const r = stratum('slice', cube, '-o', out, flag, value);
    assert.equal(r.code, 2, `${flag} '${value}': ${r.stderr}`);
    assert.match(r.stderr, /needs a name, not a blank/);
    assert.equal(existsSync(out), false);
  }
});

test('an unknown printer fails with exit 1 naming close matches', () => {
  const out = join(work, 'printer.gcode');
  const r = stratum('slice', cube, '-o', out, '--printer', 'Creality Endr 3');
  assert.equal(r.code, 1);
  assert.equal(lines(r.stderr).length, 1, r.stderr);
  assert.match(r.stderr, /Creality Ender 3/);
  assert.equal(existsSync(out), false);
});

test('Ctrl-C during a slice on the main thread exits 130 and writes nothing', { timeout: 120_000 }, async () => {
  const out = join(work, 'bunny-int.gcode');
  // the bunny takes seconds on one thread, so the signal comes after the CLI's handler is in place (a
  // fixed short delay on the cube raced the start-up on a busy machine) and well before the end
  // at 0.06 mm layers: a slice that ignored the signal would run on for 10 s or more (the 5 s bound
  // below must not be within reach of a whole slice)
  const child = spawn(process.execPath, [bin, 'slice', join(models, 'stanford_bunny.stl'), '-o', out, '--set', 'layerHeight=0.06'], { cwd: work, env: { ...process.env, STRATUM_SLICE_THREAD: 'main' } });
  const closed = new Promise<number | null>((r) => child.on('close', r));
  await new Promise((r) => setTimeout(r, 1500));
  assert.equal(child.exitCode, null, 'the slice ended before the signal');
  const sent = Date.now();
  child.kill('SIGINT');
  assert.equal(await closed, 130);
  // the main thread gives its event loop a turn every 40 ms of work, so the handler runs at once
  // (37–75 ms; when it gave way only between chunks of 32 layers, up to 4.7 s on a busy machine)
  assert.ok(Date.now() - sent < 5000, `stopped ${Date.now() - sent} ms after the signal`);
  assert.equal(existsSync(out), false);
});

test('Ctrl-C while the model is a FIFO no one writes to ends the process (130 as a shell sees it)', { timeout: 60_000 }, async () => {
  const fifo = join(work, 'nobody.stl');
  if (spawnSync('mkfifo', [fifo]).status !== 0) return; // no mkfifo here: nothing to test
  const child = spawn(process.execPath, [bin, 'slice', fifo, '-o', join(work, 'nobody.gcode')], { cwd: work });
  const closed = new Promise<[number | null, string | null]>((r) => child.on('close', (code, signal) => r([code, signal])));
  await new Promise((r) => setTimeout(r, 1000));
  const sent = Date.now();
  child.kill('SIGINT');
  const [code, signal] = await closed;
  // it cannot stop the read, so after a moment it ends the way Ctrl-C does by default: by the signal
  assert.ok(code === 130 || signal === 'SIGINT', `code ${code}, signal ${signal}`);
  assert.ok(Date.now() - sent < 10_000, `ended ${Date.now() - sent} ms after the signal`);
  rmSync(fifo, { force: true });
});

test('Ctrl-C during a large slice (worker thread) exits 130 promptly and writes nothing', { timeout: 120_000 }, async () => {
  const out = join(work, 'bunny.gcode');
  const child = spawn(process.execPath, [bin, 'slice', join(models, 'stanford_bunny.stl'), '-o', out], { cwd: work });
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  const closed = new Promise<number | null>((r) => child.on('close', r));
  await new Promise((r) => setTimeout(r, 1500));
  assert.equal(child.exitCode, null, `still slicing after 1.5 s: ${stderr}`);
  const sent = Date.now();
  child.kill('SIGINT');
  const code = await closed;
  assert.equal(code, 130, stderr);
  assert.ok(Date.now() - sent < 4000, `stopped ${Date.now() - sent} ms after the signal`);
  assert.equal(existsSync(out), false);
});

test('standard output closed early (| head) ends the command quietly; a full disk is one line and exit 1', () => {
  // a pipe whose reader leaves after a few bytes: no stack trace, the command's own exit code
  for (const args of [['printers', '--json'], ['slice', cube, '-o', '/dev/stdout', '--quiet']]) {
    const command = `"${process.execPath}" "${bin}" ${args.map((a) => `"${a}"`).join(' ')}`;
    // bash's PIPESTATUS is not sh's: the command's own status is written by a subshell
    const piped = spawnSync('sh', ['-c', `( ${command}; echo "status $?" >&2 ) | head -c 10 >/dev/null`], { encoding: 'utf8', cwd: work });
    assert.equal(piped.stderr.trim(), 'status 0', `${args[0]}: ${piped.stderr}`);
  }
  if (existsSync('/dev/full')) {
    for (const args of [['printers'], ['slice', cube, '-o', join(work, 'full.gcode'), '--json']]) {
      const r = spawnSync('sh', ['-c', `"${process.execPath}" "${bin}" ${args.map((a) => `"${a}"`).join(' ')} > /dev/full`], { encoding: 'utf8', cwd: work });
      assert.equal(r.status, 1, r.stderr);
      assert.deepEqual(lines(r.stderr), ['stratum: cannot write to standard output: ENOSPC']);
    }
  }
});

// ── catalogue ───────────────────────────────────────────────────────────────────────────────

test('printers lists at least 30 presets, as a table and as JSON', () => {
  const json = stratum('printers', '--json');
  assert.equal(json.code, 0, json.stderr);
  const list = JSON.parse(json.stdout) as { name: string }[];
  assert.ok(list.length >= 30, `${list.length} printers`);
  assert.ok(list.some((p) => p.name === 'Creality Ender 3'));
  const table = stratum('printers');
  assert.equal(table.code, 0);
  assert.equal(lines(table.stdout).length, list.length + 2, 'header, rule, one row each');
  assert.match(lines(table.stdout)[0], /^name\s+bed mm/);
  for (const what of ['filaments', 'qualities']) {
    const r = stratum(what, '--json');
    assert.equal(r.code, 0, r.stderr);
    assert.ok((JSON.parse(r.stdout) as unknown[]).length >= 3);
  }
});

// ── preview ─────────────────────────────────────────────────────────────────────────────────

/** Two layers of a 20 mm square (outer wall, then one infill line), Cura-style comments, absolute E. */
const CURA_STYLE = `;FLAVOR:Marlin
;LAYER_COUNT:2
G28
M82
G92 E0
G1 X0 Y0 E5 ; a purge in the start G-code, before any layer
G92 E0
;LAYER:0
G0 Z0.2
G0 X100 Y100
;TYPE:WALL-OUTER
G1 X120 Y100 E1
G1 X120 Y120 E2
G1 X100 Y120 E3
G1 X100 Y100 E4
G1 E-1 ; retract
G0 X102 Y102
G1 E4 ; prime
;TYPE:FILL
G1 X118 Y118 E5
;LAYER:1
G0 Z0.4
;TYPE:WALL-OUTER
G1 X120 Y100 E6
`;

test('the G-code reader follows Cura-style layers, types, retracts and travels', () => {
  const scan = readGcodeLayer(CURA_STYLE, 0);
  assert.equal(scan.layerMarkers, 'cura');
  assert.deepEqual(scan.layerNumbers, [0, 1]);
  const layer = scan.layer!;
  assert.equal(layer.z, 0.2);
  assert.deepEqual(layer.extrusionTypes, ['WALL-OUTER', 'WALL-OUTER', 'WALL-OUTER', 'WALL-OUTER', 'FILL']);
  assert.deepEqual(layer.extrusions.slice(0, 4), [100, 100, 120, 100]);
  assert.deepEqual(layer.extrusions.slice(16), [102, 102, 118, 118]);
  // the move to the start and the retracted hop are travels; retract and prime draw nothing
  assert.deepEqual(layer.travels, [0, 0, 100, 100, 100, 100, 102, 102]);
  assert.equal(readGcodeLayer(CURA_STYLE, 7).layer, null);
});

test('the G-code reader follows PrusaSlicer-style layers with relative E and arcs', () => {
  const prusa = `M83
;LAYER_CHANGE
;Z:0.3
G1 Z.3
;TYPE:External perimeter
G1 X10 Y0 E.5
G3 X0 Y10 I-10 J0 E.8
;LAYER_CHANGE
;Z:0.5
G1 Z.5
;TYPE:Perimeter
G1 X10 Y10 E.5
G1 E-.8
G1 X20 Y20
`;
  const first = readGcodeLayer(prusa, 0);
  assert.equal(first.layerMarkers, 'prusa');
  assert.equal(first.layer!.z, 0.3);
  const ex = first.layer!.extrusions;
  assert.ok(ex.length / 4 > 5, 'the quarter arc is split into chords');
  assert.deepEqual(ex.slice(-2), [0, 10], 'the arc ends where it says');
  // every chord end lies on the circle of radius 10 around the origin
  for (let i = 4; i < ex.length; i += 4) assert.ok(Math.abs(Math.hypot(ex[i + 2], ex[i + 3]) - 10) < 1e-9);
  const second = readGcodeLayer(prusa, 1).layer!;
  assert.deepEqual(second.extrusionTypes, ['Perimeter']);
  assert.deepEqual(second.travels, [10, 10, 20, 20]);
});

test('files without layer comments are split where extrusion moves up', () => {
  const plain = 'G1 Z0.2\nG1 X0 Y0\nG1 X10 Y0 E1\nG1 Z0.4\nG1 X10 Y10 E2\nG1 X0 Y10 E3\n';
  const scan = readGcodeLayer(plain, 1);
  assert.equal(scan.layerMarkers, 'z');
  assert.deepEqual(scan.layerNumbers, [0, 1]);
  assert.equal(scan.layer!.z, 0.4);
  assert.equal(scan.layer!.extrusions.length, 8);
});

test('preview draws a layer as a PNG of the asked size with the outer wall in its colour', () => {
  const gcode = join(work, 'square.gcode');
  writeFileSync(gcode, CURA_STYLE);
  const png = join(work, 'square.png');
  const r = stratum('preview', gcode, '--layer', '0', '-o', png, '--size', '400');
  assert.equal(r.code, 0, r.stderr);
  const bytes = readFileSync(png);
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
  const img = PNG.sync.read(bytes);
  assert.equal(img.width, 400);
  assert.ok(img.height > 400 && img.height < 500, `drawing plus legend strip, got ${img.height}`);
  // The square spans the drawing (4 % margin): the wall's left edge at x ≈ 16 px, mid-height.
  const at = (x: number, y: number) => [...img.data.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 3)];
  assert.deepEqual(at(200, 200).slice(0, 3), [255, 127, 14], 'the diagonal infill line through the centre');
  assert.deepEqual(at(20, 300), [214, 39, 40], 'outer wall red on the left edge');
  assert.deepEqual(at(100, 100), [255, 255, 255], 'white inside the square, off the infill line');

  const none = stratum('preview', gcode, '--layer', '5', '-o', png);
  assert.equal(none.code, 1);
  assert.match(none.stderr, /no layer 5; layers run from 0 to 1/);
  assert.equal(stratum('preview', gcode, '-o', png).code, 2, 'missing --layer');
  // a --view wider than anything drawable is the option's fault: a usage error, not the layer's
  const wide = stratum('preview', gcode, '--layer', '0', '-o', png, '--view', '0,0,20000,20000');
  assert.equal(wide.code, 2, wide.stderr);
  assert.match(wide.stderr, /--view may span at most 10000 mm/);
});

// ── pieces ──────────────────────────────────────────────────────────────────────────────────

test('preview refuses a layer whose coordinates no printer could reach, instead of drawing nothing', () => {
  for (const [name, text] of [
    ['huge.gcode', ';LAYER:0\nG1 X1e308 Y5 E1\nG1 X-1e308 Y1e308 E2\n'],
    ['infinite.gcode', ';LAYER:0\nG1 X1 Y1 E1\nG1 XInfinity Y1 E2\n'],
    ['far.gcode', ';LAYER:0\nG1 X0 Y0 E1\nG1 X20000 Y0 E2\n'],
  ]) {
    const file = join(work, name);
    writeFileSync(file, text);
    const r = stratum('preview', file, '--layer', '0', '-o', join(work, `${name}.png`));
    assert.equal(r.code, 1, `${name}: ${r.stderr}`);
    assert.match(r.stderr, /^stratum preview: error: layer 0 spans (an endless distance|2\.00e\+4 mm), more than any printer's 10 m: its coordinates are out of range$/m, name);
    assert.equal(existsSync(join(work, `${name}.png`)), false);
  }
});

test('--set values are typed from their text; --support maps n/e/b', () => {
  assert.deepEqual(parseSetArgs(['infillDensity=15', 'monotonicSkin=false', 'infillPattern=gyroid', 'zHop=.4', 'startGcode="G28\\nG29"', 'machineName=My = printer']), {
    infillDensity: 15,
    monotonicSkin: false,
    infillPattern: 'gyroid',
    zHop: 0.4,
    startGcode: 'G28\nG29',
    machineName: 'My = printer',
  });
  // a choice in any case is spelled as its list spells it, as --format fcode is
  assert.deepEqual(parseSetArgs(['outputFormat=fcode', 'infillPattern=Gyroid', 'seamPosition=nonsense']), { outputFormat: 'FCODE', infillPattern: 'gyroid', seamPosition: 'nonsense' });
  assert.deepEqual([parseSupport('n'), parseSupport('e'), parseSupport('B')], ['none', 'everywhere', 'buildplate']);
  assert.throws(() => parseSupport('x'), /--support/);
  assert.throws(() => parseSetArgs(['=3']), /key=value/);
  // names of Object.prototype's members are plain keys (validation then calls them unknown settings)
  assert.throws(() => parseSupport('constructor'), /--support/);
  assert.deepEqual(Object.keys(parseSetArgs(['__proto__=1', 'constructor=2'])), ['__proto__', 'constructor']);
});

test('--set __proto__=1 is an unknown setting, not silently dropped', () => {
  const r = stratum('slice', cube, '-o', join(work, 'proto.gcode'), '--set', '__proto__=1');
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /unknown setting "__proto__"/);
  assert.equal(existsSync(join(work, 'proto.gcode')), false);
});

test('atomic writes replace regular files only: links keep pointing, pipes are written in place', async () => {
  const dir = join(work, 'atomic');
  mkdirSync(dir);
  const enc = (t: string) => new TextEncoder().encode(t);
  await writeFileAtomic(join(dir, 'new.gcode'), enc('fresh'));
  assert.equal(readFileSync(join(dir, 'new.gcode'), 'utf8'), 'fresh');
  writeFileSync(join(dir, 'real.gcode'), 'old');
  symlinkSync('real.gcode', join(dir, 'link.gcode'));
  await writeFileAtomic(join(dir, 'link.gcode'), enc('new'));
  assert.equal(readlinkSync(join(dir, 'link.gcode')), 'real.gcode', 'the link is still a link');
  assert.equal(readFileSync(join(dir, 'real.gcode'), 'utf8'), 'new');
  const fifo = join(dir, 'pipe');
  assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
  const chunks: Buffer[] = [];
  const reader = createReadStream(fifo);
  reader.on('data', (c) => chunks.push(c as Buffer));
  const ended = new Promise<void>((r) => reader.on('end', () => r()));
  await writeFileAtomic(fifo, enc('through the pipe'));
  await ended;
  assert.equal(Buffer.concat(chunks).toString(), 'through the pipe');
  assert.ok(lstatSync(fifo).isFIFO(), 'the FIFO was not replaced by a file');
  assert.deepEqual(readdirSync(dir).filter((f) => f.endsWith('.tmp')), []);
  const aborted = AbortSignal.abort();
  await assert.rejects(writeFileAtomic(join(dir, 'real.gcode'), enc('late'), aborted), { name: 'SliceCancelled' });
  assert.equal(readFileSync(join(dir, 'real.gcode'), 'utf8'), 'new', 'a cancelled write leaves the old file');
  assert.deepEqual(readdirSync(dir).filter((f) => f.endsWith('.tmp')), []);
});

test('durations print as h:mm:ss with unpadded hours past a day', () => {
  assert.equal(formatDuration(0), '0:00:00');
  assert.equal(formatDuration(3725.4), '1:02:05');
  assert.equal(formatDuration(90061), '25:01:01');
});

test('thick lines cover the bead width; thin lines one pixel', () => {
  const c = new Canvas(50, 50);
  c.line(10, 25, 40, 25, 6, [0, 0, 0]);
  let inked = 0;
  for (let y = 0; y < 50; y++) for (let x = 0; x < 50; x++) if (c.getPixel(x, y)[0] === 0) inked++;
  // a 30 × 6 rectangle plus two half discs of radius 3: about 180 + 28 pixels
  assert.ok(inked > 190 && inked < 225, `${inked} pixels`);
  assert.deepEqual(c.getPixel(25, 22), [0, 0, 0]);
  assert.deepEqual(c.getPixel(25, 29), [255, 255, 255]);
  const t = new Canvas(20, 20);
  t.thinLine(0.5, 0.5, 19.5, 19.5, [0, 0, 0]);
  let thin = 0;
  for (let y = 0; y < 20; y++) for (let x = 0; x < 20; x++) if (t.getPixel(x, y)[0] === 0) thin++;
  assert.equal(thin, 20);
});

test('a 3MF plate of two objects slices as two models: each its own ;MESH: and, on Klipper, its own object to cancel', () => {
  const cubeXml = (id: number, name: string) => {
    const b = box(0, 0, 0, 10, 10, 10);
    const v: string[] = [];
    for (let i = 0; i < b.positions.length; i += 3) v.push(`<vertex x="${b.positions[i]}" y="${b.positions[i + 1]}" z="${b.positions[i + 2]}"/>`);
    const t: string[] = [];
    for (let i = 0; i < b.indices.length; i += 3) t.push(`<triangle v1="${b.indices[i]}" v2="${b.indices[i + 1]}" v3="${b.indices[i + 2]}"/>`);
    return `<object id="${id}" type="model" name="${name}"><mesh><vertices>${v.join('')}</vertices><triangles>${t.join('')}</triangles></mesh></object>`;
  };
  const xml =
    `<?xml version="1.0"?><model unit="millimeter" xmlns="http://schemas.microsoft.com/3dmanufacturing/core/2015/02"><resources>${cubeXml(1, 'left')}${cubeXml(2, 'right')}</resources>` +
    `<build><item objectid="1"/><item objectid="2" transform="1 0 0 0 1 0 0 0 1 30 0 0"/></build></model>`;
  writeFileSync(join(work, 'plate.3mf'), zip({ '3D/3dmodel.model': xml }));
  const r = stratum('slice', 'plate.3mf', '-o', 'plate.gcode', '--printer', 'Voron 2.4 (350)', '--quiet');
  assert.equal(r.code, 0, r.stderr);
  const text = readFileSync(join(work, 'plate.gcode'), 'utf8');
  const meshes = new Set(text.split('\n').filter((l) => l.startsWith(';MESH:') && l !== ';MESH:NONMESH'));
  assert.deepEqual([...meshes].sort(), [';MESH:plate.3mf: left', ';MESH:plate.3mf: right']);
  assert.equal(text.split('\n').filter((l) => l.startsWith('EXCLUDE_OBJECT_DEFINE')).length, 2);
});
