// How fast the service gives a task back: a running embedded service (`stratum serve`), the model
// uploaded, then for each task the time from POST /v1/stl/tasks to the printer file downloaded, the
// task followed by its server-sent events. What a client of the service waits for, on a server
// that is already up (its slicing worker warmed up as it started). A model's first task still runs
// some code for the first time (a large one also starts its layer threads), so it is reported on
// its own, and the figure is the median of the tasks after it.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { median } from './measure.js';
import { createKey, serviceEnv, startService } from './service-process.js';

export interface Turnaround {
  /** the model's first task, s (code run for the first time and layer threads started included) */
  firstS: number;
  /** median of the tasks after it, s */
  warmS: number | null;
  runsS: number[];
  outputBytes: number;
}

export type TurnaroundFigures = Record<string, Turnaround | { error: string }>;

const SETTINGS = { printerModel: 'Creality Ender 3', supportType: 'n' };

/** `runs` timed tasks per model after its first; models by path, figures by file name. */
export async function measureTurnaround(models: string[], runs: number): Promise<TurnaroundFigures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'stratum-turnaround-'));
  const env = serviceEnv(dataDir);
  const key = createKey(env);
  const service = await startService(env);
  const headers = { 'Ocp-Apim-Subscription-Key': key };
  const figures: TurnaroundFigures = {};
  try {
    for (const model of models) {
      const name = basename(model);
      try {
        const upload = await fetch(`${service.url}/v1/upload/STL/${encodeURIComponent(name)}`, {
          method: 'POST',
          headers: { ...headers, 'Content-Type': 'application/octet-stream' },
          body: readFileSync(model),
        });
        if (upload.status !== 200) throw new Error(`upload: HTTP ${upload.status}`);
        const { fileId } = (await upload.json()) as { fileId: string };
        const files = [{ fileId, type: 'STL', fileName: name }];
        const first = await oneTask(service.url, headers, files);
        const timed: number[] = [];
        for (let r = 0; r < runs; r++) timed.push((await oneTask(service.url, headers, files)).seconds);
        figures[name] = { firstS: first.seconds, warmS: median(timed), runsS: timed, outputBytes: first.bytes };
      } catch (err) {
        figures[name] = { error: err instanceof Error ? err.message : String(err) };
      }
    }
  } finally {
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return figures;
}

/** One task from POST to downloaded output: seconds and the output's size. */
async function oneTask(url: string, headers: Record<string, string>, files: unknown[]): Promise<{ seconds: number; bytes: number }> {
  const t0 = performance.now();
  const created = await fetch(`${url}/v1/stl/tasks`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify({ files, settings: SETTINGS }),
  });
  if (created.status !== 200) throw new Error(`task: HTTP ${created.status} ${await created.text()}`);
  const { taskId } = (await created.json()) as { taskId: string };
  // the stream sends the task on every change and ends when the task does
  const events = await (await fetch(`${url}/v1/stl/tasks/${taskId}/events`, { headers })).text();
  const data = [...events.matchAll(/^data: (.*)$/gm)].at(-1)?.[1];
  const task = data ? (JSON.parse(data) as { status: string; output?: { outputId: string }; error?: { message: string } }) : null;
  if (task?.status !== 'finished' || !task.output) throw new Error(`task ${task?.status ?? 'without events'}: ${task?.error?.message ?? ''}`);
  const download = await fetch(`${url}/v1/output/${task.output.outputId}/download`, { headers });
  const bytes = (await download.arrayBuffer()).byteLength;
  if (download.status !== 200 || bytes === 0) throw new Error(`download: HTTP ${download.status}, ${bytes} bytes`);
  return { seconds: (performance.now() - t0) / 1000, bytes };
}
