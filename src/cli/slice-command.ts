// `stratum slice MODEL -o OUT [...]`: one model file in, one printer file out, exactly as a task
// with the same settings would produce it.
import { stat } from './fs-async.js';
import { readInputFile } from './read-input.js';
import { refuseToReplaceInput } from './same-file.js';
import { basename, dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { SliceStats } from '../engine/index.js';
import { resolveSettings } from '../profiles/index.js';
import { writeFileAtomic } from './atomic-write.js';
import { CliError, EXIT_INTERRUPTED, EXIT_OK, UsageError, fsErrorMessage, isCancelled } from './errors.js';
import { fixed, formatDuration } from './format.js';
import { createProgressBar } from './progress-bar.js';
import { parseSetArgs, parseSupport } from './set-values.js';
import { sigintAbort } from './sigint.js';
import type { SliceOpts, ThreadResult } from './slice-thread.js';
import type { HandedBytes } from './slice-in-process.js';
import type { SliceSettings } from '../engine/index.js';

/**
 * Models from this size up are sliced with their layers spread over worker threads (one per core):
 * the main thread only reads, places and writes, so Ctrl-C stops the slice at once. Smaller ones,
 * which slice in about a second, stay on the main thread and spare the threads' start-up and
 * memory. STRATUM_SLICE_THREAD=worker runs the whole slice on one worker thread instead,
 * STRATUM_SLICE_THREAD=main forces the main thread alone.
 */
const THREADS_FROM_BYTES = 1 << 20;

async function runSlice(input: HandedBytes, name: string, settings: SliceSettings, opts: SliceOpts): Promise<ThreadResult> {
  const mode = process.env.STRATUM_SLICE_THREAD;
  if (mode === 'worker') {
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
  const pool = new LayerPool();
  try {
    return await sliceInProcess(input, name, settings, { ...opts, executor: pool.executor });
  } finally {
    pool.terminate();
  }
}

export const SLICE_USAGE = `usage: stratum slice MODEL -o OUT [options]

Slices one model (STL, OBJ or 3MF) with a printer, filament and quality preset.

options:
  -o, --output OUT       printer file to write: G-code, or FCode when OUT ends in .fcode
      --format gcode|fcode
                         the printer file's format (default: OUT's extension .gcode or
                         .fcode, else the printer's own format)
  -p, --printer NAME     printer preset (default "Creality Ender 3"; see \`stratum printers\`)
  -f, --filament NAME    filament preset (default Generic_PLA; see \`stratum filaments\`)
      --quality NAME     quality preset: Recommended (default), Highquality, Sketch
      --support n|e|b    support: none, everywhere, from the build plate only
  -s, --set KEY=VALUE    override one setting (repeatable), e.g. --set infillDensity=15
      --quiet            no progress bar and no summary
      --json             print the slice's figures as JSON on stdout (instead of the summary)
  -h, --help             this text
`;

interface SliceArgs {
  model: string;
  output: string;
  printer?: string;
  filament?: string;
  quality?: string;
  overrides: Record<string, unknown>;
  quiet: boolean;
  json: boolean;
}

export function parseSliceArgs(argv: string[]): SliceArgs | 'help' {
  const { values, positionals } = parseArgs({
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
      quiet: { type: 'boolean' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  if (positionals.length === 0) throw new UsageError('slice: missing MODEL', 'slice');
  if (positionals.length > 1) throw new UsageError(`slice: one MODEL at a time, got ${positionals.length}`, 'slice');
  if (!values.output) throw new UsageError('slice: missing -o OUT', 'slice');
  const overrides = parseSetArgs(values.set ?? []);
  // The dedicated flag wins over a --set of the same setting.
  if (values.support !== undefined) overrides.supportType = parseSupport(values.support);
  // --format wins over a --set outputFormat=…, which wins over OUT's extension
  const format = outputFormatFor(values.format, values.output);
  if (format && (values.format !== undefined || overrides.outputFormat === undefined)) overrides.outputFormat = format;
  return {
    model: positionals[0],
    output: values.output,
    printer: values.printer,
    filament: values.filament,
    quality: values.quality,
    overrides,
    quiet: values.quiet ?? false,
    json: values.json ?? false,
  };
}

/**
 * The format asked for: --format, else OUT's extension (.fcode / .gcode), else none (the printer's
 * own format, or a --set outputFormat=…, decides).
 */
function outputFormatFor(flag: string | undefined, output: string): 'GCODE' | 'FCODE' | undefined {
  if (flag !== undefined) {
    const f = flag.toUpperCase();
    if (f !== 'GCODE' && f !== 'FCODE') throw new UsageError(`slice: --format must be gcode or fcode, got "${flag}"`, 'slice');
    return f;
  }
  if (/\.fcode$/i.test(output)) return 'FCODE';
  if (/\.gcode$/i.test(output)) return 'GCODE';
  return undefined;
}

/** Fails before the slice (not after minutes of work) when OUT cannot be written there, or is the model. */
async function checkOutput(output: string, model: string): Promise<void> {
  const dir = dirname(resolve(output));
  try {
    if (!(await stat(dir)).isDirectory()) throw new CliError(`cannot write ${output}: ${dir} is not a directory`);
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new CliError(fsErrorMessage('write', output, err));
  }
  const existing = await stat(output).catch(() => null);
  if (existing?.isDirectory()) throw new CliError(`cannot write ${output}: is a directory`);
  await refuseToReplaceInput(output, model, existing);
}

export async function run(argv: string[]): Promise<number> {
  const started = performance.now();
  const args = parseSliceArgs(argv);
  if (args === 'help') {
    process.stdout.write(SLICE_USAGE);
    return EXIT_OK;
  }
  await checkOutput(args.output, args.model);
  const warnings: string[] = [];

  const { settings, warnings: settingWarnings } = resolveSettings({
    printer: args.printer,
    filament: args.filament,
    quality: args.quality,
    overrides: args.overrides,
  });
  warnings.push(...settingWarnings);

  // handed over to the slice, which drops it once parsed (see HandedBytes)
  const input: HandedBytes = { bytes: await readInputFile(args.model) };
  const name = basename(args.model);

  // --quiet never touches process.stderr unless there is something to say: opening the stream (a
  // pipe, under a benchmark or a build tool) loads Node's stream modules, ~5 ms of a small slice
  const bar = args.quiet ? createProgressBar(null, false) : createProgressBar(process.stderr, process.stderr.isTTY === true);
  const interrupt = sigintAbort();
  let stats: SliceStats;
  let output: Uint8Array;
  let format: 'GCODE' | 'FCODE';
  let triangles: number;
  try {
    const result = await runSlice(input, name, settings, {
      onProgress: (fraction, stage) => bar.update(fraction, stage),
      signal: interrupt.signal,
    });
    bar.done();
    // A Ctrl-C that came while the main thread was busy slicing is delivered only now, when the
    // event loop polls again: two turns of the loop guarantee one poll before anything is written.
    for (let turn = 0; turn < 2; turn++) await new Promise((r) => setImmediate(r));
    if (interrupt.signal.aborted) return EXIT_INTERRUPTED;
    ({ stats, output, format, triangles } = result);
    warnings.push(...result.parseWarnings);
    try {
      await writeFileAtomic(args.output, output, interrupt.signal);
    } catch (err) {
      if (isCancelled(err)) throw err;
      throw new CliError(fsErrorMessage('write', args.output, err));
    }
  } catch (err) {
    bar.done();
    if (isCancelled(err) || interrupt.signal.aborted) return EXIT_INTERRUPTED;
    throw err;
  } finally {
    interrupt.dispose();
  }

  warnings.push(...stats.warnings);
  for (const w of new Set(warnings)) process.stderr.write(`warning: ${w}\n`);
  const seconds = (performance.now() - started) / 1000;
  if (args.json) {
    const report = {
      model: args.model,
      output: args.output,
      format,
      triangles,
      ...stats,
      warnings: [...new Set(warnings)],
      printTime: formatDuration(stats.printTimeS),
      sliceSeconds: Math.round(seconds * 1000) / 1000,
      bytes: output.length,
    };
    process.stdout.write(JSON.stringify(report, null, 2) + '\n');
  } else if (!args.quiet) {
    process.stderr.write(
      `${args.output}: ${stats.layerCount} layers, print time ${formatDuration(stats.printTimeS)}, ` +
        `filament ${fixed(stats.filamentMm / 1000, 2)} m ${fixed(stats.filamentG, 1)} g, ` +
        `sliced in ${fixed(seconds, 2)} s\n`,
    );
  }
  return EXIT_OK;
}
