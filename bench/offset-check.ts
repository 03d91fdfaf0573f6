// Checks the direct miter offsets (src/engine/geom/miter-offset.ts) against Clipper2 on real slices:
// slices each model in-process with the default profile and has every miter offset also made by
// Clipper2. Per model: how many offsets went to Clipper2 anyway, and how far the direct answers are
// from Clipper2's (the area between them over the perimeter, µm: rounding of the points gives well
// under 1.5), and how many answers have another number of loops (a neck under a µm wide that
// Clipper2's rounding splits in two and the direct path keeps whole). Exits 1 if any answer is
// farther from Clipper2's than rounding explains.
//
//   node dist/bench/offset-check.js [MODEL …]     (default: the STL models in ../shared/models)
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { areaOf } from '../src/engine/geom/path-math.js';
import { observeMiterOffsets, xor } from '../src/engine/geom/clipper.js';
import type { Paths } from '../src/engine/types.js';
import { sliceInProcess } from '../src/cli/slice-in-process.js';
import { resolveSettings } from '../src/profiles/index.js';

/** Above this band (µm) an answer counts as different from Clipper2's. */
const BAND_UM = 1.5;

export interface OffsetCheck {
  calls: number;
  /** offsets the direct path left to Clipper2 */
  toClipper: number;
  /** widest band between a direct answer and Clipper2's, µm */
  worstBandUm: number;
  /** direct answers more than BAND_UM from Clipper2's */
  different: number;
  /** direct answers with another number of loops than Clipper2's */
  otherLoops: number;
}

function perimeter(paths: Paths): number {
  let l = 0;
  for (const p of paths) {
    for (let i = 0; i < p.length; i += 2) {
      const j = (i + 2) % p.length;
      l += Math.hypot(p[j] - p[i], p[j + 1] - p[i + 1]);
    }
  }
  return l;
}

export async function checkOffsets(modelFile: string): Promise<OffsetCheck> {
  const figures: OffsetCheck = { calls: 0, toClipper: 0, worstBandUm: 0, different: 0, otherLoops: 0 };
  observeMiterOffsets((_paths, _delta, _limit, direct, clipper) => {
    figures.calls++;
    if (direct === null) {
      figures.toClipper++;
      return;
    }
    const band = Math.abs(areaOf(xor(direct, clipper))) / Math.max(1, perimeter(clipper));
    figures.worstBandUm = Math.max(figures.worstBandUm, band);
    if (band > BAND_UM) figures.different++;
    if (direct.length !== clipper.length) figures.otherLoops++;
  });
  try {
    const { settings } = resolveSettings({});
    await sliceInProcess(new Uint8Array(readFileSync(modelFile)), basename(modelFile), settings, {});
  } finally {
    observeMiterOffsets(null);
  }
  return figures;
}

async function main(argv: string[]): Promise<number> {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const modelsDir = resolve(process.env.STRATUM_SHARED ?? join(root, '..', 'shared'), 'models');
  const files = argv.length > 0 ? argv : readdirSync(modelsDir).filter((f) => f.endsWith('.stl')).sort().map((f) => join(modelsDir, f));
  let different = 0;
  process.stdout.write('model                          offsets  to Clipper2  worst band µm  different  other loops\n');
  for (const f of files) {
    const c = await checkOffsets(f);
    different += c.different;
    const share = c.calls > 0 ? `${((100 * c.toClipper) / c.calls).toFixed(1)} %` : '-';
    process.stdout.write(
      `${basename(f).padEnd(30)} ${String(c.calls).padStart(7)}  ${share.padStart(11)}  ${c.worstBandUm.toFixed(3).padStart(13)}  ${String(c.different).padStart(9)}  ${String(c.otherLoops).padStart(11)}\n`,
    );
  }
  return different > 0 ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then((code) => process.exit(code));
}
