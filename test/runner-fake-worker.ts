// A stand-in slicing worker for the runner tests (no tests in here). It speaks the real worker's
// protocol, but its "model" file is a JSON script: how many progress steps and how long each,
// whether to crash (a thrown error, or the worker thread exiting) on the first N runs, or to fail
// with a user error. Every run is appended to `runLog`, so tests can count attempts.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import type { SliceJob, SliceJobResult } from '../src/runner/slice-job.js';
import { openBlobStore } from '../src/store/blob-store-factory.js';

export interface FakeScript {
  runLog: string;
  steps?: number;
  stepMs?: number;
  crashRuns?: number;
  crash?: 'exit' | 'throw';
  userError?: string;
  /** allocate until the worker's heap limit is hit */
  hog?: boolean;
  /** wait this long after the output is made before answering (a cancel can then come before the runner stores it) */
  afterOutputMs?: number;
  /** a file the worker thread writes 100 ms after it answered, from a timer (while it waits for its next task) */
  laterMark?: string;
}

export default async function fakeSlice(job: SliceJob): Promise<SliceJobResult> {
  const store = openBlobStore(job.blobs);
  const script = JSON.parse(Buffer.from(await store.read(job.model.blobKey)).toString('utf8')) as FakeScript;
  appendFileSync(script.runLog, `${job.taskId}\n`);
  const runs = readFileSync(script.runLog, 'utf8').split('\n').filter((l) => l === job.taskId).length;
  if (script.crashRuns && runs <= script.crashRuns) {
    if (script.crash === 'exit') process.exit(1);
    throw new Error('the fake worker broke');
  }
  if (script.hog) {
    const hoard: number[][] = [];
    for (;;) hoard.push(new Array(1_000_000).fill(hoard.length));
  }
  if (script.userError) return { ok: false, userError: true, message: script.userError };
  const steps = script.steps ?? 10;
  for (let i = 0; i < steps; i++) {
    await new Promise((r) => setTimeout(r, script.stepMs ?? 10));
    job.progressPort.postMessage({ fraction: (i + 1) / steps, stage: 'fake' });
  }
  const output = Buffer.from(`;FAKE ${job.taskId} run ${runs}\n`);
  if (script.afterOutputMs) await new Promise((r) => setTimeout(r, script.afterOutputMs));
  job.progressPort.close();
  if (script.laterMark) setTimeout(() => writeFileSync(script.laterMark!, 'ran'), 100);
  return {
    ok: true,
    format: 'GCODE',
    output,
    stats: { layerCount: steps, printTimeS: 3725, filamentMm: 1000, filamentG: 2.5, sliceMs: 1 },
    warnings: ['fake warning'],
  };
}
