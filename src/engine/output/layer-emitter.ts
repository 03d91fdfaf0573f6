// Walks the planner's operations layer by layer, keeping the machine state (position, E, feedrate,
// feature, model), and produces both the G-code lines and the matching machine moves for the
// print-time simulation — one walk, so the estimate is of exactly the text that is written.
import type { LayerPlan, PlanOp } from '../plan/types.js';
import type { SliceSettings } from '../settings.js';
import type { FlavorRules } from './flavors.js';
import type { MoveBuffer } from './move-buffer.js';
import { dec5, micronsToMm, mm3 } from './number-format.js';
import { finite } from './finite.js';

export interface EmitterSetup {
  settings: SliceSettings;
  rules: FlavorRules;
  modelNames: readonly string[];
  /** Klipper object names by model index (only used with the Klipper flavour) */
  objectNames?: readonly string[];
  moves: MoveBuffer;
  /** false: only build moves (time estimate without text) */
  text: boolean;
  /** machine position before the first layer, µm */
  start: { x: number; y: number; z: number };
}

/** Integer bounds in µm of what was written; min > max while empty. */
export interface MicronBounds {
  minX: number;
  minY: number;
  minZ: number;
  maxX: number;
  maxY: number;
  maxZ: number;
}

export function emptyBounds(): MicronBounds {
  return { minX: Infinity, minY: Infinity, minZ: Infinity, maxX: -Infinity, maxY: -Infinity, maxZ: -Infinity };
}

export class LayerEmitter {
  x: number;
  y: number;
  z: number;
  /** extruder position as written (absolute E), mm */
  e = 0;
  /** net filament pushed by the plan (extrusions + unretracts − retracts), mm */
  netFilamentMm = 0;
  readonly bounds = emptyBounds();
  /** XY extent of each model's extrusions, µm: [minX, minY, maxX, maxY] */
  readonly modelBounds = new Map<number, [number, number, number, number]>();
  /** current feedrate as written, mm/min (-1 before the first) */
  feedF = -1;
  private type: string | null = null;
  private model = Number.NaN;
  private activeObject = -1;
  /** XY box of the current model's extrusions (null outside models) */
  private modelBox: [number, number, number, number] | null = null;
  private lines: string[] | null = null;
  private readonly s: SliceSettings;
  private readonly relativeE: boolean;
  private readonly zFeed: number;
  /** the layer's Z, when its move waits for a retraction that comes first (retractAtLayerChange) */
  private pendingZ: number | null = null;
  /** a round bed's centre, µm: how far the layers reach from it is checked against its radius */
  private readonly bedCentre: [number, number] | null;
  private maxReach2 = 0;
  /**
   * The acceleration in effect, where this emitter switches it between print and travel moves
   * (Klipper with the limits written: the limit lines leave it at the print acceleration); NaN
   * where the firmware switches by itself or keeps its own.
   */
  private accel = Number.NaN;

  constructor(private readonly setup: EmitterSetup) {
    this.s = setup.settings;
    this.x = setup.start.x;
    this.y = setup.start.y;
    this.z = setup.start.z;
    this.relativeE = this.s.relativeExtrusion;
    this.zFeed = this.s.zSpeed > 0 ? this.s.zSpeed : this.s.travelSpeed;
    const s = this.s;
    this.bedCentre = s.roundBed ? (s.originCenter ? [0, 0] : [(s.bedWidth * 1000) / 2, (s.bedDepth * 1000) / 2]) : null;
    if (setup.rules.accelLine && s.emitMachineLimits && s.travelAcceleration !== s.printAcceleration) this.accel = s.printAcceleration;
  }

  /** Switches the acceleration for the next move when this emitter keeps it (see `accel`). */
  private useAccel(accel: number): void {
    if (Number.isNaN(this.accel) || accel === this.accel) return;
    this.accel = accel;
    this.lines?.push(this.setup.rules.accelLine!(accel));
  }

