// The slicing workers' warm-up (src/runner/warm-up.ts): the built-in part is a proper closed solid
// whose slice goes through the stages a user's part does; `stratum serve` warms its worker before
// it opens the port; a worker that cannot warm up still slices.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { after, test } from 'node:test';
import pino from 'pino';
import { initGeometry, slice } from '../src/engine/index.js';
import { resolveSettings } from '../src/profiles/index.js';
import { warmUpMesh } from '../src/runner/warm-up.js';
import { EmbeddedRuntime } from '../src/service/embedded-runtime.js';
import type { TaskRecord } from '../src/service/model.js';
import { parseStartTask } from '../src/service/task-request.js';
import { signedVolume } from './mesh-fixtures.js';
import { exitOf, removeDir, serveEnv, startServeProcess, tempDir, testConfig, waitFor } from './api-helpers.js';

const dirs: string[] = [];
after(() => dirs.forEach(removeDir));

test('the warm-up part: five closed boxes, each edge met once each way, 1,296 mm³', () => {
  const mesh = warmUpMesh();
  assert.equal(mesh.indices.length, 5 * 12 * 3);
  const edges = new Map<string, number>();
  for (let t = 0; t < mesh.indices.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const key = `${mesh.indices[t + k]}>${mesh.indices[t + ((k + 1) % 3)]}`;
      edges.set(key, (edges.get(key) ?? 0) + 1);
    }
  }
  for (const [key, n] of edges) {
    const [a, b] = key.split('>');
    assert.equal(n, 1, `edge ${key} used ${n} times`);
    assert.equal(edges.get(`${b}>${a}`), 1, `edge ${key} has no opposite`);
  }
  // outward winding: positive volume (frame 20·20·3 − 8·8·3 = 1,008, block 12·12·2 = 288)
  assert.ok(Math.abs(signedVolume(mesh) - (1008 + 288)) < 1e-6, `volume ${signedVolume(mesh)}`);
});

test('its slice goes through walls, a hole, skins, a bridge, sparse infill and travel', async () => {
  await initGeometry();
  const { settings } = resolveSettings({});
  const r = await slice([{ name: 'warm-up', mesh: warmUpMesh() }], settings);
  const gcode = Buffer.from(r.output).toString('utf8');
  assert.equal(r.stats.layerCount, 25);
  for (const type of ['WALL-OUTER', 'WALL-INNER', 'SKIN', 'FILL', 'SKIRT']) {
    assert.ok(gcode.includes(`;TYPE:${type}\n`), `no ${type}`);
  }
  // the block's first layer spans the hole: bridge lines, marked inside its skin
  const layer15 = gcode.split(';LAYER:15\n')[1]!.split(';LAYER:16\n')[0]!;
  assert.match(layer15, /;TYPE:SKIN\n;BRIDGE\n/);
  // layer 8 (z 1.8, inside the frame): two outlines, the part's and the hole's, each an outer wall
  const layer8 = gcode.split(';LAYER:8\n')[1]!.split(';LAYER:9\n')[0]!;
  assert.equal(layer8.split(';TYPE:WALL-OUTER\n').length - 1, 2);
  assert.match(layer8, /^G0 .*X.*Y/m);
});

test('`stratum serve` warms its worker up before it listens', async () => {
  const dataDir = tempDir('warm-up');
  dirs.push(dataDir);
  const served = await startServeProcess(serveEnv(dataDir));
  try {
    const log = served.stdout().split('\n');
    const warmed = log.findIndex((l) => l.includes('"msg":"slicing workers warmed up"'));
    const listening = log.findIndex((l) => l.includes('"msg":"stratum is listening"'));
    assert.ok(warmed >= 0, `no warm-up line in:\n${served.stdout()}`);
    assert.ok(warmed < listening);
    const line = JSON.parse(log[warmed]!) as { workers: number; ms: number };
    assert.equal(line.workers, 1);
    assert.ok(line.ms > 0);
  } finally {
    served.proc.kill('SIGTERM');
    await exitOf(served);
  }
});

