// A point-cloud modifier must fully enclose each model it touches (interface P1): where it does not,
// the model keeps the task's density and the cloud's hardness is lost there. The service checks the
// boxes when a task starts; a modifier mesh that is not a box (a prism, a scan of a foot) can pass
// that and still leave part of the model out. This looks at the cross-sections, layer by layer, and
// collects where a touched model reaches outside its cloud's modifier, for a warning.
import { difference, offset } from '../geom/clipper.js';
import { areaOf } from '../geom/path-math.js';
import type { Bounds3, Paths } from '../types.js';
import { meshBounds } from '../mesh/bounds.js';

/** Modifier and model sections may differ by this much (µm) and still count as covered. */
const COVER_TOLERANCE_UM = 50;
/** Uncovered area on a layer below this (µm², 0.5 × 0.5 mm) is rounding, not a model left out. */
const MIN_UNCOVERED_UM2 = 250_000;

/** Layers on which a model reaches outside a point-cloud modifier that touches it. */
export interface UncoveredSpan {
  modifier: number;
  model: number;
  /** the first and last such layer, and how many there are */
  first: number;
  last: number;
  layers: number;
}

const meets = (a: Bounds3, b: Bounds3) => [0, 1, 2].every((i) => a.min[i]! < b.max[i]! && b.min[i]! < a.max[i]!);

export class CloudCoverCheck {
  /** [modifier, model] pairs whose boxes meet: the model is touched, so must be enclosed */
  private readonly pairs: Array<[number, number]> = [];
  private readonly spans = new Map<string, UncoveredSpan>();

  constructor(models: ReadonlyArray<{ positions: Float64Array; role?: 'model' | 'modifier'; field?: unknown }>) {
    const clouds = models.flatMap((m, i) => (m.role === 'modifier' && m.field !== undefined ? [i] : []));
    if (clouds.length === 0) return;
    const boxes = models.map((m) => meshBounds(m));
    for (const c of clouds) {
      models.forEach((m, i) => {
        if (m.role !== 'modifier' && meets(boxes[c]!, boxes[i]!)) this.pairs.push([c, i]);
      });
    }
  }

  get active(): boolean {
    return this.pairs.length > 0;
  }

  /** One layer: `sectionOf(i)` is model or modifier i's cross-section on it. */
  check(layer: number, sectionOf: (model: number) => Paths): void {
    for (const [c, m] of this.pairs) {
      const part = sectionOf(m);
      if (part.length === 0) continue;
      const cloud = sectionOf(c);
      const out = cloud.length === 0 ? part : difference(part, offset(cloud, COVER_TOLERANCE_UM, 'miter', 2));
      if (out.length === 0 || Math.abs(areaOf(out)) < MIN_UNCOVERED_UM2) continue;
      const key = `${c} ${m}`;
      const span = this.spans.get(key);
      if (span) {
        span.first = Math.min(span.first, layer);
        span.last = Math.max(span.last, layer);
        span.layers++;
      } else this.spans.set(key, { modifier: c, model: m, first: layer, last: layer, layers: 1 });
    }
  }

  result(): UncoveredSpan[] {
    return [...this.spans.values()];
  }
}

/** Spans of several batches together, one per modifier and model. */
export function mergeSpans(spans: UncoveredSpan[]): UncoveredSpan[] {
  const byPair = new Map<string, UncoveredSpan>();
  for (const s of spans) {
    const key = `${s.modifier} ${s.model}`;
    const had = byPair.get(key);
    if (!had) byPair.set(key, { ...s });
    else {
      had.first = Math.min(had.first, s.first);
      had.last = Math.max(had.last, s.last);
      had.layers += s.layers;
    }
  }
  return [...byPair.values()].sort((a, b) => a.modifier - b.modifier || a.model - b.model);
}

/** The warnings for merged spans; `zOf(layer)` is a layer's top, mm. */
export function uncoveredWarnings(spans: UncoveredSpan[], names: readonly string[], zOf: (layer: number) => number): string[] {
  return mergeSpans(spans).map((s) => {
    const where = s.first === s.last ? `at z ${zOf(s.first).toFixed(2)} mm` : `on ${s.layers} layers between z ${zOf(s.first).toFixed(2)} and ${zOf(s.last).toFixed(2)} mm`;
    return (
      `point-cloud modifier '${names[s.modifier]}' does not enclose all of model '${names[s.model]}' ${where}: ` +
      "there the model keeps the task's infill density (a point-cloud modifier must fully enclose each model it touches)"
    );
  });
}
