// The slicing pipeline: models + settings → printer file. Pure: no I/O; progress and cancellation
// come in through SliceOptions. Stages: place → layer heights → cross-sections → walls → skins and
// infill → adhesion → plan → G-code.
import type { ModelInput, SliceOptions, SliceResult, Paths } from './types.js';
import { SliceError, throwIfAborted } from './types.js';
import type { SliceSettings } from './settings.js';
import { initGeometry } from './geom/clipper.js';
import { placeModels } from './setup/place.js';
import { layerSpecs } from './setup/layer-heights.js';
import { sliceMesh } from './layers/index.js';
import { wallsForLayer, fillForLayer, type IslandWalls, type LayerGeometry } from './regions/build.js';
import type { LayerRegions } from './regions/types.js';
import { skirt } from './adhesion/skirt.js';
import { brim } from './adhesion/brim.js';
import { planLayers } from './plan/index.js';
import { writeGcode } from './output/index.js';
import { ENGINE_VERSION } from './version.js';

/** Share of the progress bar each stage takes (roughly its share of the time). */
const STAGES = { slice: 0.1, walls: 0.25, fill: 0.35, plan: 0.15, output: 0.15 } as const;

export async function slice(models: ModelInput[], settings: SliceSettings, opts: SliceOptions = {}): Promise<SliceResult> {
  const { signal } = opts;
  const timings: Record<string, number> = {};
  const warnings: string[] = [];
  let done = 0;
  let lastReport = -1;
  const report = (stage: keyof typeof STAGES, fraction: number) => {
    const f = Math.min(0.999, done + STAGES[stage] * fraction);
    // report at most every 0.5 % so callers are not flooded
    if (f - lastReport >= 0.005) {
      lastReport = f;
      opts.onProgress?.(f, stage);
    }
  };
  const finishStage = (stage: keyof typeof STAGES, t0: number) => {
    timings[stage] = performance.now() - t0;
    done += STAGES[stage];
    report(stage, 0);
  };

  await initGeometry();
  throwIfAborted(signal);
  let t0 = performance.now();
  const { placed, bounds } = placeModels(models, settings);
  const specs = layerSpecs((bounds.max[2] - bounds.min[2]) * 1000, settings.firstLayerHeight, settings.layerHeight);
  const zs = specs.map((l) => l.sliceZ);
  const perModel: Paths[][] = placed.map((m) => sliceMesh(m.positions, m.indices, zs));
  throwIfAborted(signal);
  // drop trailing layers where nothing is left (a spike's tip)
  let count = specs.length;
  while (count > 0 && perModel.every((layers) => (layers[count - 1]?.length ?? 0) === 0)) count--;
  if (count === 0) throw new SliceError('the model has no printable cross-section (is it a closed solid?)', 'EMPTY');
  const geometry: LayerGeometry[] = specs.slice(0, count).map((l) => ({
    index: l.index,
    z: l.z,
    height: l.height,
    outlines: perModel.map((layers) => layers[l.index] ?? []),
  }));
  finishStage('slice', t0);

  t0 = performance.now();
  const walls: IslandWalls[][] = [];
  for (const g of geometry) {
    if ((g.index & 7) === 0) throwIfAborted(signal);
    walls.push(wallsForLayer(g, settings));
    report('walls', g.index / count);
  }
  finishStage('walls', t0);

  t0 = performance.now();
  const outlinesOf = (j: number) => geometry[j]?.outlines;
  const regions: LayerRegions[] = [];
  for (const g of geometry) {
    if ((g.index & 7) === 0) throwIfAborted(signal);
    regions.push(fillForLayer(g, walls[g.index], outlinesOf, settings));
    report('fill', g.index / count);
  }
  addAdhesion(regions, geometry, settings);
  finishStage('fill', t0);

  t0 = performance.now();
  const names = models.map((m) => m.name);
  const plans = planLayers(regions, settings, names, signal);
  finishStage('plan', t0);

  throwIfAborted(signal);
  t0 = performance.now();
  const written = writeGcode(plans, settings, { modelNames: names, generator: `Stratum ${ENGINE_VERSION}` });
  const output = new TextEncoder().encode(written.text);
  finishStage('output', t0);
  opts.onProgress?.(1, 'done');

  return {
    output,
    format: 'GCODE',
    stats: {
      layerCount: plans.length,
      printTimeS: written.stats.printTimeS,
      filamentMm: written.stats.filamentMm,
      filamentMm3: written.stats.filamentMm3,
      filamentG: written.stats.filamentG,
      bounds: written.stats.bounds,
      warnings,
      timings,
    },
  };
}

function addAdhesion(regions: LayerRegions[], geometry: LayerGeometry[], s: SliceSettings): void {
  if (regions.length === 0) return;
  const first = geometry[0].outlines.flat();
  const w = Math.round(s.firstLayerLineWidth * 1000);
  if (s.adhesionType === 'skirt') {
    regions[0].extras.push(
      ...skirt(first, {
        distance: Math.round(s.skirtDistance * 1000),
        loops: s.skirtLoops,
        minLength: Math.round(s.skirtMinLength * 1000),
        width: w,
      }),
    );
  } else if (s.adhesionType === 'brim') {
    regions[0].extras.push(...brim(first, s.brimWidth, w));
  }
}
