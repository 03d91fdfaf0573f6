// Cooling: the part fan per layer, and the minimum-layer-time slowdown.
import type { SliceSettings } from '../settings.js';
import type { PlanOp } from './types.js';
import { hyp } from './length.js';

/**
 * Fan percent for a layer (index from 0). Settings count layers from 1: layers up to fanOffLayers
 * run with the fan off, the fan reaches fanSpeed at layer fanFullLayer, linearly in between.
 */
export function fanPercent(index: number, s: SliceSettings): number {
  const layer = index + 1;
  if (layer <= s.fanOffLayers) return 0;
  if (layer >= s.fanFullLayer) return s.fanSpeed;
  const span = s.fanFullLayer - s.fanOffLayers;
  return Math.round((s.fanSpeed * (layer - s.fanOffLayers)) / span);
}

/** Simple time estimate of a layer's ops, s: Σ length / speed (no acceleration), as slicers do for cooling. */
export function simpleLayerTime(ops: PlanOp[], start: { x: number; y: number }): { extrudeS: number; otherS: number } {
  let x = start.x, y = start.y;
  let extrudeS = 0, otherS = 0;
  for (const o of ops) {
    switch (o.op) {
      case 'extrude':
        extrudeS += hyp(o.x - x, o.y - y) / 1000 / o.speed;
        x = o.x;
        y = o.y;
        break;
      case 'travel': {
        const d = hyp(o.x - x, o.y - y);
        otherS += (d > 0 ? d : 0) / 1000 / o.speed;
        x = o.x;
        y = o.y;
        break;
      }
      case 'retract':
      case 'unretract':
        otherS += o.length / o.speed;
        break;
      default:
        break;
    }
  }
  return { extrudeS, otherS };
}

/** Extruded length (mm) per speed in a layer's ops. */
function extrudedBySpeed(ops: PlanOp[], start: { x: number; y: number }): Map<number, number> {
  const bySpeed = new Map<number, number>();
  let x = start.x, y = start.y;
  for (const o of ops) {
    if (o.op === 'extrude') {
      const len = hyp(o.x - x, o.y - y) / 1000;
      bySpeed.set(o.speed, (bySpeed.get(o.speed) ?? 0) + len);
    }
    if (o.op === 'extrude' || o.op === 'travel') {
      x = o.x;
      y = o.y;
    }
  }
  return bySpeed;
}

/**
 * The speed cap that makes a layer last minLayerTime, or null when it is slow enough already.
 * Like PrusaSlicer's cooling buffer it caps the fastest extrusions (one common cap, found exactly)
 * rather than scaling everything: slow features keep their speed until the cap comes down to
 * them. The cap never goes below minPrintSpeed; travel and retraction time (`otherS`) is fixed.
 */
export function minLayerTimeCap(bySpeed: Map<number, number>, otherS: number, s: SliceSettings): number | null {
  if (!(s.minLayerTime > 0)) return null;
  let extrudeS = 0;
  for (const [v, len] of bySpeed) extrudeS += len / v;
  if (extrudeS <= 0 || extrudeS + otherS >= s.minLayerTime) return null;
  const need = s.minLayerTime - otherS;
  const speeds = [...bySpeed.keys()].sort((a, b) => b - a);
  // with the cap F between speeds[j+1] and speeds[j]: time = Σ_{i≤j} L_i / F + Σ_{i>j} L_i / v_i
  let slowTime = extrudeS;
  let cappedLen = 0;
  let cap = s.minPrintSpeed;
  for (let j = 0; j < speeds.length; j++) {
    const v = speeds[j];
    const len = bySpeed.get(v)!;
    cappedLen += len;
    slowTime -= len / v;
    const rest = need - slowTime;
    const next = j + 1 < speeds.length ? speeds[j + 1] : 0;
    if (rest > 0) {
      const f = cappedLen / rest;
      if (f >= next && f <= v) {
        cap = f;
        break;
      }
    }
  }
  return Math.max(cap, s.minPrintSpeed);
}

/** Lowers every extrusion faster than `cap` to it. */
export function capExtrusionSpeed(ops: PlanOp[], cap: number): void {
  for (const o of ops) if (o.op === 'extrude' && o.speed > cap) o.speed = cap;
}

/** Slows a layer's ops down to last at least minLayerTime (see minLayerTimeCap); returns the cap or null. */
export function applyMinLayerTime(ops: PlanOp[], start: { x: number; y: number }, s: SliceSettings): number | null {
  const cap = minLayerTimeCap(extrudedBySpeed(ops, start), simpleLayerTime(ops, start).otherS, s);
  if (cap !== null) capExtrusionSpeed(ops, cap);
  return cap;
}
