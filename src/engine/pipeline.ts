// The slicing pipeline: models + settings → printer file. Pure: no I/O; progress and cancellation
// come in through SliceOptions. Stages: place → layer heights (raft layers first) → support pass
// (whole-job support areas and the raft's outline, only when asked for) → per layer batch
// (cross-sections → walls → skins and infill → adhesion, raft and support paths → plan) → G-code. Batches run on other threads when the caller
// passes an executor (src/runner/layer-pool.ts), else here, one after the other.
import type { ModelInput, SliceOptions, SliceResult, SliceStats } from './types.js';
import { SliceError, throwIfAborted } from './types.js';
import type { SliceSettings } from './settings.js';
import { initGeometry } from './geom/clipper.js';
import { checkPrintOnBed, placeModels } from './setup/place.js';
import { layerSpecs } from './setup/layer-heights.js';
import { CHUNK_LAYERS, batchPlanes, runLayerBatchYielding, splitLayers, type BatchModel, type LayerBatch, type LayerExecutor } from './batch.js';
import { addPrintedModels, encodePlans, packedPlanSource, type EncodedPlans } from './plan/codec.js';
import type { LayerPlan } from './plan/types.js';
import { writeGcodeSteps } from './output/gcode-writer.js';
import { ToolpathBudget } from './plan/toolpath-budget.js';
import { toOutputFormat } from './output/output-format.js';
import { ENGINE_VERSION } from './version.js';
import { raftHeights } from './adhesion/raft.js';
import { supportPrepassSteps, type Prepass } from './support/prepass.js';
import { YIELD_AFTER_MS, paced, runYielding } from './steps.js';
import { crossSectionVertices } from './setup/work-estimate.js';
import { trianglesPerRange } from './layers/index.js';
import { commentSafe } from './output/comment-text.js';
import { uncoveredWarnings, type UncoveredSpan } from './regions/cloud-cover.js';

export interface PipelineOptions extends SliceOptions {
  /** runs layer batches on other threads; without one, batches run in this thread */
  executor?: LayerExecutor;
  /** how many batches to cut the layers of a job for threads into (default BATCHES), whether or not an
   *  executor runs them: the first layer of each is planned from an unknown nozzle position */
  batches?: number;
  /**
   * estimated cross-section vertices (setup/work-estimate.ts) below which the layers stay on this
   * thread even with an executor (default MIN_VERTICES_FOR_THREADS; 0: any job of enough layers)
   */
  minVerticesForThreads?: number;
}

/** Below this many layers, threads cost more than they save (measured: 3DBenchy, 240 layers, is faster
 * on one thread; the bunny, 771 layers, 1.4× faster on two). */
const MIN_LAYERS_FOR_THREADS = 300;
/**
 * Nor do they below this much layer work, however many layers: threads started for the slice (the
 * CLI's always are; the service's when none were kept from an earlier one) run cold code.
 * tall_thin_wedge (979 layers, ~6,000 estimated vertices) came back from the service in 0.98–1.3 s
 * on two fresh layer threads and 0.21–0.24 s on one; the bunny (~400,000) gains from them.
 */
export const MIN_VERTICES_FOR_THREADS = 100_000;
/** Batches a job for threads is cut into: small batches balance the threads and bound what each holds
 *  at once; each costs a retraction where it starts. */
const BATCHES = 16;
/** Share of the progress bar the layer work takes; the rest is G-code output. */
const LAYER_SHARE = 0.85;
/** Where the writer's part of the bar ends; the rest is the printer format (FCode's encoding). */
const OUTPUT_BEFORE_FORMAT = 0.97;
/** Share of the layer part of the bar the support pass takes when there is one. */
const SUPPORT_SHARE = 0.1;