  /** Emits one layer, `position` its place in the print (without its `;LAYER:` and M73 lines, which the writer adds). */
  emitLayer(plan: LayerPlan, position: number): string[] {
    const lines: string[] = [];
    this.lines = this.setup.text ? lines : null;
    const L = this.lines;
    this.type = null;
    this.model = Number.NaN;
    this.modelBox = null;
    if (L) {
      if (this.setup.rules.klipper) L.push(`SET_PRINT_STATS_INFO CURRENT_LAYER=${position + 1}`);
      if (position === 1) this.afterFirstLayer(L);
      if (!this.relativeE) L.push('G92 E0');
    }
    if (!this.relativeE) this.e = 0;
    // the layer's own height, even when the start G-code already left the nozzle there (MINZ)
    this.growZ(plan.z);
    if (plan.z !== this.z) {
      // a layer that starts by retracting goes up after the retraction, not oozing on the way
      if (retractsBeforeMoving(plan.ops)) this.pendingZ = plan.z;
      else this.moveZ(plan.z);
    }
    // an indexed loop: this runs once per layer, mostly before V8 optimises it, and there for…of
    // makes an iterator result per op (41 MB of a 10-layer, 2,000-hole plate's garbage)
    const ops = plan.ops;
    for (let i = 0; i < ops.length; i++) this.emitOp(ops[i]!);
    if (L && this.activeObject >= 0) {
      L.push(`EXCLUDE_OBJECT_END NAME=${this.objectName(this.activeObject)}`);
    }
    this.activeObject = -1;
    return lines;
  }

  private afterFirstLayer(L: string[]): void {
    const s = this.s;
    // formatted as the first layer's temperatures are (never in exponent form, never NaN)
    // 0: no command, the nozzle stays as it is (M104 S0 turned the heater off under the print)
    if (s.nozzleTemperature > 0 && s.nozzleTemperature !== s.firstLayerNozzleTemperature) L.push(`M104 S${mm3(s.nozzleTemperature)}`);
    if (s.heatedBed && s.bedTemperature !== s.firstLayerBedTemperature) L.push(`M140 S${mm3(s.bedTemperature)}`);
  }

  private feed(speed: number): string {
    const f = Math.max(1, Math.round(finite(speed, 'a feed rate') * 60));
    if (f === this.feedF) return '';
    this.feedF = f;
    return ' F' + f;
  }

  private moveZ(z: number): void {
    const f = this.feed(this.zFeed);
    this.setup.moves.push(0, 0, (z - this.z) / 1000, 0, this.feedF / 60);
    this.z = z;
    this.growZ(z);
    this.lines?.push('G0' + f + ' Z' + micronsToMm(z));
  }

  private growZ(z: number): void {
    const b = this.bounds;
    if (z < b.minZ) b.minZ = z;
    if (z > b.maxZ) b.maxZ = z;
  }

  private growXY(x: number, y: number): void {
    const b = this.bounds;
    if (x < b.minX) b.minX = x;
    if (x > b.maxX) b.maxX = x;
    if (y < b.minY) b.minY = y;
    if (y > b.maxY) b.maxY = y;
    if (this.bedCentre) {
      const dx = x - this.bedCentre[0], dy = y - this.bedCentre[1];
      const r2 = dx * dx + dy * dy;
      if (r2 > this.maxReach2) this.maxReach2 = r2;
    }
  }

  /** how far from the bed's centre the layers reach, µm (round beds; 0 otherwise) */
  get bedReach(): number {
    return Math.sqrt(this.maxReach2);
  }

