// The slicing worker (a piscina worker thread): reads the task's input from the blob store, parses
// it, resolves the settings, slices with progress posted back and returns the printer file with its
// totals; the runner stores the file (slice-job.ts: SliceJobResult). The engine itself does no I/O;
// this file is its I/O edge, and it only reads.
import { initGeometry, slice, withReadWarnings } from '../engine/index.js';
import { parseModel, parseModelParts } from '../engine/mesh/index.js';
import { throwIfAborted, type ModelInput } from '../engine/types.js';
import { resolveSettings } from '../profiles/index.js';
import { loadWorkspace } from '../service/workspace/load-workspace.js';
import { checkModelsOnBed } from '../service/workspace/on-bed.js';
import type { WorkspaceModel } from '../service/workspace/read-workspace.js';
import { openBlobStore } from '../store/blob-store-factory.js';
import { BlobNotFoundError, type BlobStore } from '../service/ports.js';
import { LayerPool } from './layer-pool.js';
import { warmUpSlices } from './warm-up.js';
import { USER_ERROR_NAMES, isStopRequest, type ProgressMessage, type SliceJob, type SliceJobResult } from './slice-job.js';

const stores = new Map<string, BlobStore>();
/** this worker's layer threads (they start on first use, and stay for a while after: layer-pool.ts) */
let layerPool: LayerPool | null = null;

function layerPoolFor(threads: number, keepIdleMs: number): LayerPool | null {
  if (threads <= 1) return null;
  if (layerPool?.size !== threads || layerPool.keepIdleMs !== keepIdleMs) {
    layerPool?.terminate();
    layerPool = new LayerPool(threads, keepIdleMs);
  }
  return layerPool;
}

class InputMissingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputMissingError';
  }
}

function storeFor(job: SliceJob): BlobStore {
  const key = JSON.stringify(job.blobs);
  let store = stores.get(key);
  if (!store) {
    store = openBlobStore(job.blobs);
    stores.set(key, store);
  }
  return store;
}

async function readInput(store: BlobStore, key: string, what: string): Promise<Uint8Array> {
  try {
    return await store.read(key);
  } catch (err) {
    if (err instanceof BlobNotFoundError) throw new InputMissingError(`${what} is no longer stored (deleted or expired)`);
    throw err;
  }
}

/**
 * The slice's stop signal: aborted by the runner's StopRequest message, which arrives only where the
 * slice yields, and `aborted` also as soon as the shared stop flag is set, which code that does not
 * yield reads in its own checks (the support pass). Listeners (the layer pool's) hear the message.
 */
export function stopSignalFor(job: Pick<SliceJob, 'progressPort' | 'stopFlag'>): AbortSignal {
  const stop = new AbortController();
  job.progressPort.on('message', (m: unknown) => {
    if (isStopRequest(m)) stop.abort();
  });
  const signal = stop.signal;
  return new Proxy(signal, {
    get(target, key) {
      if (key === 'aborted') return target.aborted || Atomics.load(job.stopFlag, 0) === 1;
      const v = Reflect.get(target, key, target) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

/** Posts progress at most every 100 ms or 1 %, and on every stage change. */
function progressPoster(job: SliceJob): (fraction: number, stage: string) => void {
  let lastFraction = -1;
  let lastStage = '';
  let lastTime = 0;
  return (fraction, stage) => {
    const now = Date.now();
    if (stage === lastStage && (fraction - lastFraction < 0.01 || now - lastTime < 100)) return;
    lastFraction = fraction;
    lastStage = stage;
    lastTime = now;
    const msg: ProgressMessage = { fraction, stage };
    job.progressPort.postMessage(msg);
  };
}

/** A model parser, with the file's name in the message so the user knows which upload is wrong */
function parseNamed<T>(bytes: Uint8Array, fileName: string, parse: (bytes: Uint8Array, fileName: string) => T): T {
  try {
    return parse(bytes, fileName);
  } catch (err) {
    const e = err as Error;
    if (e?.message && !e.message.includes(fileName)) e.message = `${fileName}: ${e.message}`;
    throw err;
  }
}

/** The runner's warm-up job (warm-up.ts): ms taken. */
export async function warmUp(): Promise<number> {
  await initGeometry();
  return warmUpSlices();
}

export default async function runSliceJob(job: SliceJob): Promise<SliceJobResult> {
  const t0 = performance.now();
  // a cancel or timeout is asked for (stopSignalFor) and acted on at the engine's next check: the
  // thread stays (warm) and closes what it opened; the runner ends it only if it does not answer in
  // time (RunnerOptions.stopGraceMs)
  const stop = stopSignalFor(job);
  try {
    await initGeometry();
    const store = storeFor(job);
    const post = progressPoster(job);
    // the task shows as running from the moment a worker reads its input
    post(0, 'reading input');
    const warnings: string[] = [];
    const bytes = await readInput(store, job.model.blobKey, `input file '${job.model.fileName}'`);
    throwIfAborted(stop);
    let models: ModelInput[];
    let placed: WorkspaceModel[] = [];
    if (job.kind === 'ws') {
      const read = (key: string, what: string) => readInput(store, key, what);
      const ws = await loadWorkspace(bytes, job.model.fileName, job.request.pointClouds ?? [], job.request.filament, read);
      models = ws.models;
      placed = ws.placed;
      warnings.push(...ws.warnings);
    } else {
      if (job.request.transform) {
        // a legacy placement moves the file's contents as one body
        const parsed = parseNamed(bytes, job.model.fileName, parseModel);
        models = [{ name: job.model.fileName, mesh: parsed.mesh, transform: job.request.transform }];
        warnings.push(...parsed.warnings);
      } else {
        // a plate of several objects (3MF build items) prints them as models of their own
        const parsed = parseNamed(bytes, job.model.fileName, parseModelParts);
        models = parsed.parts;
        warnings.push(...parsed.warnings);
      }
    }
    const xml = job.request.xmlBlobKey
      ? Buffer.from(await readInput(store, job.request.xmlBlobKey, 'the XML configuration')).toString('utf8')
      : undefined;
    throwIfAborted(stop);
    const resolved = resolveSettings({
      printer: job.request.printer,
      filament: job.request.filament,
      quality: job.request.quality,
      overrides: job.request.overrides,
      xml,
    });
    // what reading the files said, before the settings add theirs: a failed slice repeats it
    const readWarnings = [...warnings];
    warnings.push(...resolved.warnings);
    checkModelsOnBed(placed, resolved.settings);

    const pool = layerPoolFor(job.layerThreads, job.layerThreadsIdleMs);
    const result = await slice(models, resolved.settings, {
      onProgress: post,
      signal: stop,
      ...(pool ? { executor: pool.executor } : {}),
      ...(job.maxToolpathBytes > 0 ? { maxToolpathBytes: job.maxToolpathBytes } : {}),
    }).catch(
      (err: unknown) => {
        throw withReadWarnings(err, readWarnings);
      },
    );
    warnings.push(...result.stats.warnings);
    const s = result.stats;
    return {
      ok: true,
      format: result.format,
      output: result.output,
      stats: {
        layerCount: s.layerCount,
        printTimeS: s.printTimeS,
        filamentMm: s.filamentMm,
        filamentG: s.filamentG,
        sliceMs: Math.round(performance.now() - t0),
      },
      warnings,
    };
  } catch (err) {
    const e = err as Error;
    const userError = USER_ERROR_NAMES.includes(e?.name);
    return { ok: false, userError, message: userError ? e.message : `${e?.name ?? 'Error'}: ${e?.message ?? String(err)}` };
  } finally {
    job.progressPort.close();
  }
}
