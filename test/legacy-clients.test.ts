// The scripted clients of every interface version (clients/*.ts), run as processes exactly as their
// usage line says, against the service started the way `npm start` starts it
// (`node dist/src/cli/main.js serve`) with a key made by `stratum keys create`.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { CUBE_STL, REPO_ROOT, STRATUM_BIN, removeDir, tempDir } from './api-helpers.js';

const dataDir = tempDir('legacy-clients');
const env = {
  ...process.env,
  PORT: '0',
  HOST: '127.0.0.1',
  STRATUM_DATA_DIR: dataDir,
  STRATUM_WORKERS: '1',
  STRATUM_LOG_LEVEL: 'info',
  STRATUM_SHUTDOWN_GRACE_S: '0',
};
const START_SCRIPT = join(REPO_ROOT, 'dist', 'src', 'cli', 'main.js');
let server: ChildProcess | undefined;
let root = '';
let key = '';

before(async () => {
  const made = spawnSync(process.execPath, [STRATUM_BIN, 'keys', 'create', '--name', 'clients'], { env, encoding: 'utf8' });
  assert.equal(made.status, 0, made.stderr);
  key = made.stdout.trim();
  assert.ok(key.length >= 20, `a key on stdout alone: ${JSON.stringify(made.stdout)}`);
  server = spawn(process.execPath, [START_SCRIPT, 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  server.stderr!.on('data', (c) => (stderr += c));
  root = await new Promise<string>((resolve, reject) => {
    server!.stdout!.on('data', (c) => {
      stdout += c;
      const m = /"url":"(http:\/\/[^"]+)".*"msg":"stratum is listening"/.exec(stdout);
      if (m) resolve(m[1]!);
    });
    server!.on('exit', () => reject(new Error(`serve exited early: ${stderr}`)));
  });
});

after(() => {
  server?.kill('SIGKILL');
  removeDir(dataDir);
});

/** Runs one client process to its end; resolves with its exit code and output. */
function runClient(file: string): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'dist', 'clients', file), root, key, CUBE_STL], { env: process.env });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

for (const [version, file] of [
  ['v0.3', 'v0_3-client.js'],
  ['v0.2', 'v0_2-client.js'],
  ['v0.1', 'v0_1-client.js'],
] as const) {
  test(`the ${version} client runs its whole flow against the started service`, { timeout: 180_000 }, async () => {
    const r = await runClient(file);
    assert.equal(r.code, 0, `client failed:\n${r.err}\n${r.out}`);
    // its last line sums the flow: the output it downloaded and the task it cancelled
    const last = r.out.trim().split('\n').at(-1) ?? '';
    assert.match(last, /^ok: \S+\.gcode \(\d+ bytes\)/, r.out);
    assert.match(last, /cancelled [0-9a-f-]{36}/, r.out);
  });
}
