// A stand-in slicing worker for the runner tests (no tests in here). It speaks the real worker's
// protocol, but its "model" file is a JSON script: how many progress steps and how long each,
// whether to crash (a thrown error, or the worker thread exiting) on the first N runs, or to fail
// with a user error. Every run is appended to `runLog`, so tests can count attempts.
import { threadId } from 'node:worker_threads';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { isStopRequest, type SliceJob, type SliceJobResult } from '../src/runner/slice-job.js';
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
  /** a file each run appends its worker thread's id to */
  threadLog?: string;
  /** go on through the runner's stop request (a thread stuck in a long step), so it must be ended */
  ignoreStop?: boolean;
  /** a file the worker thread writes 100 ms after it answered, from a timer (while it waits for its next task) */
  laterMark?: string;
}

export default async function fakeSlice(job: SliceJob): Promise<SliceJobResult> {
  const store = openBlobStore(job.blobs);
  const script = JSON.parse(Buffer.from(await store.read(job.model.blobKey)).toString('utf8')) as FakeScript;
  appendFileSync(script.runLog, `${job.taskId}\n`);
  if (script.threadLog) appendFileSync(script.threadLog, `${threadId}\n`);
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
  // a stop request is honoured between steps, as the engine does between layers (unless told not to)
  let stopAsked = false;
  if (!script.ignoreStop) job.progressPort.on('message', (m: unknown) => (stopAsked ||= isStopRequest(m)));
  for (let i = 0; i < steps; i++) {
    await new Promise((r) => setTimeout(r, script.stepMs ?? 10));
    if (stopAsked) {
      job.progressPort.close();
      return { ok: false, userError: false, message: 'SliceCancelled: stopped' };
    }
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
