// The CommonJS front of the scripted stand-in worker (runner-fake-worker.ts), for the same reason the
// service's slicing threads load src/runner/slice-worker-entry.cjs: piscina require()s a worker file,
// and Node 20's require() of an ES module aborted a whole test process under load (`FATAL ERROR:
// v8::Module::IsGraphAsync must be used on an instantiated module`). No tests in here.
import type { SliceJob, SliceJobResult } from '../src/runner/slice-job.js';

type FakeModule = typeof import('./runner-fake-worker.js');

let loaded: Promise<FakeModule> | null = null;

export default async function fakeSliceFront(job: SliceJob): Promise<SliceJobResult> {
  return (await (loaded ??= import('./runner-fake-worker.js'))).default(job);
}
