// A scripted v0.3 client, written from the interface (sections 2.2, 4.1, 4.2): raw upload, task
// start on /ws/tasks (which slices STL files too), reading the task with POST until it is finished,
// info and output on the task, download by output id (v0.3 keeps v1's download rule: repeatable),
// and the cancel of a running task.
//   node dist/clients/v0_3-client.js http://127.0.0.1:8080 KEY model.stl
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from './legacy-http.js';

export interface V03FlowOptions {
  model: string;
  printerModel?: string;
  filamentPresetName?: string;
  log?: (line: string) => void;
}

export interface V03Task {
  taskId: string;
  status: string;
  progress: number;
  info?: { time: string; length: string; weight: string };
  output?: { outputName: string; outputId: string; format: string };
  [key: string]: unknown;
}

export interface V03FlowReport {
  task: V03Task;
  output: Uint8Array;
  cancelled: V03Task;
}

export async function runV03Flow(serverRoot: string, key: string, opts: V03FlowOptions): Promise<V03FlowReport> {
  const base = `${serverRoot.replace(/\/$/, '')}/v0.3`;
  const log = opts.log ?? (() => undefined);
  const headers = { 'Ocp-Apim-Subscription-Key': key };
  const json = async (path: string, body?: unknown): Promise<V03Task> => {
    const res = await fetch(base + path, {
      method: 'POST',
      headers: body === undefined ? headers : { ...headers, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const parsed = await res.json();
    expect(res.status === 200, `${path}: HTTP ${res.status} ${JSON.stringify(parsed)}`);
    return parsed as V03Task;
  };

  const fileName = basename(opts.model);
  const up = await fetch(`${base}/upload/STL/${encodeURIComponent(fileName)}`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/octet-stream', 'Cache-Control': 'no-cache' },
    body: readFileSync(opts.model),
  });
  const file = (await up.json()) as { fileId: string; fileName: string; type: string };
  expect(up.status === 200 && file.type === 'STL', `upload: HTTP ${up.status} ${JSON.stringify(file)}`);
  log(`upload → ${JSON.stringify(file)}`);

  const settings = {
    printerModel: opts.printerModel ?? 'Creality Ender 3',
    supportType: 'n',
    filamentPresetName: opts.filamentPresetName ?? 'Createch_PLA',
  };
  const start = (over: Record<string, unknown> = {}) =>
    json('/ws/tasks', { files: [{ fileId: file.fileId, type: 'STL', fileName }], settings: { ...settings, ...over } });
  const queued = await start();
  expect(queued.status === 'queued' && queued.progress === 0, `start: ${JSON.stringify(queued)}`);
  log(`start → ${queued.taskId}`);

  const end = Date.now() + 120_000;
  let task = queued;
  while (task.status !== 'finished' && task.status !== 'failed' && task.status !== 'cancelled') {
    expect(Date.now() < end, `task ${task.taskId} did not end in time`);
    await new Promise((r) => setTimeout(r, 200));
    task = await json(`/ws/tasks/${task.taskId}`);
  }
  expect(task.status === 'finished' && task.progress === 1, `task ended ${task.status}: ${JSON.stringify(task.error)}`);
  expect(task.info && task.output, 'a finished task has info and output');
  log(`finished → ${JSON.stringify(task.info)} ${JSON.stringify(task.output)}`);

  const download = async () => {
    const res = await fetch(`${base}/output/${task.output!.outputId}/download`, { headers });
    expect(res.status === 200, `download: HTTP ${res.status}`);
    expect((res.headers.get('content-disposition') ?? '').includes(task.output!.outputName), 'Content-Disposition names the output');
    return new Uint8Array(await res.arrayBuffer());
  };
  const output = await download();
  const again = await download();
  expect(again.length === output.length, 'a v0.3 output can be downloaded again');

  const slow = await start({ qualityPresetName: 'Highquality', overrides: { infillDensity: 100, infillPattern: 'gyroid', layerHeight: 0.05 } });
  let running = slow;
  const runBy = Date.now() + 60_000;
  while (running.status === 'queued' || (running.status === 'started' && running.progress === 0)) {
    expect(Date.now() < runBy, 'the slow task did not start');
    await new Promise((r) => setTimeout(r, 50));
    running = await json(`/ws/tasks/${slow.taskId}`);
  }
  expect(running.status === 'started' || running.status === 'running', `the slow task is ${running.status} before the cancel`);
  const cancelled = await json(`/ws/tasks/${slow.taskId}/cancel`);
  expect(cancelled.status === 'cancelled', `cancel: ${cancelled.status}`);
  log(`cancel → ${cancelled.status}`);
  return { task, output, cancelled };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [root, key, model] = process.argv.slice(2);
  if (!root || !key || !model) {
    console.error('usage: node dist/clients/v0_3-client.js SERVER_ROOT KEY MODEL.stl');
    process.exit(2);
  }
  runV03Flow(root, key, { model, log: (l) => console.log(l) })
    .then((r) => console.log(`ok: ${r.task.output?.outputName} (${r.output.length} bytes), ${r.task.info?.time}, cancelled ${r.cancelled.taskId}`))
    .catch((err) => {
      console.error(String(err?.message ?? err));
      process.exit(1);
    });
}
