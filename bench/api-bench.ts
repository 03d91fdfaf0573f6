// API benchmark on loopback: `stratum serve` runs as its own process with a fresh data directory,
// and this process loads it. Reports task reads per second when idle, read latency (p99) while the
// workers slice, and upload throughput to disk. Bars (issue 3): ≥ 5,000 reads/s idle, p99 ≤ 50 ms
// while slicing, uploads ≥ 200 MB/s.
//   node dist/bench/api-bench.js [--duration S] [--connections N] [--upload-mib N] [--uploads N]
import autocannon from 'autocannon';
import { createReadStream, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createKey, serviceEnv, startService } from './service-process.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SHARED = process.env.STRATUM_SHARED ?? join(ROOT, '..', 'shared');
const CUBE = join(SHARED, 'models', 'xyz_calibration_cube.stl');
/** settings that keep a worker busy for a few seconds per task */
const SLOW = { layerHeight: 0.05, firstLayerHeight: 0.1, infillDensity: 100, infillPattern: 'gyroid' };

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    'upload-mib': { type: 'string', default: '200' },
    uploads: { type: 'string', default: '3' },
    workers: { type: 'string' },
  },
});
const duration = Number(values.duration);
const connections = Number(values.connections);
const uploadMib = Number(values['upload-mib']);

const dataDir = mkdtempSync(join(tmpdir(), 'stratum-api-bench-'));
const env = serviceEnv(dataDir, {
  STRATUM_MAX_UPLOAD_BYTES: String(2 * 1024 ** 3),
  ...(values.workers ? { STRATUM_WORKERS: values.workers } : {}),
});

