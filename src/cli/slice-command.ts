// `stratum slice MODEL -o OUT [...]`: one model file in, one printer file out, exactly as a task
// with the same settings would produce it. Several models (`stratum slice A B C -o DIR`) are sliced
// one after the other in this one process (slice-batch.ts).
import { stat } from './fs-async.js';
import { readInputFile } from './read-input.js';
import { refuseToReplaceInput } from './same-file.js';
import { basename, dirname, resolve } from 'node:path';
import { parseCommandArgs } from './parse-command-args.js';
import type { SliceStats } from '../engine/index.js';
import { resolveSettings } from '../profiles/index.js';
import { writeFileAtomic } from './atomic-write.js';
import { CliError, EXIT_INTERRUPTED, EXIT_OK, isCancelled, UsageError, writeError } from './errors.js';
import { fixed, formatDuration } from './format.js';
import { createProgressBar, type ProgressBar } from './progress-bar.js';
import { parseSetArgs, parseSupport } from './set-values.js';
import { sigintAbort } from './sigint.js';
import { widenThreadYoungGeneration } from './thread-heap.js';
import type { SliceOpts, ThreadResult } from './slice-thread.js';
import type { HandedBytes } from './slice-in-process.js';
import type { SliceSettings } from '../engine/index.js';
import { isWorkspaceFile, parseCloudArgs, type CloudArg } from './workspace-input.js';

/**
 * Models from this size up are sliced with their layers spread over worker threads (one per 1.3
 * cores: layer-pool.ts's threadsForOneSlice):
 * the main thread only reads, places and writes, so Ctrl-C stops the slice at once. Smaller ones,
 * which slice in about a second, stay on the main thread and spare the threads' start-up and
 * memory. STRATUM_SLICE_THREAD=worker runs the whole slice on one worker thread instead,
 * STRATUM_SLICE_THREAD=main forces the main thread alone.
 */
const THREADS_FROM_BYTES = 1 << 20;
/** Models one `stratum slice` takes (a shell's glob can expand to thousands; so can a mistake). */
const MAX_MODELS = 1000;

async function runSlice(input: HandedBytes, name: string, settings: SliceSettings, opts: SliceOpts): Promise<ThreadResult> {
  const mode = process.env.STRATUM_SLICE_THREAD;
  if (mode === 'worker') {
    widenThreadYoungGeneration();
    // the thread takes the file's memory (transferred)
    const bytes = input.bytes!;
    input.bytes = null;
    // loaded only here: node:worker_threads costs a few ms to load, which the main-thread path spares
    const { sliceOnThread } = await import('./slice-thread.js');
    return sliceOnThread(bytes, name, settings, opts);
  }
  const { sliceInProcess } = await import('./slice-in-process.js');
  if (mode === 'main' || input.bytes!.byteLength < THREADS_FROM_BYTES) return sliceInProcess(input, name, settings, opts);
  const { LayerPool } = await import('../runner/layer-pool.js');
  widenThreadYoungGeneration();
  const pool = new LayerPool();
  try {
    return await sliceInProcess(input, name, settings, { ...opts, executor: pool.executor });
  } finally {
    pool.terminate();
  }
}

export const SLICE_USAGE = `usage: stratum slice MODEL -o OUT [options]
       stratum slice MODEL MODEL... -o DIR [options]

Slices a model (STL, OBJ or 3MF, or a Workspace JSON file as the service takes it: several
placed models, modifiers, point clouds) with a printer, filament and quality preset. Given several
models, slices each in turn into DIR (created if missing) as NAME.gcode or NAME.fcode: after
the first, each starts from code already compiled, several times faster than a process each.

options:
  -o, --output OUT       printer file to write: G-code, or FCode when OUT ends in .fcode;
                         with several models, the directory to write them to
      --format gcode|fcode
                         the printer file's format (default: OUT's extension .gcode or
                         .fcode, else the printer's own format)
  -p, --printer NAME     printer preset (default "Creality Ender 3"; see \`stratum printers\`)
  -f, --filament NAME    filament preset (default Generic_PLA; see \`stratum filaments\`)
      --quality NAME     quality preset: Recommended (default), Highquality, Sketch
      --support n|e|b    support: none, everywhere, from the build plate only
  -s, --set KEY=VALUE    override one setting (repeatable), e.g. --set infillDensity=15
      --pointcloud FILE:NX,NY,NZ[:FILAMENT]
                         a PC_SV point cloud for a Workspace MODEL (repeatable): its modifier's
                         FileReference names FILE's base name; FILAMENT (with a Shore table)
                         defaults to --filament
      --quiet            no progress bar and no summary
      --json             print the slice's figures as JSON on stdout (instead of the summary)
  -h, --help             this text
`;

