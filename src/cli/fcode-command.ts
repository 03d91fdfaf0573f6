// `stratum fcode decode|encode|info`: FCode files (docs/fcode.md) back to G-code, G-code to FCode,
// and what an FCode file's header says, checked block by block.
import { parseCommandArgs } from './parse-command-args.js';
import { decodeFCode, encodeFCode, FCodeError, metadataFromGcode } from '../engine/output/fcode-api.js';
import { writeFileAtomic } from './atomic-write.js';
import { refuseToReplaceInput } from './same-file.js';
import { readInputFile } from './read-input.js';
import { CliError, EXIT_OK, UsageError, writeError } from './errors.js';

export const FCODE_USAGE = `usage: stratum fcode <decode|encode|info> FILE [options]

  decode FILE.fcode -o OUT.gcode   the G-code an FCode file holds (byte for byte what was encoded)
  encode FILE.gcode -o OUT.fcode   G-code to FCode; the metadata comes from the G-code's comments
  info FILE.fcode                  the header, metadata and block count as JSON (every block's
                                   CRC-32 is checked)

options:
  -o, --output FILE   the file to write (decode, encode)
      --quiet         no summary line on stderr (decode, encode)
  -h, --help          this text

A damaged, truncated or foreign file fails with exit code 1 and a message naming the block and byte.
`;

const ACTIONS = ['decode', 'encode', 'info'] as const;
type Action = (typeof ACTIONS)[number];

async function writeOutput(file: string, bytes: Uint8Array): Promise<void> {
  try {
    await writeFileAtomic(file, bytes);
  } catch (err) {
    throw writeError(file, err);
  }
}

/** FCodeErrors are the user's file, not a crash: one line, exit 1. */
function fcodeFailure(file: string, err: unknown): never {
  if (err instanceof FCodeError) throw new CliError(`${file}: ${err.message} [${err.code}]`);
  throw err;
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs({
    args: argv,
    allowPositionals: true,
    options: {
      output: { type: 'string', short: 'o' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(FCODE_USAGE);
    return EXIT_OK;
  }
  const [action, file, ...extra] = positionals;
  if (action === undefined) throw new UsageError('missing decode, encode or info', 'fcode');
  if (!(ACTIONS as readonly string[]).includes(action)) throw new UsageError(`unknown action "${action}" (decode, encode, info)`, 'fcode');
  if (file === undefined) throw new UsageError(`${action}: missing FILE`, 'fcode');
  if (extra.length > 0) throw new UsageError(`fcode ${action}: one FILE at a time`, 'fcode');
  const act = action as Action;
  if (act !== 'info' && !values.output) throw new UsageError(`${action}: missing -o OUT`, 'fcode');

  if (values.output) await refuseToReplaceInput(values.output, file);
  const input = await readInputFile(file);
  const started = performance.now();
  if (act === 'info') {
    let d;
    try {
      d = decodeFCode(input);
    } catch (err) {
      fcodeFailure(file, err);
    }
    const info = {
      file,
      bytes: input.length,
      version: d.version,
      decimals: d.decimals,
      relativeE: (d.flags & 2) !== 0,
      finalNewline: (d.flags & 1) === 0,
      blocks: d.blocks,
      lines: d.lines,
      gcodeBytes: d.gcode.length,
      ...d.meta,
    };
    process.stdout.write(JSON.stringify(info, null, 2) + '\n');
    return EXIT_OK;
  }
  if (act === 'encode') {
    const why = notGcode(input);
    if (why) throw new CliError(`${file} is not G-code to encode: ${why}`);
  }
  let output: Uint8Array;
  try {
    output = act === 'decode' ? decodeFCode(input).gcode : encodeFCode(input, metadataFromGcode(input));
  } catch (err) {
    fcodeFailure(file, err);
  }
  const ms = performance.now() - started;
  await writeOutput(values.output!, output);
  if (!values.quiet) {
    process.stderr.write(`${values.output}: ${kb(output.length)} from ${kb(input.length)} (${act}d in ${ms.toFixed(0)} ms)\n`);
  }
  return EXIT_OK;
}

/**
 * Why `bytes` cannot be G-code, or null: FCode (already encoded), binary bytes, or no command at all.
 * FCode carries any text faithfully, so an STL given by mistake became a valid file that a printer
 * would have been fed (`preview` refuses the same file: no layers).
 */
function notGcode(bytes: Uint8Array): string | null {
  if (bytes.length === 0) return 'the file is empty';
  if (bytes.length >= 4 && bytes[0] === 0x43 && bytes[1] === 0x49 && bytes[2] === 0x52 && bytes[3] === 0) return 'it is FCode already (it starts with CIR\\0)';
  if (bytes.subarray(0, 1 << 20).includes(0)) return 'it holds binary bytes (NUL); an STL or other binary file?';
  // a command on a line of its own, line-numbered (N12 G1 …*85) or not: found in the first KiB of
  // almost any file; past a long comment block (thumbnails) up to 16 MiB are looked at
  const command = /^[ \t]*(?:N\d+[ \t]*)?[GMT]\d/im;
  for (const size of [1 << 16, 16 << 20]) {
    if (command.test(new TextDecoder('latin1').decode(bytes.subarray(0, size)))) return null;
    if (bytes.length <= size) break;
  }
  return 'no G, M or T command in its first 16 MiB';
}