  private emitOp(op: PlanOp): void {
    const L = this.lines;
    if (this.pendingZ !== null && (op.op === 'extrude' || op.op === 'travel')) {
      const z = this.pendingZ;
      this.pendingZ = null;
      // a z-hop's lift takes the nozzle up itself
      if (!(op.op === 'travel' && op.z !== undefined)) this.moveZ(z);
    }
    switch (op.op) {
      case 'extrude': {
        const x = Math.round(op.x);
        const y = Math.round(op.y);
        if (x === this.x && y === this.y && op.e === 0) return;
        this.useAccel(this.s.printAcceleration);
        const f = this.feed(op.speed);
        this.setup.moves.push((x - this.x) / 1000, (y - this.y) / 1000, 0, op.e, this.feedF / 60);
        this.x = x;
        this.y = y;
        this.e += op.e;
        this.netFilamentMm += op.e;
        this.growXY(x, y);
        const mb = this.modelBox;
        if (mb) {
          if (x < mb[0]) mb[0] = x;
          if (y < mb[1]) mb[1] = y;
          if (x > mb[2]) mb[2] = x;
          if (y > mb[3]) mb[3] = y;
        }
        if (L) L.push('G1' + f + ' X' + micronsToMm(x) + ' Y' + micronsToMm(y) + ' E' + dec5(this.relativeE ? op.e : this.e));
        return;
      }
      case 'travel': {
        const x = Math.round(op.x);
        const y = Math.round(op.y);
        const z = op.z === undefined ? this.z : Math.round(op.z);
        if (x === this.x && y === this.y && z === this.z) return;
        this.useAccel(this.s.travelAcceleration);
        const f = this.feed(op.speed);
        this.setup.moves.push((x - this.x) / 1000, (y - this.y) / 1000, (z - this.z) / 1000, 0, this.feedF / 60);
        const zPart = z !== this.z ? ' Z' + micronsToMm(z) : '';
        if (z !== this.z) this.growZ(z);
        this.x = x;
        this.y = y;
        this.z = z;
        this.growXY(x, y);
        if (L) L.push('G0' + f + ' X' + micronsToMm(x) + ' Y' + micronsToMm(y) + zPart);
        return;
      }
      case 'retract':
      case 'unretract': {
        if (!(op.length > 0)) return;
        const de = op.op === 'retract' ? -op.length : op.length;
        const f = this.feed(op.speed);
        this.setup.moves.push(0, 0, 0, de, this.feedF / 60);
        this.e += de;
        this.netFilamentMm += de;
        if (L) L.push('G1' + f + ' E' + dec5(this.relativeE ? de : this.e));
        return;
      }
      case 'feature':
        if (op.model !== this.model) {
          if (L) this.changeModel(L, op.model, op.modelName);
          this.model = op.model;
          this.modelBox = op.model >= 0 ? this.boxOf(op.model) : null;
        }
        {
          // bridge lines are a feature of their own: `;TYPE:SKIN` then `;BRIDGE`; the next feature
          // writes its `;TYPE:` again, even if it is plain skin
          const key = op.bridge ? op.type + ';BRIDGE' : op.type;
          if (key !== this.type) {
            L?.push(';TYPE:' + op.type);
            if (op.bridge) L?.push(';BRIDGE');
            this.type = key;
          }
        }
        return;
      case 'fan':
        L?.push(this.setup.rules.fanLine(finite(op.percent, 'a fan speed')));
        return;
      case 'comment':
        L?.push(';' + op.text);
        return;
    }
  }

  private changeModel(L: string[], model: number, givenName: string | undefined): void {
    const klipper = this.setup.rules.klipper;
    if (klipper && this.activeObject >= 0) L.push(`EXCLUDE_OBJECT_END NAME=${this.objectName(this.activeObject)}`);
    this.activeObject = -1;
    L.push(';MESH:' + (model < 0 ? 'NONMESH' : (givenName ?? this.setup.modelNames[model] ?? `model_${model}`)));
    if (klipper && model >= 0) {
      L.push(`EXCLUDE_OBJECT_START NAME=${this.objectName(model)}`);
      this.activeObject = model;
    }
  }

  private objectName(model: number): string {
    return this.setup.objectNames?.[model] ?? `model_${model}`;
  }

  /** The model's XY box, created empty (min > max) on first use. */
  private boxOf(model: number): [number, number, number, number] {
    let b = this.modelBounds.get(model);
    if (!b) {
      b = [Infinity, Infinity, -Infinity, -Infinity];
      this.modelBounds.set(model, b);
    }
    return b;
  }
}

/** Whether a layer's ops retract before the first move (extrusion or travel). */
function retractsBeforeMoving(ops: readonly PlanOp[]): boolean {
  for (const op of ops) {
    if (op.op === 'retract') return op.length > 0;
    if (op.op === 'extrude' || op.op === 'travel') return false;
  }
  return false;
}
