// Plans → G-code text with the final totals in the header. A first walk over the plan makes the
// machine moves (start G-code, layers, end G-code), which are simulated for the print time; a second
// walk makes the same layers' text as the file is assembled: header, preamble, layers with M73
// progress and elapsed time, end G-code, PrusaSlicer-style trailer.
import type { LayerPlan } from '../plan/types.js';
import type { SliceSettings } from '../settings.js';
import { SliceError, throwIfAborted, type Bounds3 } from '../types.js';
import { drain, type Steps } from '../steps.js';
import { sumByGroup } from './estimator.js';
import { flavorRules, klipperObjectNames, type FlavorRules } from './flavors.js';
import { headerLines } from './header.js';
import { LayerEmitter } from './layer-emitter.js';
import { limitsFromSettings } from './limits.js';
import { MoveBuffer } from './move-buffer.js';
import { micronsToMm, mm3 } from './number-format.js';
import { parseGcode } from './parse-gcode.js';
import { simulateSteps } from './simulate.js';
import { fillTemplate, templateSetsTemperatures, templateValues, withoutBedHeating } from './template.js';
import { trailerLines } from './trailer.js';
import { ByteChunks, FileTooLarge, MAX_FILE_BYTES } from './byte-chunks.js';
import { clampEndLift } from './end-lift.js';
import { planSourceOf, type PlanSource } from './plan-source.js';
import { finite } from './finite.js';

export interface GcodeMeta {
  modelNames: string[];
  /** e.g. "Stratum 0.1.0" */
  generator: string;
}

export interface GcodeStats {
  /** whole print including start and end G-code, seconds */
  printTimeS: number;
  /** net filament pushed by the print, mm */
  filamentMm: number;
  filamentMm3: number;
  filamentG: number;
  /** bounds of every G0/G1 coordinate the layers write, mm */
  bounds: Bounds3;
  /** seconds per layer */
  layerTimesS: number[];
  /** what the writer changed for the machine's sake (an end lift cut to the build height) */
  warnings: string[];
  /** how far from the centre of a round bed the layers reach, mm (0 on a rectangular bed) */
  bedReach: number;
}

export interface WrittenGcode {
  text: string;
  stats: GcodeStats;
}

export interface WrittenGcodeBytes {
  /** the file, UTF-8 */
  output: Uint8Array;
  stats: GcodeStats;
}

export interface WriteOptions {
  /** up to this many operations the layers are walked once, their text kept (default KEEP_TEXT_MAX_OPS) */
  keepTextMaxOps?: number;
  /** the most bytes the file may have (default MAX_FILE_BYTES, 4 GiB − 1) */
  maxOutputBytes?: number;
  /** checked every few layers in both walks: a large print's file takes seconds to write */
  signal?: AbortSignal;
  /** how much of the file is made, 0 to 1, every few layers */
  onProgress?: (fraction: number) => void;
}

/** Layers between two stop checks and progress reports. */
const CHECK_EVERY = 8;
/** Where the writer's progress stands when pass 1 and the simulation are done (pass 2 is the rest). */
const PASS1_SHARE = 0.5;
const TIMED_SHARE = 0.6;

/** Stop checks and progress for one file: pass 1 reports 0 → PASS1_SHARE, pass 2 TIMED_SHARE → 1. */
class WriteWatch {
  constructor(private readonly options: WriteOptions, private readonly layerCount: number) {}

  /**
   * Throws SliceCancelled when asked to stop; every CHECK_EVERY layers reports how far the walk is,
   * and says true: a place to yield.
   */
  layer(i: number, pass: 1 | 2): boolean {
    if (i % CHECK_EVERY !== 0) return false;
    throwIfAborted(this.options.signal);
    const f = i / Math.max(1, this.layerCount);
    this.report(pass === 1 ? PASS1_SHARE * f : TIMED_SHARE + (1 - TIMED_SHARE) * f);
    return true;
  }

