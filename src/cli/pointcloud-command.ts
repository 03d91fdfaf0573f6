// `stratum pointcloud --dims nx,ny,nz --hardness EXPR -o FILE.pcsv`: a PC_SV shore-value file from a
// grid and a hardness function of the voxel centre (x, y, z each 0…1 across the modifier's box).
import { ExpressionError, parseHardness, type Hardness } from './hardness-expression.js';
import { parseCommandArgs } from './parse-command-args.js';
import { encodePointCloud, MAX_VOXELS } from '../service/workspace/point-cloud.js';
import { writeFileAtomic } from './atomic-write.js';
import { CliError, EXIT_OK, UsageError, writeError } from './errors.js';

export const POINTCLOUD_USAGE = `usage: stratum pointcloud --dims NX,NY,NZ --hardness EXPR -o FILE.pcsv

Writes a PC_SV file: NX·NY·NZ little-endian doubles, x-major, z fastest. Each value is the Shore
hardness at a voxel centre, computed by EXPR from x, y, z (each 0…1 across the grid's box, which
is the bounding box of the modifier whose FileReference names the file). EXPR is arithmetic in
JavaScript's syntax: numbers, x, y, z, operators, comparisons, ?: and Math's functions and constants
without "Math." (min, max, sin, abs, PI, …); nothing else (no strings, brackets or other names).

options:
  -d, --dims NX,NY,NZ      voxel counts along x, y, z (the task's arrayDimensions)
  -H, --hardness EXPR      e.g. "85 + 10*x" (harder to the right), "x < 0.5 ? 90 : 60"
  -o, --output FILE        the PC_SV file to write
  -h, --help               this text
`;

export function hardnessFunction(expr: string): (x: number, y: number, z: number) => number {
  let fn: Hardness;
  try {
    fn = parseHardness(expr);
  } catch (err) {
    if (!(err instanceof ExpressionError)) throw err;
    throw new UsageError(`--hardness "${expr}": ${err.message}`, 'pointcloud');
  }
  return (x, y, z) => {
    const v = fn(x, y, z);
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw new CliError(`--hardness "${expr}" gives ${String(v)} at x=${x}, y=${y}, z=${z}: not a finite number`);
    }
    return v;
  };
}

export function parseDims(text: string): [number, number, number] {
  const d = text.split(',').map(Number);
  if (d.length !== 3 || !d.every((n) => Number.isInteger(n) && n > 0)) {
    throw new UsageError(`--dims ${text}: expected three positive whole numbers NX,NY,NZ`, 'pointcloud');
  }
  if (d[0]! * d[1]! * d[2]! > MAX_VOXELS) throw new UsageError(`--dims ${text}: more than ${MAX_VOXELS} voxels`, 'pointcloud');
  return [d[0]!, d[1]!, d[2]!];
}

/** The grid's values in PC_SV order, sampled at voxel centres. */
export function sampleGrid(dims: [number, number, number], f: (x: number, y: number, z: number) => number): Float64Array {
  const [nx, ny, nz] = dims;
  const out = new Float64Array(nx * ny * nz);
  let i = 0;
  for (let ix = 0; ix < nx; ix++) {
    for (let iy = 0; iy < ny; iy++) {
      for (let iz = 0; iz < nz; iz++) out[i++] = f((ix + 0.5) / nx, (iy + 0.5) / ny, (iz + 0.5) / nz);
    }
  }
  return out;
}

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs({
    args: argv,
    allowPositionals: true,
    options: {
      dims: { type: 'string', short: 'd' },
      hardness: { type: 'string', short: 'H' },
      output: { type: 'string', short: 'o' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(POINTCLOUD_USAGE);
    return EXIT_OK;
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`, 'pointcloud');
  if (!values.dims) throw new UsageError('missing --dims NX,NY,NZ', 'pointcloud');
  if (!values.hardness) throw new UsageError('missing --hardness EXPR', 'pointcloud');
  if (!values.output) throw new UsageError('missing -o FILE.pcsv', 'pointcloud');
  const dims = parseDims(values.dims);
  const grid = sampleGrid(dims, hardnessFunction(values.hardness));
  try {
    await writeFileAtomic(values.output, encodePointCloud(grid));
  } catch (err) {
    throw writeError(values.output, err);
  }
  let lo = Infinity, hi = -Infinity;
  for (const v of grid) {
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  process.stderr.write(`${values.output}: ${dims.join('×')} values (${grid.length * 8} bytes), hardness ${lo}…${hi}\n`);
  return EXIT_OK;
}