async function api(url: string, key: string, path: string, json?: unknown): Promise<any> {
  const res = await fetch(url + path, {
    method: json === undefined ? 'GET' : 'POST',
    headers: { 'Ocp-Apim-Subscription-Key': key, ...(json === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  return res.json();
}

async function waitStatus(url: string, key: string, id: string, statuses: string[]): Promise<any> {
  for (;;) {
    const t = await api(url, key, `/v1/stl/tasks/${id}`);
    if (statuses.includes(t.status)) return t;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Streams a file to the upload endpoint; seconds from first byte sent to the response. */
function uploadFile(url: string, key: string, file: string, size: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = request(`${url}/v1/upload/EXTRA/bench.bin`, {
      method: 'POST',
      headers: { 'Ocp-Apim-Subscription-Key': key, 'Content-Type': 'application/octet-stream', 'Content-Length': size },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve((performance.now() - t0) / 1000) : reject(new Error(`upload: ${res.statusCode}`))));
    });
    req.on('error', reject);
    createReadStream(file, { highWaterMark: 1024 * 1024 }).pipe(req);
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const key = createKey(env);
  // the upload source is written first, so its own write-back is over before uploads are timed
  const blob = join(dataDir, 'upload-source.bin');
  const size = uploadMib * 1024 * 1024;
  const chunk = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < chunk.length; i += 4) chunk.writeUInt32LE((i * 2654435761) >>> 0, i);
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(blob, Buffer.concat(Array.from({ length: uploadMib }, () => chunk)));
  const { url, stop } = await startService(env);
  try {
    // one finished task to read
    const upload = await fetch(`${url}/v1/upload/STL/cube.stl`, {
      method: 'POST',
      headers: { 'Ocp-Apim-Subscription-Key': key, 'Content-Type': 'application/octet-stream' },
      body: readFileSync(CUBE),
    }).then((r) => r.json() as Promise<{ fileId: string }>);
    const files = [{ fileId: upload.fileId, type: 'STL', fileName: 'cube.stl' }];
    const settings = { printerModel: 'Creality Ender 3', supportType: 'n', filamentPresetName: 'Generic_PLA' };
    const first = await api(url, key, '/v1/stl/tasks', { files, settings });
    await waitStatus(url, key, first.taskId, ['finished']);
    const target = { url: `${url}/v1/stl/tasks/${first.taskId}`, headers: { 'Ocp-Apim-Subscription-Key': key }, connections, duration };

    // a fresh server compiles its hot paths during the first thousands of requests: not measured
    await autocannon({ ...target, duration: 3 });
    process.stderr.write(`idle task reads: ${connections} connections, ${duration} s…\n`);
    const idle = await autocannon(target);
    // the same load on /healthz: what this machine's loopback and HTTP stack give at all right now
    process.stderr.write('reference: /healthz…\n');
    const ceiling = await autocannon({ url: `${url}/healthz`, connections, duration: Math.min(duration, 5) });

    // keep every worker slicing for the whole window: queue more slow tasks than can finish
    const slow = [];
    for (let i = 0; i < 8; i++) slow.push(await api(url, key, '/v1/stl/tasks', { files, settings: { ...settings, overrides: SLOW } }));
    await waitStatus(url, key, slow[0].taskId, ['running']);
    process.stderr.write('task reads while slicing…\n');
    const busy = await autocannon(target);
    const stillSlicing = (await api(url, key, `/v1/stl/tasks?limit=10`)).tasks.filter((t: any) => t.status === 'running').length;
    // queued ones first, so only the running slice's worker is stopped (and replaced)
    for (const t of [...slow].reverse()) await api(url, key, `/v1/stl/tasks/${t.taskId}/cancel`, {});
    await new Promise((r) => setTimeout(r, 1500)); // the replacement worker thread loads meanwhile

    const seconds: number[] = [];
    for (let i = 0; i < Number(values.uploads); i++) {
      process.stderr.write(`upload ${i + 1}: ${uploadMib} MiB…\n`);
      seconds.push(await uploadFile(url, key, blob, size));
    }
    rmSync(blob);

    const results = {
      idle: { readsPerS: Math.round(idle.requests.average), p50Ms: idle.latency.p50, p99Ms: idle.latency.p99, non2xx: idle.non2xx, errors: idle.errors },
      healthzPerS: Math.round(ceiling.requests.average),
      slicing: {
        readsPerS: Math.round(busy.requests.average),
        p50Ms: busy.latency.p50,
        p99Ms: busy.latency.p99,
        maxMs: busy.latency.max,
        non2xx: busy.non2xx,
        errors: busy.errors,
        tasksRunningAtEnd: stillSlicing,
      },
      upload: {
        mib: uploadMib,
        seconds: seconds.map((s) => Number(s.toFixed(3))),
        medianMBps: Math.round(size / 1e6 / median(seconds)),
        bestMBps: Math.round(size / 1e6 / Math.min(...seconds)),
      },
    };
    const bars = [
      ['task reads/s, idle', results.idle.readsPerS, '≥ 5000', results.idle.readsPerS >= 5000],
      ['p99 ms while slicing', results.slicing.p99Ms, '≤ 50', results.slicing.p99Ms <= 50],
      ['upload MB/s (median)', results.upload.medianMBps, '≥ 200', results.upload.medianMBps >= 200],
    ] as const;
    process.stdout.write(`\n${'figure'.padEnd(24)}${'value'.padStart(10)}  bar\n`);
    for (const [name, value, bar, ok] of bars) process.stdout.write(`${name.padEnd(24)}${String(value).padStart(10)}  ${bar} ${ok ? 'ok' : 'MISSED'}\n`);
    process.stdout.write(
      `\n/healthz on the same machine now: ${results.healthzPerS} req/s (the ceiling for any route)` +
        `\nidle: p50 ${results.idle.p50Ms} ms, p99 ${results.idle.p99Ms} ms; slicing: ${results.slicing.readsPerS} reads/s, p50 ${results.slicing.p50Ms} ms, ` +
        `max ${results.slicing.maxMs} ms (${results.slicing.tasksRunningAtEnd} slice(s) still running at the end); uploads ${results.upload.seconds.join(', ')} s\n`,
    );
    const outDir = join(ROOT, 'bench', 'out');
    mkdirSync(outDir, { recursive: true });
    writeFileSync(join(outDir, 'api-results.json'), `${JSON.stringify({ date: new Date().toISOString(), connections, duration, ...results }, null, 2)}\n`);
  } finally {
    await stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