  /** Between the stages: a stop check and a fixed point on the bar. */
  stage(fraction: number): void {
    throwIfAborted(this.options.signal);
    this.report(fraction);
  }

  /** The file is made: the bar at its end (a stop that comes now is too late to save anything). */
  done(): void {
    this.report(1);
  }

  private report(fraction: number): void {
    this.options.onProgress?.(fraction);
  }
}

/** The file as text (convenient for tests and small prints); slices use writeGcodeBytes. */
export function writeGcode(plans: readonly LayerPlan[] | PlanSource, settings: SliceSettings, meta: GcodeMeta, options: WriteOptions = {}): WrittenGcode {
  const { output, stats } = writeGcodeBytes(plans, settings, meta, options);
  return { text: new TextDecoder().decode(output), stats };
}

/**
 * Up to this many operations the layers' text is made in pass 1 along with the moves and kept (a
 * few MB at most) instead of walking the layers a second time: a small print's output is mostly
 * code that has not been optimised yet, where the second walk cost 10–15 % of the slice.
 */
const KEEP_TEXT_MAX_OPS = 100_000;

/**
 * The file as bytes. Layers are read one at a time, twice: pass 1 makes only the moves for the time
 * estimate (no text); pass 2, once the times are known, makes each layer's text and encodes it
 * straight into the file's chunks. So no layer text is held while the moves are simulated. A small
 * print (KEEP_TEXT_MAX_OPS) gets its text in pass 1 and is walked once.
 */
