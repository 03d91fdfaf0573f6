// `stratum slice A.stl B.stl … -o DIR`: several models sliced one after the other in this process,
// each into DIR/<name>.gcode (or .fcode). The second and later slices run code V8 has already
// compiled, which is most of a small model's time in a process of its own (docs/architecture.md).
// One model that fails is reported and the others go on; the exit code is then 1. WASM keeps V8's
// default tiers (a small batch of five shared models: the same time as Liftoff only; with 3DBenchy
// and broken_extra_surface added, ~5 % faster).
import { basename, join, resolve } from 'node:path';
import { CliError, EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK, UsageError, describeError, fsErrorMessage } from './errors.js';
import { mayBeWorkspace } from './workspace-input.js';
import { fixed } from './format.js';
import { createProgressBar } from './progress-bar.js';
import { outputFileName } from '../service/file-rules.js';
import { sigintAbort } from './sigint.js';
import { makeDirectory } from '../store/make-directory.js';
import { reportFailure } from './report-error.js';
import { checkOutput, jsonReport, settingsOf, sliceToFile, summaryLine, workspaceOf, type SliceArgs } from './slice-command.js';

/** DIR/<model name without its extension>.<gcode|fcode> for each model; refuses two the same. */
export function batchOutputs(models: string[], dir: string, format: 'GCODE' | 'FCODE'): string[] {
  const ext = format === 'FCODE' ? '.fcode' : '.gcode';
  const byOutput = new Map<string, string>();
  return models.map((model) => {
    // the service's rule: the base name, cut so the whole stays within the 255 bytes a name may have
    const output = join(dir, outputFileName(basename(model), ext));
    const key = output.toLowerCase(); // case-insensitive file systems would merge them too
    const earlier = byOutput.get(key);
    if (earlier !== undefined) throw new CliError(`${earlier} and ${model} would both be written to ${output}; slice them into different directories`);
    byOutput.set(key, model);
    return output;
  });
}

/** Makes DIR (and what is missing above it); `shown` is how the user wrote it. */
async function outputDirectory(shown: string): Promise<void> {
  const dir = resolve(shown);
  try {
    await makeDirectory(dir);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ENOTDIR' || e.code === 'EEXIST') {
      if (!e.path || resolve(e.path) === dir) throw new CliError(`cannot write to ${shown}: with several models -o names a directory, and this is a file`);
      throw new CliError(`cannot create ${shown}: ${e.path} is a file, not a directory`);
    }
    throw new CliError(fsErrorMessage('create', shown, err));
  }
}

export async function runBatch(args: SliceArgs): Promise<number> {
  const started = performance.now();
  if (args.clouds.length > 0 && !mayBeWorkspace(args.models)) {
    throw new UsageError('--pointcloud is for Workspace files (.json, .rvwj); every MODEL here is a model file', 'slice');
  }
  const { settings, warnings: settingWarnings } = settingsOf(args);
  const outputs = batchOutputs(args.models, args.output, settings.outputFormat);
  await outputDirectory(args.output);
  for (const w of settingWarnings) process.stderr.write(`warning: ${w}\n`);

  const interrupt = sigintAbort();
  const records: Record<string, unknown>[] = [];
  let done = 0;
  try {
    for (let i = 0; i < args.models.length; i++) {
      const model = args.models[i]!;
      const output = outputs[i]!;
      const terminal = args.quiet ? createProgressBar(null, false) : createProgressBar(process.stderr, process.stderr.isTTY === true);
      // the bar's label says which model of how many: "3/6 layers"
      const bar = { update: (f: number, stage: string) => terminal.update(f, `${i + 1}/${args.models.length} ${stage}`), done: () => terminal.done() };
      try {
        await checkOutput(output, model);
        const report = await sliceToFile(model, output, settings, bar, interrupt.signal, true, workspaceOf(args));
        if (!report) return EXIT_INTERRUPTED;
        done++;
        for (const w of report.warnings) process.stderr.write(`warning: ${w}\n`);
        if (args.json) records.push(jsonReport(report, settingWarnings));
        else if (!args.quiet) process.stderr.write(summaryLine(report, report.seconds));
      } catch (err) {
        if (interrupt.signal.aborted) return EXIT_INTERRUPTED;
        // the same words as a single model's error, with the model in front: the others go on
        reportFailure('slice', err, model);
        if (args.json) records.push({ model, output, error: describeError(err) });
      }
    }
  } finally {
    interrupt.dispose();
    if (args.json && records.length > 0) process.stdout.write(JSON.stringify(records, null, 2) + '\n');
  }
  const failed = args.models.length - done;
  if (!args.quiet && !args.json) {
    const seconds = (performance.now() - started) / 1000;
    process.stderr.write(`${done} of ${args.models.length} models sliced into ${args.output} in ${fixed(seconds, 2)} s${failed ? `; ${failed} failed` : ''}\n`);
  }
  return failed > 0 ? EXIT_FAILURE : EXIT_OK;
}
