// The service as a person runs it: `stratum serve` and `stratum keys` as processes on one data
// directory. A first start explains how to get a key; SIGTERM mid-slice exits promptly and the task
// resumes at the next start; SIGKILL mid-slice loses nothing: after a restart the task finishes
// and every file is still there.
import assert from 'node:assert/strict';
import { spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { after, test, type TestContext } from 'node:test';
import { formatInfo } from '../src/engine/output/index.js';
import {
  CUBE_STL,
  MEDIUM_OVERRIDES,
  STL_SETTINGS,
  STRATUM_BIN,
  call,
  exitOf,
  gcodeHeaderTotals,
  removeDir,
  serveEnv,
  startServeProcess,
  type ServeProcess,
  tempDir,
  upload,
  waitFor,
  waitForStatus,
} from './api-helpers.js';

const dataDir = tempDir('restart');
const env = serveEnv(dataDir, { STRATUM_AUTH_CACHE_S: '0.5' });
const running = new Set<ChildProcess>();
after(() => {
  for (const p of running) p.kill('SIGKILL');
  removeDir(dataDir);
});

async function serve(): Promise<ServeProcess> {
  const served = await startServeProcess(env);
  running.add(served.proc);
  void served.exit.then(() => running.delete(served.proc));
  return served;
}

/** What held a stopped server's process, when anything did (serve ends it all the same and says so). */
function reportHeld(tc: TestContext, s: ServeProcess): void {
  for (const line of s.stdout().split('\n')) if (line.includes('still open after shutdown')) tc.diagnostic(line);
}

function keys(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [STRATUM_BIN, 'keys', ...args], { env, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('serve and keys as processes: first start, SIGTERM and SIGKILL mid-slice, restart finishes the task', { timeout: 300_000 }, async (tc) => {
  // a first start on an empty data directory says how to get a key
  let s = await serve();
  await waitFor('the key hint', async () => s.stderr().includes('npx stratum keys create --name NAME'), 5000);

  // a key made by the CLI while the server runs works at once
  const created = keys('create', '--name', 'ci');
  assert.equal(created.status, 0, created.stderr);
  assert.match(created.stdout, /^[0-9a-f]{64}\n$/, 'the key alone on stdout');
  const key = created.stdout.trim();
  // a name is one short line: the list prints it in a table
  for (const bad of ['a\nb', 'x'.repeat(101)]) {
    const refused = keys('create', '--name', bad);
    assert.equal(refused.status, 1, refused.stderr);
    assert.match(refused.stderr, /one line without control characters|at most 100 characters/);
  }
  const listed = keys('list', '--json');
  const [record] = JSON.parse(listed.stdout);
  assert.equal(record.name, 'ci');
  assert.equal(record.keyHash, undefined, 'the list never shows secrets');
  let t = { url: s.url, key };

  const cube = readFileSync(CUBE_STL);
  const up = await upload(t, 'STL', 'cube.stl', cube);
  assert.equal(up.status, 200, up.text);
  const files = [{ fileId: up.body.fileId, type: 'STL', fileName: 'cube.stl' }];
  const start = await call(t.url, '/v1/stl/tasks', { key, json: { files, settings: { ...STL_SETTINGS, overrides: MEDIUM_OVERRIDES } } });
  const taskId = start.body.taskId;
  const runningTask = (minProgress: number) =>
    waitFor('the slice to run', async () => {
      const r = await call(t.url, `/v1/stl/tasks/${taskId}`, { key });
      return r.body.status === 'running' && r.body.progress > minProgress ? r.body : undefined;
    }, 20_000);

  // SIGTERM mid-slice: a prompt, clean exit; the task goes back to the queue
  await runningTask(0);
  const termAt = Date.now();
  s.proc.kill('SIGTERM');
  const termExit = await exitOf(s);
  assert.deepEqual(termExit, { code: 0, signal: null });
  reportHeld(tc, s);
  assert.ok(Date.now() - termAt < 5000, `exit took ${Date.now() - termAt} ms`);

  // restart: the task resumes; SIGKILL it mid-slice
  s = await serve();
  t = { url: s.url, key };
  await runningTask(0.01); // the engine itself reports progress
  const killedAt = new Date().toISOString();
  s.proc.kill('SIGKILL');
  assert.equal((await exitOf(s)).signal, 'SIGKILL');

  // restart again: the interrupted task runs once more and finishes
  s = await serve();
  t = { url: s.url, key };
  const done = await waitForStatus(t, 'stl', taskId, ['finished', 'failed'], 60_000);
  assert.equal(done.status, 'finished', JSON.stringify(done.error));
  assert.ok(done.startDate > killedAt, 'it started again after the kill');
  const gcode = (await call(t.url, `/v1/output/${done.output.outputId}/download`, { key })).text;
  const h = gcodeHeaderTotals(gcode);
  assert.deepEqual(formatInfo({ printTimeS: h.timeS, filamentMm: h.filamentM * 1000, filamentG: h.weightG }), done.info);
  assert.match(gcode, /^;Layer height: 0\.1$/m);
  const file = await call(t.url, `/v1/files/${up.body.fileId}`, { key });
  assert.equal(file.status, 200);
  assert.equal(file.body.size, cube.length, 'the upload survived both stops');

  // a key revoked by the CLI stops working on the running server (within the credential cache time)
  assert.equal(keys('revoke', record.id).status, 0);
  await waitFor('the revoked key to be refused', async () => (await call(t.url, '/v1/stl/tasks', { key })).status === 401, 3000);
  s.proc.kill('SIGTERM');
  assert.equal((await exitOf(s)).code, 0);
  reportHeld(tc, s);
});