function* assembleGcode(
  input: readonly LayerPlan[] | PlanSource,
  settings: SliceSettings,
  meta: GcodeMeta,
  options: WriteOptions = {},
): Steps<WrittenGcodeBytes> {
  const plans: PlanSource = Array.isArray(input) ? planSourceOf(input) : (input as PlanSource);
  const rules = flavorRules(settings.gcodeFlavor);
  const layerCount = plans.length;
  const values = templateValues(settings, { layer_count: String(layerCount) });
  const fill = (template: string) => (settings.heatedBed ? fillTemplate(template, values) : withoutBedHeating(fillTemplate(template, values)));
  const startGcode = fill(settings.startGcode);
  const filledEnd = endOfPrint(fill(settings.endGcode), settings);
  const objectNames = klipperObjectNames(meta.modelNames);

  const keepText = plans.opCount <= (options.keepTextMaxOps ?? KEEP_TEXT_MAX_OPS);
  const watch = new WriteWatch(options, layerCount);
  const { layerIndices, startTime, layerTimesS, printTimeS, emitted, startPos, memory, bodies, endGcode, warnings } = yield* emitAndTime(
    plans, settings, meta, rules, objectNames, startGcode, filledEnd, keepText, watch,
  );
  watch.stage(TIMED_SHARE);

  // ── totals ─────────────────────────────────────────────────────────────────────────────────
  const filamentMm = Math.max(0, emitted.netFilamentMm);
  const radius = settings.filamentDiameter / 2;
  const filamentMm3 = filamentMm * Math.PI * radius * radius;
  const filamentG = (filamentMm3 / 1000) * settings.filamentDensity;
  const b = emitted.bounds;
  const bounds: Bounds3 =
    b.minX <= b.maxX
      ? { min: [b.minX / 1000, b.minY / 1000, b.minZ / 1000], max: [b.maxX / 1000, b.maxY / 1000, b.maxZ / 1000] }
      : { min: [0, 0, 0], max: [0, 0, 0] };
  if (!(b.minZ <= b.maxZ)) {
    bounds.min[2] = 0;
    bounds.max[2] = 0;
  }
  const stats: GcodeStats = { printTimeS, filamentMm, filamentMm3, filamentG, bounds, layerTimesS, warnings, bedReach: emitted.bedReach / 1000 };
  checkTotals(stats, startTime);

  // ── pass 2: assemble ───────────────────────────────────────────────────────────────────────
  // the text goes first where the moves were: they are garbage now but not yet collected
  const out = new ByteChunks(memory, options.maxOutputBytes ?? MAX_FILE_BYTES);
  out.push(...headerLines(rules, settings, stats, meta.generator));
  out.push('');
  if (rules.klipper) out.push(...objectDefinitions(emitted.modelBounds, objectNames));
  if (settings.emitMachineLimits) out.push(...rules.limitLines(limitsFromSettings(settings)));
  // The start G-code's moves are absolute: a previous job or macro may have left the printer in G91.
  out.push('G90 ;absolute coordinates');
  out.push(...temperaturePreamble(settings));
  // and the layers' moves are absolute too, whatever the start G-code (or a firmware macro it calls,
  // which cannot be read here) left: a template ending in G91 made every layer move relative
  if (startGcode.trim() !== '') out.push(startGcode.replace(/\s+$/, ''), 'G90 ;absolute coordinates');
  out.push(settings.relativeExtrusion ? 'M83 ;relative extrusion mode' : 'M82 ;absolute extrusion mode', 'G92 E0');
  if (rules.klipper) out.push(`SET_PRINT_STATS_INFO TOTAL_LAYER=${layerCount}`);
  out.push(`;LAYER_COUNT:${layerCount}`);
  // pass 2: the same walk again, now with its text, written into the file as it is made
  const emitter = new LayerEmitter({
    settings,
    rules,
    modelNames: meta.modelNames,
    objectNames,
    moves: new DiscardedMoves(16),
    text: true,
    start: startPos,
  });
  let elapsed = startTime;
  for (let i = 0; i < layerCount; i++) {
    if (watch.layer(i, 2)) yield;
    out.push(`;LAYER:${layerIndices[i]}`, progressLine(elapsed, printTimeS));
    // one string per layer: one encoding call for its thousands of lines
    let body: string;
    if (bodies) {
      body = bodies[i]!;
      bodies[i] = '';
    } else {
      body = emitter.emitLayer(plans.get(i), i).join('\n');
      plans.done?.(i);
    }
    // a layer whose text is empty has no part (no blank line) of its own
    if (body !== '') out.push(body);
    elapsed += layerTimesS[i]!;
    out.push(`;TIME_ELAPSED:${mm3(elapsed)}`);
  }
  out.push('M73 P100 R0');
  if (endGcode.trim() !== '') out.push(endGcode.replace(/\s+$/, ''));
  out.push(
    '',
    ...trailerLines({ filamentMm, filamentMm3, filamentG, printTimeS, firstLayerTimeS: layerTimesS[0] ?? 0 }),
    '',
  );
  const output = yield* out.joinSteps();
  watch.done();
  return { output, stats };
}

/** The G-code as bytes, or a SliceError saying what to change when it would be larger than one file can be. */
export function writeGcodeBytes(...args: Parameters<typeof assembleGcode>): WrittenGcodeBytes {
  return drain(writeGcodeSteps(...args));
}

/** writeGcodeBytes' work, yielding every few layers of each walk (for a caller on the main thread). */
export function* writeGcodeSteps(...args: Parameters<typeof assembleGcode>): Steps<WrittenGcodeBytes> {
  try {
    return yield* assembleGcode(...args);
  } catch (err) {
    if (!(err instanceof FileTooLarge)) throw err;
    const size = Number.isInteger((err.limit + 1) / 2 ** 30) ? `${(err.limit + 1) / 2 ** 30} GiB` : `${err.limit} bytes`;
    throw new SliceError(
      `the G-code would be larger than ${size}, the most one file can be (a printer's FAT32 card holds no more): ` +
        'choose a larger layerHeight, a lower infillDensity, or fewer or smaller models',
      'BAD_SETTINGS',
    );
  }
}

/**
 * Pass 1 and the time: each layer's machine moves and text length, then the simulation.
 * The moves and the simulation's arrays (the largest things the writer makes) are dropped when this
 * returns, before the file is assembled.
 */