export interface SliceArgs {
  /** one or more model files */
  models: string[];
  /** the printer file, or with several models the directory */
  output: string;
  printer?: string;
  filament?: string;
  quality?: string;
  overrides: Record<string, unknown>;
  quiet: boolean;
  json: boolean;
  /** point clouds for Workspace files (--pointcloud) */
  clouds: CloudArg[];
}

export function parseSliceArgs(argv: string[]): SliceArgs | 'help' {
  const { values, positionals } = parseCommandArgs({
    args: argv,
    allowPositionals: true,
    options: {
      output: { type: 'string', short: 'o' },
      printer: { type: 'string', short: 'p' },
      filament: { type: 'string', short: 'f' },
      quality: { type: 'string' },
      support: { type: 'string' },
      format: { type: 'string' },
      set: { type: 'string', short: 's', multiple: true },
      pointcloud: { type: 'string', multiple: true },
      quiet: { type: 'boolean' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  if (positionals.length === 0) throw new UsageError('missing MODEL', 'slice');
  if (positionals.length > MAX_MODELS) throw new UsageError(`at most ${MAX_MODELS} models at a time, got ${positionals.length}`, 'slice');
  if (!values.output) throw new UsageError(positionals.length > 1 ? 'missing -o DIR' : 'missing -o OUT', 'slice');
  // a blank name (an unset "$PRINTER" in a script) is no preset: it must not slice for the default one
  const named = [['--printer', values.printer, 'printers'], ['--filament', values.filament, 'filaments'], ['--quality', values.quality, 'qualities']] as const;
  for (const [flag, value, list] of named) {
    if (value !== undefined && value.trim() === '') throw new UsageError(`${flag} needs a name, not a blank (see \`stratum ${list}\`)`, 'slice');
  }
  const overrides = parseSetArgs(values.set ?? []);
  // The dedicated flag wins over a --set of the same setting.
  if (values.support !== undefined) overrides.supportType = parseSupport(values.support);
  // --format wins over a --set outputFormat=…, which wins over OUT's extension (a file's, not a
  // directory's: with several models the printer's own format or the --set decides)
  const format = outputFormatFor(values.format, positionals.length > 1 ? '' : values.output);
  if (format && (values.format !== undefined || overrides.outputFormat === undefined)) overrides.outputFormat = format;
  return {
    models: positionals,
    output: values.output,
    printer: values.printer,
    filament: values.filament,
    quality: values.quality,
    overrides,
    quiet: values.quiet ?? false,
    json: values.json ?? false,
    clouds: parseCloudArgs(values.pointcloud ?? []),
  };
}

/**
 * The format asked for: --format, else OUT's extension (.fcode / .gcode), else none (the printer's
 * own format, or a --set outputFormat=…, decides).
 */
function outputFormatFor(flag: string | undefined, output: string): 'GCODE' | 'FCODE' | undefined {
  if (flag !== undefined) {
    const f = flag.toUpperCase();
    if (f !== 'GCODE' && f !== 'FCODE') throw new UsageError(`--format must be gcode or fcode, got "${flag}"`, 'slice');
    return f;
  }
  if (/\.fcode$/i.test(output)) return 'FCODE';
  if (/\.gcode$/i.test(output)) return 'GCODE';
  return undefined;
}

/** Fails before the slice (not after minutes of work) when OUT cannot be written there, or is the model. */
export async function checkOutput(output: string, model: string): Promise<void> {
  const dir = dirname(resolve(output));
  try {
    if (!(await stat(dir)).isDirectory()) throw new CliError(`cannot write ${output}: ${dir} is not a directory`);
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw writeError(output, err);
  }
  const existing = await stat(output).catch(() => null);
  if (existing?.isDirectory()) throw new CliError(`cannot write ${output}: is a directory`);
  await refuseToReplaceInput(output, model, existing);
}

/** What one model's slice gave, for the summary line and --json. */
export interface SliceReport {
  model: string;
  output: string;
  format: 'GCODE' | 'FCODE';
  triangles: number;
  stats: SliceStats;
  warnings: string[];
  seconds: number;
  bytes: number;
}

/**
 * Reads MODEL, slices it and writes OUTPUT (atomically). Throws the CLI's errors; returns null when
 * the signal stopped it (nothing written).
 */
export async function sliceToFile(
  model: string,
  output: string,
  settings: SliceSettings,
  bar: ProgressBar,
  signal: AbortSignal,
  /** one of several models in this process (slice-batch.ts) */
  inBatch = false,
  /** for Workspace files: point clouds, and the filament their Shore tables default to */
  workspace: { clouds: CloudArg[]; filament?: string } = { clouds: [] },
): Promise<SliceReport | null> {
  const started = performance.now();
  // handed over to the slice, which drops it once parsed (see HandedBytes)
  const input: HandedBytes = { bytes: await readInputFile(model) };
  const name = basename(model);
  const opts: SliceOpts = {
    onProgress: (fraction, stage) => bar.update(fraction, stage),
    signal,
    ...(inBatch ? { keepWasmTier: true } : {}),
  };
  const isWorkspace = isWorkspaceFile(name, input.bytes!);
  // (several models: refused before any is sliced when none can be a Workspace; see runBatch)
  if (!isWorkspace && workspace.clouds.length > 0 && !inBatch) {
    throw new UsageError(`--pointcloud is for Workspace files (.json, .rvwj); ${name} is a model file`, 'slice');
  }
  try {
    const result = isWorkspace
      ? await (await import('./slice-workspace.js')).sliceWorkspaceInProcess(input.bytes!, name, settings, opts, workspace.clouds, workspace.filament)
      : await runSlice(input, name, settings, opts);
    bar.done();
    // A Ctrl-C that came while the main thread was busy slicing is delivered only now, when the
    // event loop polls again: two turns of the loop guarantee one poll before anything is written.
    for (let turn = 0; turn < 2; turn++) await new Promise((r) => setImmediate(r));
    if (signal.aborted) return null;
    try {
      await writeFileAtomic(output, result.output, signal);
    } catch (err) {
      if (isCancelled(err)) throw err;
      throw writeError(output, err);
    }
    const { stats, format, triangles } = result;
    return {
      model,
      output,
      format,
      triangles,
      stats,
      warnings: [...new Set([...result.parseWarnings, ...stats.warnings])],
      seconds: (performance.now() - started) / 1000,
      bytes: result.output.length,
    };
  } catch (err) {
    bar.done();
    if (isCancelled(err) || signal.aborted) return null;
    throw err;
  }
}

/** The --json record of one model. */
export function jsonReport(r: SliceReport, settingWarnings: string[]): Record<string, unknown> {
  return {
    model: r.model,
    output: r.output,
    format: r.format,
    triangles: r.triangles,
    ...r.stats,
    warnings: [...new Set([...settingWarnings, ...r.warnings])],
    printTime: formatDuration(r.stats.printTimeS),
    sliceSeconds: Math.round(r.seconds * 1000) / 1000,
    bytes: r.bytes,
  };
}

/** The summary line of one model, for stderr. */
export function summaryLine(r: SliceReport, seconds: number): string {
  return (
    `${r.output}: ${r.stats.layerCount} layers, print time ${formatDuration(r.stats.printTimeS)}, ` +
    `filament ${fixed(r.stats.filamentMm / 1000, 2)} m ${fixed(r.stats.filamentG, 1)} g, ` +
    `sliced in ${fixed(seconds, 2)} s\n`
  );
}

/** What a Workspace model of the command needs besides its file. */
export function workspaceOf(args: SliceArgs): { clouds: CloudArg[]; filament?: string } {
  return args.filament ? { clouds: args.clouds, filament: args.filament } : { clouds: args.clouds };
}

/** The settings the command line names, resolved once for every model. */
export function settingsOf(args: SliceArgs): { settings: SliceSettings; warnings: string[] } {
  return resolveSettings({ printer: args.printer, filament: args.filament, quality: args.quality, overrides: args.overrides });
}

export async function run(argv: string[]): Promise<number> {
  const started = performance.now();
  const args = parseSliceArgs(argv);
  if (args === 'help') {
    process.stdout.write(SLICE_USAGE);
    return EXIT_OK;
  }
  if (args.models.length > 1) {
    const { runBatch } = await import('./slice-batch.js');
    return runBatch(args);
  }
  const model = args.models[0]!;
  await checkOutput(args.output, model);
  const { settings, warnings: settingWarnings } = settingsOf(args);

  // --quiet never touches process.stderr unless there is something to say: opening the stream (a
  // pipe, under a benchmark or a build tool) loads Node's stream modules, ~5 ms of a small slice
  const bar = args.quiet ? createProgressBar(null, false) : createProgressBar(process.stderr, process.stderr.isTTY === true);
  const interrupt = sigintAbort();
  let report: SliceReport | null;
  try {
    report = await sliceToFile(model, args.output, settings, bar, interrupt.signal, false, workspaceOf(args));
  } finally {
    interrupt.dispose();
  }
  if (!report) return EXIT_INTERRUPTED;

  const warnings = [...new Set([...settingWarnings, ...report.warnings])];
  for (const w of warnings) process.stderr.write(`warning: ${w}\n`);
  const seconds = (performance.now() - started) / 1000;
  if (args.json) {
    process.stdout.write(JSON.stringify({ ...jsonReport(report, settingWarnings), sliceSeconds: Math.round(seconds * 1000) / 1000 }, null, 2) + '\n');
  } else if (!args.quiet) {
    process.stderr.write(summaryLine(report, seconds));
  }
  return EXIT_OK;
}
