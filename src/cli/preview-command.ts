// `stratum preview FILE.gcode --layer N -o layer.png`: one layer drawn as a PNG, to look at our
// layers next to CuraEngine's and PrusaSlicer's (it reads all three dialects).
import { basename } from 'node:path';
import { parseCommandArgs } from './parse-command-args.js';
import { PNG } from 'pngjs';
import { writeFileAtomic } from './atomic-write.js';
import { refuseToReplaceInput } from './same-file.js';
import { readInputFile } from './read-input.js';
import { CliError, EXIT_OK, UsageError, writeError } from './errors.js';
import { readGcodeLayer } from './gcode-reader.js';
import { MAX_SPAN_MM, renderLayer } from './layer-render.js';

export const PREVIEW_USAGE = `usage: stratum preview GCODE --layer N -o PNG [options]

Draws one layer of a G-code file (Stratum, CuraEngine or PrusaSlicer) as a PNG: extrusions
coloured by feature type at the bead's width, travels as thin grey lines, a legend below.

options:
  -l, --layer N          layer to draw: the number after ;LAYER: (PrusaSlicer files: counted from 0)
  -o, --output PNG       image to write
      --size PX          width of the drawing in pixels (default 800; the legend adds a strip below)
      --line-width MM    bead width to draw where the file cannot say (default 0.4)
      --filament-diameter MM
                         filament the file was made for (default: what the file says, else
                         1.75); each bead is drawn as wide as the filament it feeds fills
      --fixed-width      draw every bead --line-width wide instead
      --view X0,Y0,X1,Y1 area to show in mm (default: the layer's printed bounds); give several
                         files the same view to compare them side by side
      --no-travels       leave travel moves out
  -h, --help             this text
`;

function parseNumber(flag: string, text: string, min: number, max: number): number {
  const v = Number(text);
  if (!Number.isFinite(v) || v < min || v > max) throw new UsageError(`${flag} must be a number from ${min} to ${max}, got "${text}"`, 'preview');
  return v;
}

function parseView(text: string): [number, number, number, number] {
  const parts = text.split(',').map((p) => Number(p.trim()));
  if (parts.length !== 4 || parts.some((v) => !Number.isFinite(v)) || parts[2] <= parts[0] || parts[3] <= parts[1]) {
    throw new UsageError(`--view expects X0,Y0,X1,Y1 in mm with X1 > X0 and Y1 > Y0, got "${text}"`, 'preview');
  }
  // the drawing's own limit (layer-render.ts): a wider view is the option's fault, not the G-code's
  if (Math.max(parts[2]! - parts[0]!, parts[3]! - parts[1]!) > MAX_SPAN_MM) {
    throw new UsageError(`--view may span at most ${MAX_SPAN_MM} mm (a printer's bed is far smaller), got "${text}"`, 'preview');
  }
  return parts as [number, number, number, number];
}

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs({
    args: argv,
    allowPositionals: true,
    options: {
      layer: { type: 'string', short: 'l' },
      output: { type: 'string', short: 'o' },
      size: { type: 'string' },
      'line-width': { type: 'string' },
      'filament-diameter': { type: 'string' },
      'fixed-width': { type: 'boolean' },
      view: { type: 'string' },
      'no-travels': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(PREVIEW_USAGE);
    return EXIT_OK;
  }
  if (positionals.length !== 1) throw new UsageError(positionals.length ? 'one G-code file at a time' : 'missing GCODE', 'preview');
  if (values.layer === undefined) throw new UsageError('missing --layer N', 'preview');
  if (!values.output) throw new UsageError('missing -o PNG', 'preview');
  if (!/^-?\d+$/.test(values.layer.trim())) throw new UsageError(`--layer must be a whole number, got "${values.layer}"`, 'preview');
  const layerNumber = parseInt(values.layer, 10);
  const size = Math.round(parseNumber('--size', values.size ?? '800', 64, 8192));
  const lineWidth = parseNumber('--line-width', values['line-width'] ?? '0.4', 0.01, 10);
  const view = values.view !== undefined ? parseView(values.view) : undefined;

  const file = positionals[0];
  await refuseToReplaceInput(values.output, file);
  const text = (await readInputFile(file)).toString('utf8');
  const scan = readGcodeLayer(text, layerNumber);
  const filamentDiameter = values['fixed-width']
    ? undefined
    : values['filament-diameter'] !== undefined
      ? parseNumber('--filament-diameter', values['filament-diameter'], 0.5, 5)
      : (scan.filamentDiameter ?? 1.75);
  if (!scan.layer) {
    const nums = scan.layerNumbers;
    if (nums.length === 0) throw new CliError(`${file}: no layers found (is it G-code?)`);
    throw new CliError(`${file}: no layer ${layerNumber}; layers run from ${Math.min(...nums)} to ${Math.max(...nums)}`);
  }
  if (scan.layer.extrusions.length === 0 && scan.layer.travels.length === 0 && !view) {
    throw new CliError(`${file}: layer ${layerNumber} has no moves to draw`);
  }
  const { canvas } = renderLayer(scan.layer, {
    size,
    lineWidth,
    ...(filamentDiameter !== undefined ? { filamentDiameter } : {}),
    view,
    travels: !values['no-travels'],
    caption: basename(file),
  });
  const png = new PNG({ width: canvas.width, height: canvas.height });
  png.data = Buffer.from(canvas.data.buffer, canvas.data.byteOffset, canvas.data.byteLength);
  try {
    await writeFileAtomic(values.output, PNG.sync.write(png));
  } catch (err) {
    throw writeError(values.output, err);
  }
  return EXIT_OK;
}