function* emitAndTime(
  plans: PlanSource,
  settings: SliceSettings,
  meta: GcodeMeta,
  rules: FlavorRules,
  objectNames: readonly string[],
  startGcode: string,
  endGcode: string,
  keepText: boolean,
  watch: WriteWatch,
) {
  const layerCount = plans.length;
  const moves = new MoveBuffer(plans.opCount + plans.length + 256);
  // RepRapFirmware's G91 leaves E absolute (only M83 switches it)
  const g91MovesE = settings.gcodeFlavor !== 'reprap';
  const start = parseGcode(startGcode, { into: moves, g91MovesE });
  const startMoves = moves.length;
  const startPos = { x: Math.round(start.end.x * 1000), y: Math.round(start.end.y * 1000), z: Math.round(start.end.z * 1000) };
  const emitter = new LayerEmitter({
    settings,
    rules,
    modelNames: meta.modelNames,
    objectNames,
    moves,
    // the text is made once, in pass 2 unless kept from here: the machine state and moves do not
    // depend on it
    text: keepText,
    start: startPos,
  });
  const layerStarts: number[] = [];
  const layerIndices: number[] = [];
  const bodies: string[] | null = keepText ? [] : null;
  for (let i = 0; i < layerCount; i++) {
    if (watch.layer(i, 1)) yield;
    const plan = plans.get(i);
    layerStarts.push(moves.length);
    layerIndices.push(plan.index);
    const lines = emitter.emitLayer(plan, i);
    if (bodies) {
      bodies.push(lines.join('\n'));
      plans.done?.(i);
    }
  }
  const endMoves = moves.length;
  const clamped = clampEndLift(endGcode, emitter.z / 1000, settings.bedHeight);
  endGcode = clamped.text;
  const end = parseGcode(endGcode, {
    into: moves,
    g91MovesE,
    start: {
      x: emitter.x / 1000,
      y: emitter.y / 1000,
      z: emitter.z / 1000,
      e: emitter.e,
      feed: emitter.feedF > 0 ? emitter.feedF / 60 : 0,
      relativeE: settings.relativeExtrusion,
    },
  });

  watch.stage(PASS1_SHARE);
  const sim = yield* simulateSteps(moves, limitsFromSettings(settings), { consume: true });
  const startTime = sumRange(sim.moveTimes, 0, startMoves) + start.dwellS;
  const layerTimesS = sumByGroup(sim.moveTimes, layerStarts, endMoves);
  const endTime = sumRange(sim.moveTimes, endMoves, moves.length) + end.dwellS;
  const layersTime = layerTimesS.reduce((a, b) => a + b, 0);
  const printTimeS = startTime + layersTime + endTime;

  const emitted = { netFilamentMm: emitter.netFilamentMm, bounds: emitter.bounds, modelBounds: emitter.modelBounds, bedReach: emitter.bedReach };
  const warnings = clamped.warning ? [clamped.warning] : [];
  return { layerIndices, startTime, layerTimesS, printTimeS, emitted, startPos, memory: moves.takeMemory(), bodies, endGcode, warnings };
}

/**
 * The totals go into the header, the M73 and `;TIME_ELAPSED:` lines, the trailer and the task's info:
 * none may be NaN or infinite (a bug upstream would otherwise print `M73 PNaN`), see finite.ts.
 */
function checkTotals(stats: GcodeStats, startTime: number): void {
  finite(startTime, "the start G-code's time");
  for (let i = 0; i < stats.layerTimesS.length; i++) finite(stats.layerTimesS[i]!, `layer ${i}'s time`);
  finite(stats.printTimeS, 'the print time');
  finite(stats.filamentMm, 'the filament length');
  finite(stats.filamentMm3, 'the filament volume');
  finite(stats.filamentG, 'the filament weight');
  for (const v of [...stats.bounds.min, ...stats.bounds.max]) finite(v, 'the print bounds');
}

