// Accumulates one layer's operations and tracks the nozzle: position, current feature and model.
import type { FeatureType } from '../types.js';
import type { PlanOp } from './types.js';
import type { Visit } from './order.js';
import { hyp } from './length.js';

export class LayerOps {
  readonly ops: PlanOp[] = [];
  x: number;
  y: number;
  private type: FeatureType | null = null;
  private model = Number.NaN;
  private bridge = false;
  /** extruded length (mm) per speed, for the minimum layer time */
  readonly extrudedBySpeed = new Map<number, number>();
  /** time of everything but extrusion (travel, retraction), s, at nominal speeds */
  otherTime = 0;

  /**
   * False until the first move when the layer's start position is unknown (a batch planned on its
   * own thread does not know where the previous batch ended); x, y then hold a stand-in point that
   * only guides the ordering.
   */
  known: boolean;

  constructor(
    start: { x: number; y: number } | null,
    private readonly modelNames: string[],
    standIn: { x: number; y: number } = { x: 0, y: 0 },
  ) {
    this.known = start !== null;
    this.x = start ? start.x : standIn.x;
    this.y = start ? start.y : standIn.y;
  }

  /** Announces a feature (bridge lines are one of their own); writes an op only when it changes. */
  feature(type: FeatureType, model: number, bridge = false): void {
    if (type === this.type && model === this.model && bridge === this.bridge) return;
    this.type = type;
    this.model = model;
    this.bridge = bridge;
    const modelName = model >= 0 ? this.modelNames[model] : undefined;
    const op: PlanOp = modelName === undefined ? { op: 'feature', type, model } : { op: 'feature', type, model, modelName };
    if (bridge) op.bridge = true;
    this.ops.push(op);
  }

  moveTo(x: number, y: number, speed: number, z?: number): void {
    if (x === this.x && y === this.y && this.known && z === undefined) return;
    if (this.known) this.otherTime += hyp(x - this.x, y - this.y) / 1000 / speed;
    this.ops.push(z === undefined ? { op: 'travel', x, y, speed } : { op: 'travel', x, y, z, speed });
    this.x = x;
    this.y = y;
    this.known = true;
  }

  /** A vertical move at the current position (z-hop up or back down) to z, by `lift` µm. */
  moveZ(z: number, speed: number, lift: number): void {
    this.otherTime += lift / 1000 / speed;
    this.ops.push({ op: 'travel', x: this.x, y: this.y, z, speed });
  }

  retract(length: number, speed: number): void {
    if (length <= 0) return;
    this.otherTime += length / speed;
    this.ops.push({ op: 'retract', length, speed });
  }

  unretract(length: number, speed: number): void {
    if (length <= 0) return;
    this.otherTime += length / speed;
    this.ops.push({ op: 'unretract', length, speed });
  }

  fan(percent: number): void {
    this.ops.push({ op: 'fan', percent });
  }

  /**
   * Extrudes along a visit from its start (the nozzle must already be there). `ePerUm` is filament
   * mm per µm of path length. Zero-length segments are skipped.
   */
  extrudeVisit(v: Visit, ePerUm: number, speed: number): void {
    const p = v.path.points;
    const n = p.length >> 1;
    const ops = this.ops;
    let x = this.x, y = this.y, total = 0;
    const segment = (i: number) => {
      const nx = p[2 * i], ny = p[2 * i + 1];
      const len = hyp(nx - x, ny - y);
      if (len === 0) return;
      ops.push({ op: 'extrude', x: nx, y: ny, e: len * ePerUm, speed });
      total += len;
      x = nx;
      y = ny;
    };
    if (v.path.closed) {
      for (let k = 1; k <= n; k++) segment((v.start + (v.reverse ? n - k : k)) % n);
    } else if (v.reverse) {
      for (let i = n - 2; i >= 0; i--) segment(i);
    } else {
      for (let i = 1; i < n; i++) segment(i);
    }
    this.x = x;
    this.y = y;
    this.extrudedBySpeed.set(speed, (this.extrudedBySpeed.get(speed) ?? 0) + total / 1000);
  }
}
