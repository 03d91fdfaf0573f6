// The file piscina loads in each slicing thread: a CommonJS front for slice-worker.js.
//
// piscina first require()s a worker file and import()s it only when that fails. Since Node 20.19
// require() also loads ES modules, and in one CI run on Node 20.20 doing so for slice-worker.js
// aborted the whole process (`FATAL ERROR: v8::Module::IsGraphAsync must be used on an instantiated
// module`, from ModuleWrap::InstantiateSync under piscina's require). A CommonJS file is required
// without the ES module loader; it then loads the ES worker module once, by import(), as Node means
// ES modules to be loaded.
import type { SliceJob, SliceJobResult } from './slice-job.js';

type WorkerModule = typeof import('./slice-worker.js');

let loaded: Promise<WorkerModule> | null = null;
let failures = 0;
/**
 * The worker module, loaded once. A load that fails (its files replaced in place by a deployment)
 * is tried again on the next task, under a new URL (`?retry=n`): Node keeps a module that failed to
 * load as failed, and the thread would otherwise fail every task it is given for the rest of its life.
 */
const workerModule = (): Promise<WorkerModule> =>
  (loaded ??= (import(failures === 0 ? './slice-worker.js' : `./slice-worker.js?retry=${failures}`) as Promise<WorkerModule>).catch((err: unknown) => {
    loaded = null;
    failures++;
    throw err;
  }));

async function runSliceJob(job: SliceJob): Promise<SliceJobResult> {
  return (await workerModule()).default(job);
}

async function runWarmUp(): Promise<number> {
  return (await workerModule()).warmUp();
}

// The worker module starts loading as the thread starts, and the exports are promises of the
// handlers, which piscina awaits before it says the thread is ready: a task, and so a cancel that
// ends the thread, only comes once the ~130 module files are read. A thread ended while Node still
// read them left those files open until the process ended (about 40 descriptors a time, found by a
// soak run that cancelled tasks just after their thread was replaced). A failed load is not final:
// the handlers load it again (workerModule).
const preload = workerModule().catch(() => null);

// compiled to exports.default and exports.warmUp with the __esModule mark, which piscina reads as an
// ES module's exports: the default export for tasks, `warmUp` by name
export default preload.then(() => runSliceJob);
export const warmUp = preload.then(() => runWarmUp);