export async function slice(models: ModelInput[], settings: SliceSettings, opts: PipelineOptions = {}): Promise<SliceResult> {
  const { signal } = opts;
  const timings: Record<string, number> = {};
  const warnings: string[] = [];
  await initGeometry();
  throwIfAborted(signal);
  let t0 = performance.now();
  const { placed, bounds, warnings: placing } = placeModels(models, settings);
  warnings.push(...placing);
  const raft = raftHeights(settings);
  const specs = layerSpecs(
    Math.round((bounds.max[2] - bounds.min[2]) * 1000), // whole µm, as the placed vertices' z
    settings.firstLayerHeight,
    settings.layerHeight,
    raft.length > 0 ? { heights: raft, airGap: Math.round(settings.raftAirGap * 1000) } : undefined,
  );
  // names go into `;MESH:` comments: one line each, whatever the file or workspace called them
  const names = distinctNames(models.map((m) => commentSafe(m.name)));
  const batchModels: BatchModel[] = placed.map((m) => {
    const bm: BatchModel = { positions: m.positions, indices: m.indices };
    if (m.role) bm.role = m.role;
    if (m.modifier) bm.modifier = m.modifier;
    if (m.field) bm.field = m.field;
    return bm;
  });
  timings.place = performance.now() - t0;

  // support and rafts look at the whole job: their areas are found before the batches run
  let prepass: Prepass | undefined;
  if (settings.supportType !== 'none' || raft.length > 0) {
    t0 = performance.now();
    // on the main thread (the CLI) it gives the event loop a turn now and then, as the layers do, so
    // that Ctrl-C is seen: the Stanford bunny's support took 3–5 s
    const steps = supportPrepassSteps(batchModels, specs, settings, signal, (f) => opts.onProgress?.(LAYER_SHARE * SUPPORT_SHARE * f, 'support'));
    prepass = await runYielding(paced(steps, YIELD_AFTER_MS), signal);
    timings.support = performance.now() - t0;
  }

  let layersDone = 0;
  let lastReported = -1;
  const onLayer = (layers: number) => {
    layersDone += layers;
    // the shares of a layer's steps add up to 1 give or take a rounding
    const all = layersDone >= specs.length * (1 - 1e-9) - 1e-6;
    const before = prepass ? SUPPORT_SHARE : 0;
    const f = LAYER_SHARE * (before + ((1 - before) * (all ? specs.length : layersDone)) / specs.length);
    // at least every half per cent, and the end of the layers whatever came before it
    if (f - lastReported >= 0.005 || (all && f > lastReported)) {
      lastReported = f;
      opts.onProgress?.(f, 'layers');
    }
  };
  const batch = (from: number, to: number, restarts: number[] = []): LayerBatch => {
    const b: LayerBatch = { models: batchModels, modelNames: names, specs, from, to, settings };
    if (restarts.length > 0) b.restarts = restarts;
    if (opts.maxToolpathBytes !== undefined) b.maxToolpathBytes = opts.maxToolpathBytes;
    if (prepass?.raft) b.raft = prepass.raft;
    if (prepass && prepass.support.some((l, i) => l !== undefined && i >= from && i < to)) b.support = prepass.support.slice(from, to);
    return b;
  };

  t0 = performance.now();
  // plans stay packed until the writer decodes them, one layer at a time
  const packed: EncodedPlans[] = [];
  const uncovered: UncoveredSpan[] = [];
  const budget = new ToolpathBudget(opts.maxToolpathBytes);
  const minWork = opts.minVerticesForThreads ?? MIN_VERTICES_FOR_THREADS;
  const forThreads = specs.length >= MIN_LAYERS_FOR_THREADS && layerWork(batchModels, settings) >= minWork;
  // A batch does not know where the layer before it ended, so its first layer is planned from an
  // unknown nozzle position. The job alone sets where batches start, not how many threads run them:
  // its G-code is the same on one thread, on many, or on this one (the service's and the CLI's
  // thread counts follow the machine's cores).
  const ranges = forThreads ? splitLayers(specs.length, opts.batches ?? BATCHES) : [[0, specs.length] as [number, number]];
  const restarts = ranges.slice(1).map(([from]) => from);
  if (opts.executor && forThreads) {
    // one thread: the layers as one batch, cut in one sweep (batches each cut their neighbours' layers
    // too, which only pays when threads run them side by side), starting afresh where the batches would
    const batches = opts.executor.threads === 1 ? [batch(0, specs.length, restarts)] : ranges.map(([a, b]) => batch(a, b));
    shareTriangles(batches, settings);
    const results = await opts.executor(batches, onLayer, signal, (r) => r.encoded.forEach((e) => budget.addPacked(e)));
    results.sort((a, b) => a.from - b.from);
    for (const r of results) {
      packed.push(...r.encoded);
      mergeTimings(timings, r.timings);
      if (r.uncovered) uncovered.push(...r.uncovered);
    }
    results.length = 0;
  } else {
    // one batch (the cross-sections of all layers come from one sweep), its plans packed chunk by chunk
    const onChunk = (plans: LayerPlan[]) => {
      const e = encodePlans(plans);
      packed.push(e);
      budget.addPacked(e);
    };
    const all = batch(0, specs.length, restarts);
    if (prepass?.sections) {
      all.sections = prepass.sections;
      prepass.sections = undefined;
    }
    const r = await runLayerBatchYielding(all, onLayer, signal, { onChunk, chunkLayers: CHUNK_LAYERS });
    mergeTimings(timings, r.timings);
    if (r.uncovered) uncovered.push(...r.uncovered);
  }
  timings.layers = performance.now() - t0;
  warnings.push(...uncoveredWarnings(uncovered, names, (i) => specs[i]!.z / 1000));
  warnings.push(...checkSomethingPrinted(packed, models, names));
  // a spike's tip leaves empty layers at the top: the source drops them
  const plans = packedPlanSource(packed);
  packed.length = 0; // the source lets each part go once the writer is past it
  const toolpathBytes = budget.addOutput(plans.opCount);

  throwIfAborted(signal);
  t0 = performance.now();
  let lastWritten = 0;
  // it too gives the event loop turns on the main thread (the bunny at 0.06 mm: 1 s of writing)
  const writing = writeGcodeSteps(plans, settings, { modelNames: names, generator: `Stratum ${ENGINE_VERSION}` }, {
    ...(signal ? { signal } : {}),
    onProgress: (f) => {
      if (f - lastWritten < 0.03) return;
      lastWritten = f;
      opts.onProgress?.(LAYER_SHARE + (1 - LAYER_SHARE) * f * OUTPUT_BEFORE_FORMAT, 'output');
    },
  });
  const written = await runYielding(paced(writing, YIELD_AFTER_MS), signal);
  timings.output = performance.now() - t0;
  checkPrintOnBed(written.stats.bounds, settings, written.stats.bedReach);
  warnings.push(...written.stats.warnings);
  const stats: SliceStats = {
    layerCount: plans.length,
    printTimeS: written.stats.printTimeS,
    filamentMm: written.stats.filamentMm,
    filamentMm3: written.stats.filamentMm3,
    filamentG: written.stats.filamentG,
    bounds: written.stats.bounds,
    warnings,
    timings,
    toolpathBytes,
  };
  throwIfAborted(signal);
  const { output, format } = toOutputFormat(written.output, settings, stats);
  opts.onProgress?.(1, 'done');
  return { output, format, stats };
}