/**
 * The end of the print: a full retraction off the last line (the layers end primed, and the end
 * templates' 2 mm left a blob on the top surface and a string on the way to the park), then the end
 * G-code.
 * With absolute E, the end G-code starts from E = 0: end templates retract with `G91` + `G1 E-2`,
 * which RepRapFirmware reads as "go to E = -2" (its G91 leaves the extruder absolute), pulling back
 * the whole last layer's filament (34 mm on a cube, 181 mm on a plate) out of the hot end. From
 * E = 0 that move is the 2 mm it means on every firmware (so E is set to 0 again after the
 * retraction: from E = -5, RepRapFirmware's G91 E-2 would push 3 mm out).
 */
function endOfPrint(endGcode: string, settings: SliceSettings): string {
  const absolute = !settings.relativeExtrusion;
  const lines: string[] = [];
  if (settings.retractLength > 0) {
    if (absolute) lines.push('G92 E0');
    lines.push(`G1 F${mm3(settings.retractSpeed * 60)} E${mm3(-settings.retractLength)} ; retract: the print is done`);
  }
  if (absolute) lines.push("G92 E0 ; extruder at 0: the end G-code's E moves are the same on any firmware");
  if (endGcode.trim() !== '') lines.push(endGcode);
  return lines.join('\n');
}

function sumRange(times: Float64Array, from: number, to: number): number {
  let t = 0;
  for (let i = from; i < to; i++) t += times[i]!;
  return t;
}

/** `M73 P<percent done> R<minutes left>` from the simulated elapsed time. */
function progressLine(elapsed: number, total: number): string {
  const p = total > 0 ? Math.min(100, Math.floor((100 * elapsed) / total)) : 0;
  const r = Math.max(0, Math.round((total - elapsed) / 60));
  return `M73 P${p} R${r}`;
}

/** First-layer temperatures, set first and then waited for, unless the start G-code sets them itself. */
function temperaturePreamble(s: SliceSettings): string[] {
  const sets = templateSetsTemperatures(s.startGcode);
  const bed = s.heatedBed && !sets.bed;
  // 0: no command (the start G-code, a macro it calls, or the printer heats the nozzle)
  const nozzle = !sets.nozzle && s.firstLayerNozzleTemperature > 0;
  const lines: string[] = [];
  if (bed) lines.push(`M140 S${mm3(s.firstLayerBedTemperature)}`);
  if (nozzle) lines.push(`M104 S${mm3(s.firstLayerNozzleTemperature)}`);
  if (bed) lines.push(`M190 S${mm3(s.firstLayerBedTemperature)}`);
  if (nozzle) lines.push(`M109 S${mm3(s.firstLayerNozzleTemperature)}`);
  return lines;
}

/** Klipper EXCLUDE_OBJECT_DEFINE per printed model: its name, centre and XY bounding rectangle. */
function objectDefinitions(modelBounds: LayerEmitter['modelBounds'], names: readonly string[]): string[] {
  const lines: string[] = [];
  const models = [...modelBounds.keys()].sort((a, b) => a - b);
  for (const m of models) {
    const [x0, y0, x1, y1] = modelBounds.get(m)!;
    if (!(x0 <= x1)) continue; // announced but never extruded
    const f = micronsToMm;
    const cx = Math.round((x0 + x1) / 2);
    const cy = Math.round((y0 + y1) / 2);
    lines.push(
      `EXCLUDE_OBJECT_DEFINE NAME=${names[m] ?? `model_${m}`} CENTER=${f(cx)},${f(cy)} ` +
        `POLYGON=[[${f(x0)},${f(y0)}],[${f(x1)},${f(y0)}],[${f(x1)},${f(y1)}],[${f(x0)},${f(y1)}]]`,
    );
  }
  return lines;
}

/** Pass 2 needs no moves: they were simulated in pass 1. */
class DiscardedMoves extends MoveBuffer {
  override push(): void {}
}