/** A runtime on the scripted stand-in worker `file`, warm-up on, its warnings collected. */
async function startWithWorker(file: string, limitMs?: number): Promise<{ rt: EmbeddedRuntime; logged: () => string; dir: string }> {
  const dir = tempDir('warm-up-worker');
  dirs.push(dir);
  let logged = '';
  const sink = new Writable({ write: (c, _e, done) => ((logged += c), done()) });
  const worker = new URL(file, import.meta.url).href;
  const rt = EmbeddedRuntime.open(testConfig(dir, { warmUp: true, logLevel: 'warn' }), pino({ level: 'warn' }, sink), {
    workerFile: worker,
    ...(limitMs ? { warmUpLimitMs: limitMs } : {}),
  });
  await rt.start();
  return { rt, logged: () => logged, dir };
}

/** A scripted task (runner-fake-worker.ts) through `rt`, to its end. */
async function scriptedTask(rt: EmbeddedRuntime, dir: string): Promise<TaskRecord> {
  const { account } = await rt.accounts.createKey('warm-up');
  const script = { steps: 2, stepMs: 5, runLog: join(dir, 'runs.log') };
  const file = await rt.files.upload(account.id, { type: 'STL', fileName: 'fake.stl' }, Readable.from([JSON.stringify(script)]));
  const task = await rt.tasks.start(account.id, 'stl', parseStartTask({ files: [{ fileId: file.id }], settings: { printerModel: 'Creality Ender 3' } }));
  return waitFor('the task to end', async () => {
    const t = await rt.stores.metadata.getTask(task.id);
    return t && t.status !== 'queued' && t.status !== 'started' && t.status !== 'running' ? t : undefined;
  });
}

test('a worker without a warm-up job: the failure is logged, and the runner starts and slices', async () => {
  const { rt, logged, dir } = await startWithWorker('./runner-fake-worker-entry.cjs');
  try {
    assert.match(logged(), /"level":40.*the warm-up slice failed/);
    assert.equal((await scriptedTask(rt, dir)).status, 'finished');
  } finally {
    await rt.close(0);
  }
});

test('a warm-up that never ends: the runner starts after the limit, on a fresh thread, and slices', async () => {
  const t0 = Date.now();
  const { rt, logged, dir } = await startWithWorker('./runner-stuck-warm-up-worker.js', 300);
  try {
    assert.ok(Date.now() - t0 < 10_000, `start took ${Date.now() - t0} ms`);
    assert.match(logged(), /"level":40.*the warm-up slice failed/);
    assert.equal((await scriptedTask(rt, dir)).status, 'finished');
  } finally {
    await rt.close(0);
  }
});

test('a worker thread that fails to start is logged; the service stays up and slices on a new thread', async () => {
  const dir = tempDir('broken-start');
  dirs.push(dir);
  const marker = join(dir, 'failed-once');
  process.env.STRATUM_TEST_BROKEN_START = marker;
  let logged = '';
  const sink = new Writable({ write: (c, _e, done) => ((logged += c), done()) });
  const rt = EmbeddedRuntime.open(testConfig(dir, { warmUp: false, logLevel: 'warn' }), pino({ level: 'warn' }, sink), {
    workerFile: new URL('./runner-broken-start-worker.js', import.meta.url).href,
  });
  try {
    await rt.start();
    // the pool starts its thread at once: wait for that thread to fail
    await waitFor('the failed start to be logged', async () => existsSync(marker) && logged.includes('a slicing worker thread failed to start'));
    assert.match(logged, /"level":50.*this worker thread fails to start/);
    assert.equal((await scriptedTask(rt, dir)).status, 'finished');
  } finally {
    delete process.env.STRATUM_TEST_BROKEN_START;
    await rt.close(0);
  }
});

