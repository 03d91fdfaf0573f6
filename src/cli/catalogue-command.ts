// `stratum printers | filaments | qualities`: the preset catalogue as a table, or JSON with --json.
import { parseCommandArgs } from './parse-command-args.js';
import { listFilaments, listPrinters, listQualities } from '../profiles/index.js';
import { EXIT_OK, UsageError } from './errors.js';
import { fixed, formatTable } from './format.js';

type Preset = Record<string, unknown>;

/** A preset's field, looked up on the preset itself or in a nested `settings` object. */
function field(preset: Preset, ...keys: string[]): unknown {
  const nested = (preset.settings ?? preset.overrides) as Preset | undefined;
  for (const key of keys) {
    if (preset[key] !== undefined) return preset[key];
    if (nested && typeof nested === 'object' && nested[key] !== undefined) return nested[key];
  }
  return undefined;
}

const text = (v: unknown): string => (v === undefined || v === null || v === '' ? '-' : String(v));
const num = (v: unknown, decimals = 0): string => (typeof v === 'number' ? fixed(v, decimals) : text(v));

const aliases = (p: Preset) => (Array.isArray(p.aliases) && p.aliases.length ? p.aliases.join(', ') : '-');

interface Column {
  title: string;
  cell(p: Preset): string;
}

const PRINTER_COLUMNS: Column[] = [
  { title: 'name', cell: (p) => text(p.name) },
  {
    title: 'bed mm',
    cell: (p) => [field(p, 'bedWidth'), field(p, 'bedDepth'), field(p, 'bedHeight')].map((v) => num(v)).join('×'),
  },
  { title: 'nozzle', cell: (p) => num(field(p, 'nozzleDiameter'), 2) },
  { title: 'max °C', cell: (p) => num(field(p, 'maxNozzleTemperature')) },
  { title: 'flavour', cell: (p) => text(field(p, 'gcodeFlavor')) },
  { title: 'format', cell: (p) => text(field(p, 'outputFormat')) },
  { title: 'heated bed', cell: (p) => { const v = field(p, 'heatedBed'); return v === undefined ? '-' : v ? 'yes' : 'no'; } },
  { title: 'aliases', cell: aliases },
];

const FILAMENT_COLUMNS: Column[] = [
  { title: 'name', cell: (p) => text(p.name) },
  { title: 'material', cell: (p) => text(field(p, 'material', 'type')) },
  {
    title: 'diameter',
    cell: (p) => {
      const d = field(p, 'diameters', 'filamentDiameter', 'diameter');
      return Array.isArray(d) ? d.map((v) => num(v, 2)).join('/') : num(d, 2);
    },
  },
  { title: 'nozzle °C', cell: (p) => num(field(p, 'nozzleTemperature')) },
  { title: 'bed °C', cell: (p) => num(field(p, 'bedTemperature')) },
  { title: 'g/cm³', cell: (p) => num(field(p, 'filamentDensity', 'density'), 2) },
  {
    title: 'shore table',
    cell: (p) => {
      const table = field(p, 'shoreToDensity');
      return Array.isArray(table) && table.length ? `${table.length} points, Shore ${text(field(p, 'shoreScale'))}` : '-';
    },
  },
  { title: 'aliases', cell: aliases },
];

/** Quality presets scale with the nozzle: shown here for the common 0.4 mm one. */
const NOZZLE = 0.4;
const QUALITY_COLUMNS: Column[] = [
  { title: 'name', cell: (p) => text(p.name) },
  {
    title: 'layer mm (0.4 nozzle)',
    cell: (p) => {
      const f = field(p, 'layerHeightFactor');
      return typeof f === 'number' ? fixed(f * NOZZLE, 2) : num(field(p, 'layerHeight'), 2);
    },
  },
  { title: 'shell mm', cell: (p) => num(field(p, 'shellThickness'), 1) },
  {
    title: 'speed',
    cell: (p) => {
      const f = field(p, 'speedFactor');
      return typeof f === 'number' ? `${Math.round(f * 100)}%` : '-';
    },
  },
  { title: 'description', cell: (p) => text(p.description) },
  { title: 'aliases', cell: aliases },
];

function catalogueRun(what: string, list: () => readonly unknown[], columns: Column[]) {
  return async (argv: string[]): Promise<number> => {
    const { values, positionals } = parseCommandArgs({
      args: argv,
      allowPositionals: true,
      options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    });
    if (values.help) {
      process.stdout.write(`usage: stratum ${what} [--json]\n\nLists the ${what} presets (name first); --json prints them whole.\n`);
      return EXIT_OK;
    }
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`, what);
    const presets = list() as Preset[];
    if (values.json) {
      process.stdout.write(JSON.stringify(presets, null, 2) + '\n');
      return EXIT_OK;
    }
    // Drop columns no preset fills, so that a thinner catalogue still prints a tidy table.
    const used = columns.filter((c, i) => i === 0 || presets.some((p) => !/^[-×/]+$/.test(c.cell(p))));
    process.stdout.write(formatTable(used.map((c) => c.title), presets.map((p) => used.map((c) => c.cell(p)))));
    return EXIT_OK;
  };
}

export const runPrinters = catalogueRun('printers', listPrinters, PRINTER_COLUMNS);
export const runFilaments = catalogueRun('filaments', listFilaments, FILAMENT_COLUMNS);
export const runQualities = catalogueRun('qualities', listQualities, QUALITY_COLUMNS);