/**
 * A job must print some of its models: a skirt, brim, raft or support alone is no print (a model
 * thinner than a line gave a skirt-only file, exit 0). Throws when no model prints anything; a
 * warning names each model of several that prints nothing.
 */
function checkSomethingPrinted(packed: readonly EncodedPlans[], models: readonly ModelInput[], names: readonly string[]): string[] {
  const printed = new Set<number>();
  for (const e of packed) addPrintedModels(e, printed);
  const own = models.map((m, i) => i).filter((i) => models[i]!.role !== 'modifier');
  if (printed.size === 0) {
    const what =
      own.length === 1
        ? 'the model has no printable cross-section (is it a closed solid, thick enough to print?)'
        : `none of the ${own.length} models has a printable cross-section (are they closed solids, thick enough to print?)`;
    throw new SliceError(what, 'EMPTY');
  }
  return own
    .filter((i) => !printed.has(i))
    .map((i) => `model '${names[i]}' has no printable cross-section (is it a closed solid, thick enough to print?): nothing of it is printed`);
}

/**
 * Gives each batch's models the triangles that meet the batch's planes, so a batch no longer passes
 * over the whole of every mesh (a 2-million-triangle mesh: 16 such passes, each with its own
 * per-triangle arrays). The batches' plans are the same with or without.
 */
function shareTriangles(batches: LayerBatch[], s: SliceSettings): void {
  if (batches.length < 2) return;
  const { specs, models } = batches[0];
  const zs = specs.map((l) => l.sliceZ);
  const planes = batches.map((b) => batchPlanes(b.from, b.to, specs.length, s));
  const shares = models.map((m) => trianglesPerRange(m.positions, m.indices, zs, planes));
  batches.forEach((b, k) => {
    b.models = models.map((m, i) => ({ ...m, triangles: shares[i][k] }));
  });
}

/** The printed models' estimated cross-section vertices (positions are placed, in µm). */
function layerWork(models: BatchModel[], s: SliceSettings): number {
  let sum = 0;
  for (const m of models) if (m.role !== 'modifier') sum += crossSectionVertices(m.positions, m.indices, s.layerHeight * 1000);
  return sum;
}

function mergeTimings(into: Record<string, number>, from: Record<string, number>): void {
  for (const [k, v] of Object.entries(from)) into[k] = (into[k] ?? 0) + v;
}

/**
 * Names as `;MESH:` comments give them, one per model: a name given twice gets ` (2)`, ` (3)`… from
 * its second use on, so that a client mapping comments back to its models can tell them apart.
 */
export function distinctNames(names: readonly string[]): string[] {
  const used = new Set(names);
  const seen = new Set<string>();
  return names.map((name) => {
    if (!seen.has(name)) {
      seen.add(name);
      return name;
    }
    let k = 2;
    while (used.has(`${name} (${k})`)) k++;
    const unique = `${name} (${k})`;
    used.add(unique);
    return unique;
  });
}
