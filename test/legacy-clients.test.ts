// The scripted clients of every interface version (clients/*.ts), run as processes exactly as their
// usage line says, against the service started the way `npm start` starts it
// (`node dist/src/cli/main.js serve`) with a key made by `stratum keys create`.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { CUBE_STL, REPO_ROOT, STRATUM_BIN, removeDir, serveEnv, startServeProcess, tempDir } from './api-helpers.js';

const dataDir = tempDir('legacy-clients');
const env = serveEnv(dataDir);
const START_SCRIPT = join(REPO_ROOT, 'dist', 'src', 'cli', 'main.js');
let server: ChildProcess | undefined;
let root = '';
let key = '';

before(async () => {
  const made = spawnSync(process.execPath, [STRATUM_BIN, 'keys', 'create', '--name', 'clients'], { env, encoding: 'utf8' });
  assert.equal(made.status, 0, made.stderr);
  key = made.stdout.trim();
  assert.ok(key.length >= 20, `a key on stdout alone: ${JSON.stringify(made.stdout)}`);
  const served = await startServeProcess(env, START_SCRIPT);
  server = served.proc;
  root = served.url;
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

test('v0.2 UploadFile refuses a file name that is not a model while the client still sends the file, and the client gets the answer every time', { timeout: 120_000 }, async () => {
  // against a server in its own process (in one process the client's writes and the refusal
  // interleave differently): 5 of 15 such uploads got `fetch failed: write EPIPE` when the server
  // closed the connection with the rest of the body unread
  const failures: string[] = [];
  for (const size of [200, 200_000, 2_000_000]) {
    for (let i = 0; i < 8; i++) {
      const form = new FormData();
      form.append('FileName', 'notes.txt');
      form.append('file', new Blob([new Uint8Array(size)]), 'notes.txt');
      try {
        const res = await fetch(`${root}/v0.2/UploadFile`, { method: 'POST', headers: { 'Ocp-Apim-Subscription-Key': key }, body: form });
        const body = (await res.json()) as { error?: { errorCode?: string } };
        if (res.status !== 400 || body.error?.errorCode !== 'URE000') failures.push(`${size} B: ${res.status} ${JSON.stringify(body)}`);
      } catch (err) {
        const e = err as Error & { cause?: { code?: string } };
        failures.push(`${size} B: ${e.message} ${e.cause?.code ?? ''}`);
      }
    }
  }
  assert.deepEqual(failures, []);
});
