// Travel moves: straight, combed around holes and notches, or retracted (with an optional z-hop); a
// long travel inside the part is retracted as well (combMaxTravel), since the nozzle oozes on the way.
// A move that leaves the part while the filament is primed draws a string, the worst defect there
// is, so every way out of the part either combs around or retracts.
import type { SliceSettings } from '../settings.js';
import { combRoute, routeLength, straightInRegion, type CombRegion } from './comb.js';
import type { EdgeIndex } from './edge-index.js';
import type { LayerOps } from './layer-ops.js';
import { hyp } from './length.js';

/** A combed route may be at most this many times the straight distance (plus COMB_SLACK). */
export const COMB_DETOUR = 3;
const COMB_SLACK = 1000; // µm: lets short hops round a small hole
/** Straight moves this much outside the part (µm) are retracted even when shorter than retractMinTravel. */
export const LEAVE_RETRACT = 200;
/** Below this (µm) a straight move counts as staying inside (rounding of outlines). */
const LEAVE_TOL = 20;

export interface TravelStats {
  straight: number;
  combed: number;
  retracted: number;
}

export class TravelPlanner {
  readonly stats: TravelStats = { straight: 0, combed: 0, retracted: 0 };
  private readonly minTravel: number;
  /** a travel inside the part longer than this (µm) is retracted all the same: the nozzle oozes on the way */
  private readonly combMax: number;
  private readonly ts: number[] = [];

  constructor(
    private readonly s: SliceSettings,
    /** layer z, µm */
    private readonly z: number,
    private readonly speed: number,
    /** outlines of every island on the layer (lazy: built on first use) */
    private readonly outlines: () => EdgeIndex,
  ) {
    this.minTravel = s.retractMinTravel * 1000;
    this.combMax = s.combMaxTravel > 0 ? s.combMaxTravel * 1000 : Infinity;
  }

  /**
   * Length (µm) of the straight move a→b lying outside every part outline. `aInside` may tell
   * whether a is inside a part (the end of a part's path is), saving a point-in-area test.
   */
  outsideLength(ax: number, ay: number, bx: number, by: number, aInside?: boolean): number {
    const idx = this.outlines();
    const raw = this.ts;
    raw.length = 0;
    idx.crossings(ax, ay, bx, by, raw);
    const d = hyp(bx - ax, by - ay);
    let inside = aInside ?? idx.contains(ax, ay);
    if (raw.length === 0) return inside ? 0 : d;
    const t: number[] = [];
    for (let i = 0; i < raw.length; i += 2) t.push(raw[i]);
    t.sort((a, b) => a - b);
    let out = 0, last = 0;
    for (const ti of t) {
      if (!inside) out += ti - last;
      inside = !inside;
      last = ti;
    }
    if (!inside) out += 1 - last;
    return out * d;
  }

  /**
   * The lift of a retracted travel: zHop, but never above the build height (Klipper stops a print at
   * such a move): the top layers of a part as tall as the printer lift less, or not at all.
   */
  private hopUm(): number {
    return Math.max(0, Math.min(Math.round(this.s.zHop * 1000), Math.round(this.s.bedHeight * 1000) - this.z));
  }

  /**
   * Moves the nozzle to (x, y). `regionOf` gives the comb region of the island the move happens in
   * (built on first need; null outside islands: skirt, support). `forceRetract` retracts whatever
   * the distance (the first move of a layer with retractAtLayerChange); `fromInside` tells that
   * the nozzle is inside a part (it just printed one of its paths), when known.
   */
  travel(
    ops: LayerOps,
    x: number,
    y: number,
    regionOf: (() => CombRegion | null) | null,
    forceRetract = false,
    fromInside?: boolean,
  ): void {
    const s = this.s;
    if (!ops.known) {
      // from wherever the previous layer ended: retracted, lifted on the way when z-hop is on,
      // without a move to a made-up start point
      const hop = this.hopUm();
      ops.retract(s.retractLength, s.retractSpeed);
      ops.moveTo(x, y, this.speed, hop > 0 ? this.z + hop : undefined);
      if (hop > 0) ops.moveZ(this.z, s.zSpeed, hop);
      ops.unretract(s.retractLength, s.retractPrimeSpeed);
      this.stats.retracted++;
      return;
    }
    const ax = ops.x, ay = ops.y;
    const d = hyp(x - ax, y - ay);
    if (d === 0) return;
    let retract = forceRetract;
    /** the combed way there (points after a), when the move goes round */
    let route: number[] | null = null;
    if (!retract) {
      const outside = this.outsideLength(ax, ay, x, y, fromInside);
      const fallback = d >= this.minTravel || outside >= LEAVE_RETRACT;
      // short moves that stay in the part need no comb check
      const region = s.combing === 'off' || !regionOf || (!fallback && outside < LEAVE_TOL) ? null : regionOf();
      if (!region) {
        retract = fallback;
      } else if (outside < LEAVE_TOL && straightInRegion(region, ax, ay, x, y)) {
        retract = d > this.combMax;
      } else {
        const maxLen = COMB_DETOUR * d + COMB_SLACK;
        const combed = combRoute(region, ax, ay, x, y, maxLen);
        const length = combed ? routeLength(ax, ay, combed) : Infinity;
        if (combed && length <= maxLen) {
          route = combed;
          retract = length > this.combMax;
        } else {
          retract = fallback;
        }
      }
    }
    if (!retract) {
      if (route) {
        for (let i = 0; i < route.length; i += 2) ops.moveTo(route[i], route[i + 1], this.speed);
        this.stats.combed++;
      } else {
        ops.moveTo(x, y, this.speed);
        this.stats.straight++;
      }
      return;
    }
    this.stats.retracted++;
    const hop = this.hopUm();
    ops.retract(s.retractLength, s.retractSpeed);
    if (hop > 0) ops.moveZ(this.z + hop, s.zSpeed, hop);
    // a long way round inside the part keeps its route: retracted, it still does not cross a wall
    if (route) for (let i = 0; i < route.length; i += 2) ops.moveTo(route[i], route[i + 1], this.speed);
    else ops.moveTo(x, y, this.speed);
    if (hop > 0) ops.moveZ(this.z, s.zSpeed, hop);
    ops.unretract(s.retractLength, s.retractPrimeSpeed);
  }
}
