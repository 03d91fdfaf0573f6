// An output path that names the command's input file (the same path, a link to it, or another hard
// link of it) would replace the user's model or G-code with the result, which is then all that is
// left of it. The commands refuse that before doing any work.
import type { Stats } from 'node:fs';
import { stat } from './fs-async.js';
import { CliError } from './errors.js';

/**
 * Throws a CliError when `output` exists and is the same file as `input` (same device and inode).
 * `outputStats`: the output's stat when the caller has it already (null: it does not exist).
 */
export async function refuseToReplaceInput(output: string, input: string, outputStats?: Stats | null): Promise<void> {
  const out = outputStats !== undefined ? outputStats : await stat(output).catch(() => null);
  if (!out?.isFile()) return;
  const inp = await stat(input).catch(() => null);
  if (inp && inp.dev === out.dev && inp.ino === out.ino) {
    throw new CliError(`cannot write ${output}: it is the input file ${input}, which the result would replace; choose another output file`);
  }
}
