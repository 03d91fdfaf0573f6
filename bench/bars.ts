// The bars of DESIGN.md ("How good is good enough") checked against one model's bench figures.
import type { QualityFigures } from './quality.js';

export interface SlicerSummary {
  wallS: number | null;
  rssMiB: number | null;
  timeS: number | null;
  filamentMm: number | null;
  /** peers: our estimator on this slicer's G-code against the time it states itself (oursS / ownS − 1) */
  estimatorDev?: number | null;
}

export interface PeerQuality {
  cura?: Partial<QualityFigures>;
  prusa?: Partial<QualityFigures>;
}

/** Models on which the bar is "faster than the faster peer"; elsewhere "at most 2× CuraEngine". */
const BIG_MODELS = new Set(['3dbenchy', 'stanford_bunny']);

const val = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Each bar the model misses, as a short sentence; bars whose figures are missing are skipped. */
export function missedBars(
  modelBase: string,
  ours: SlicerSummary,
  cura: SlicerSummary | null,
  prusa: SlicerSummary | null,
  quality: QualityFigures | null,
  peerQuality: PeerQuality | undefined,
): string[] {
  const missed: string[] = [];
  const peerWalls = [cura?.wallS, prusa?.wallS].map(val).filter((v): v is number => v !== null);
  if (ours.wallS !== null && peerWalls.length) {
    const faster = Math.min(...peerWalls);
    if (BIG_MODELS.has(modelBase)) {
      if (ours.wallS >= faster) missed.push(`wall time ${ours.wallS.toFixed(2)} s not below the faster peer's ${faster.toFixed(2)} s`);
    } else if (cura?.wallS != null && ours.wallS > 2 * cura.wallS) {
      missed.push(`wall time ${ours.wallS.toFixed(2)} s above 2× CuraEngine's ${cura.wallS.toFixed(2)} s`);
    }
  }
  if (ours.rssMiB !== null && prusa?.rssMiB != null && ours.rssMiB >= prusa.rssMiB) {
    missed.push(`peak RSS ${ours.rssMiB.toFixed(0)} MiB not below PrusaSlicer's ${prusa.rssMiB.toFixed(0)} MiB`);
  }
  if (ours.timeS !== null && prusa?.timeS) {
    const dev = ours.timeS / prusa.timeS - 1;
    if (Math.abs(dev) > 0.1) {
      // say whether the estimator or the toolpath is off: our estimator on PrusaSlicer's own G-code
      const est = prusa.estimatorDev;
      const why =
        est == null ? '' : `; our estimator on PrusaSlicer's G-code: ${est >= 0 ? '+' : ''}${(est * 100).toFixed(1)} % off its own figure${Math.abs(est) <= 0.02 ? ', so the toolpaths differ' : ''}`;
      missed.push(`print time ${(dev * 100).toFixed(1)} % off PrusaSlicer's (bar ±10 %)${why}`);
    }
  }
  const fils = [cura?.filamentMm, prusa?.filamentMm].map(val).filter((v): v is number => v !== null);
  if (ours.filamentMm !== null && fils.length) {
    const lo = Math.min(...fils);
    const hi = Math.max(...fils);
    const nearer = ours.filamentMm < lo ? lo : ours.filamentMm > hi ? hi : ours.filamentMm;
    if (Math.abs(ours.filamentMm / nearer - 1) > 0.05) {
      missed.push(`filament ${(ours.filamentMm / 1000).toFixed(2)} m outside the peers' ${(lo / 1000).toFixed(2)}–${(hi / 1000).toFixed(2)} m by more than 5 %`);
    }
  }
  if (quality) missed.push(...missedQualityBars(quality, peerQuality ?? {}));
  return missed;
}

function missedQualityBars(q: QualityFigures, peers: PeerQuality): string[] {
  const missed: string[] = [];
  const best = (key: string) => {
    const vs = [peers.cura?.[key], peers.prusa?.[key]].map(val).filter((v): v is number => v !== null);
    return vs.length ? Math.max(...vs) : null;
  };
  for (const key of ['wall_cov', 'solid_cov']) {
    const ours = val(q[key]);
    const bar = best(key);
    if (ours !== null && bar !== null && ours < bar - 0.01) missed.push(`${key} ${ours} below the better peer's ${bar} − 0.01`);
  }
  const spill = val(q.spill);
  if (spill !== null && spill > 0.002) missed.push(`spill ${spill} above 0.002`);
  const dev = val(q.dev_mm);
  if (dev !== null && dev > 0.03) missed.push(`dev_mm ${dev} above 0.03`);
  const exits = val(q.open_exits);
  const travels = val(q.travels);
  const peerExits = [peers.cura?.open_exits, peers.prusa?.open_exits].map(val).filter((v): v is number => v !== null);
  if (exits !== null && travels !== null && peerExits.length) {
    const allowed = Math.min(...peerExits) + 0.02 * travels;
    if (exits > allowed) missed.push(`open_exits ${exits}/${travels} above the better peer's + 2 % of travels`);
  }
  return missed;
}
