// The whole-job pass that support and rafts need before the layer batches run: every layer's
// outline (all printed models together) → support areas per layer, and the raft's outline (the
// part's first layer and the support standing there, grown by the margin).
import type { Paths } from '../types.js';
import { throwIfAborted } from '../types.js';
import type { SliceSettings } from '../settings.js';
import type { LayerSpec } from '../setup/layer-heights.js';
import { sliceMeshSteps } from '../layers/index.js';
import { drain, type Steps } from '../steps.js';
import { union } from '../geom/clipper.js';
import { raftOutline } from '../adhesion/raft.js';
import { overhangXYDistance, supportAreaSteps, type SupportLayer } from './areas.js';

export interface PrepassModel {
  positions: Float64Array;
  indices: Uint32Array;
  role?: 'model' | 'modifier';
}

export interface Prepass {
  /** support per layer of `specs` (undefined: none on that layer) */
  support: Array<SupportLayer | undefined>;
  /** the raft's outline, when the job has a raft */
  raft?: Paths;
  /** when the job is one printed model (no modifiers) and support cut every layer: its cross-section
   *  per layer of `specs` ([] on raft layers), for a batch that would cut them again */
  sections?: Paths[];
}

/** `onProgress` gets the share of the pass done, 0 … 1, now and then. */
export function supportPrepass(models: PrepassModel[], specs: LayerSpec[], s: SliceSettings, signal?: AbortSignal, onProgress?: (f: number) => void): Prepass {
  return drain(supportPrepassSteps(models, specs, s, signal, onProgress));
}

/** supportPrepass' work, yielding every few planes of the cut and after each layer of the support walks. */
export function* supportPrepassSteps(models: PrepassModel[], specs: LayerSpec[], s: SliceSettings, signal?: AbortSignal, onProgress?: (f: number) => void): Steps<Prepass> {
  const first = specs.findIndex((l) => !l.raft);
  const support: Array<SupportLayer | undefined> = new Array(specs.length);
  if (first < 0) return { support };
  const printed = models.filter((m) => m.role !== 'modifier');
  const wantSupport = s.supportType !== 'none';
  // support needs every layer; a raft alone needs only the first
  const modelSpecs = wantSupport ? specs.slice(first) : [specs[first]];
  const zs = modelSpecs.map((l) => l.sliceZ);
  const perModel: Paths[][] = [];
  for (const m of printed) perModel.push(yield* sliceMeshSteps(m.positions, m.indices, zs));
  throwIfAborted(signal);
  // cutting the layers takes about a fifth of the pass
  onProgress?.(0.2);
  const outlines: Paths[] = zs.map((_, i) => {
    const all = perModel.flatMap((layers) => layers[i] ?? []);
    return printed.length > 1 && all.length > 0 ? union(all) : all;
  });
  perModel.length = 0;
  if (wantSupport) {
    const areas = yield* supportAreaSteps(
      outlines,
      modelSpecs.map((l) => l.height),
      {
        angleDeg: s.supportAngle,
        xyDistance: Math.round(s.supportXYDistance * 1000),
        xyOverhangDistance: overhangXYDistance(s),
        zLayers: s.supportZLayers,
        interfaceLayers: s.supportInterfaceLayers,
        minArea: s.supportMinArea * 1e6,
        buildplateOnly: s.supportType === 'buildplate',
      },
      signal,
      (f) => onProgress?.(0.2 + 0.8 * f),
    );
    areas.forEach((a, i) => (support[first + i] = a));
  }
  const out: Prepass = { support };
  if (wantSupport && models.length === 1 && printed.length === 1) out.sections = specs.map((_, i) => (i < first ? [] : outlines[i - first]));
  if (first > 0) {
    const under = support[first];
    out.raft = raftOutline([...outlines[0], ...(under ? [...under.support, ...under.interface] : [])], s);
  }
  return out;
}
