// bin/stratum, the command the package installs: it runs bin/stratum.js, and for the commands that
// only touch local files it first drops NODE_EXTRA_CA_CERTS, which Node 20 reads and parses as it
// starts. What the command's process was given is seen from the outside through a module preloaded
// with NODE_OPTIONS (--require), which prints it on stderr: Node 22 reads the file only once TLS is
// used, so the warning Node 20 prints for a missing file at start cannot tell.
import { MODELS } from './shared-dir.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const root = fileURLToPath(new URL('../..', import.meta.url));
const launcher = join(root, 'bin', 'stratum');
const model = join(MODELS, 'holes_thin_wall.stl');

/** Environment under which a process says on stderr what NODE_EXTRA_CA_CERTS it was given (`extra-ca: …`). */
function reportingExtraCa(dir: string, value: string): Record<string, string> {
  const preload = join(dir, 'report-extra-ca.cjs');
  writeFileSync(preload, "process.stderr.write('extra-ca: ' + (process.env.NODE_EXTRA_CA_CERTS ?? 'unset') + '\\n');\n");
  return { NODE_EXTRA_CA_CERTS: value, NODE_OPTIONS: `--require ${preload}` };
}

function run(cmd: string, args: string[], env: Record<string, string | undefined>, cwd: string) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', cwd, timeout: 60_000, env: { ...process.env, ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('package.json installs bin/stratum as the stratum command', () => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { bin: Record<string, string> };
  assert.equal(pkg.bin.stratum, 'bin/stratum');
});

test('bin/stratum slices through npm-style symlinks without NODE_EXTRA_CA_CERTS, same G-code as node bin/stratum.js', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stratum-launcher-'));
  try {
    // node_modules/.bin/stratum → ../pkg/bin/stratum, itself reached through a second relative link
    mkdirSync(join(dir, 'pkg'));
    symlinkSync(join(root, 'bin'), join(dir, 'pkg', 'bin'));
    mkdirSync(join(dir, '.bin'));
    symlinkSync('../pkg/bin/stratum', join(dir, '.bin', 'stratum'));
    const missing = join(dir, 'no-such-bundle.pem');
    const viaLauncher = run(join(dir, '.bin', 'stratum'), ['slice', model, '-o', 'a.gcode', '--quiet'], reportingExtraCa(dir, missing), dir);
    assert.equal(viaLauncher.code, 0, viaLauncher.stderr);
    assert.match(viaLauncher.stderr, /^extra-ca: unset$/m);
    const direct = run(process.execPath, [join(root, 'bin', 'stratum.js'), 'slice', model, '-o', 'b.gcode', '--quiet'], {}, dir);
    assert.equal(direct.code, 0, direct.stderr);
    assert.deepEqual(readFileSync(join(dir, 'a.gcode')), readFileSync(join(dir, 'b.gcode')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bin/stratum keeps NODE_EXTRA_CA_CERTS for the commands that may open TLS connections', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stratum-launcher-'));
  try {
    const missing = join(dir, 'no-such-bundle.pem');
    const env = reportingExtraCa(dir, missing);
    // the commands themselves only print help
    for (const args of [['serve', '--help'], ['keys', '--help'], ['help']]) {
      const r = run(launcher, args, env, dir);
      assert.ok(r.stderr.split('\n').includes(`extra-ca: ${missing}`), `stratum ${args.join(' ')}: ${r.stderr}`);
    }
    // an offline command from the same launcher does not get it
    const printers = run(launcher, ['printers'], env, dir);
    assert.equal(printers.code, 0);
    assert.match(printers.stderr, /^extra-ca: unset$/m);
    assert.match(printers.stdout, /Creality Ender 3/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the V8 flags set by version: a longer wait before optimising on V8 11 and 12, none from V8 13', () => {
  const { versionFlags } = createRequire(import.meta.url)(join(root, 'bin', 'v8-flags.js')) as { versionFlags: (v8?: string) => string[] };
  assert.deepEqual(versionFlags('11.3.244.8-node.30'), ['--interrupt-budget=500000']); // Node 20
  assert.deepEqual(versionFlags('12.4.254.21-node.33'), ['--invocation-count-for-turbofan=11100']); // Node 22
  assert.deepEqual(versionFlags('13.6.233.17-node.53'), []); // Node 24
  assert.deepEqual(versionFlags('14.6.202.34-node.40'), []); // Node 26
});
