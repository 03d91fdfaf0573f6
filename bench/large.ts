// The generated large meshes (large-mesh.ts), closed and open, sliced whole-process by every slicer
// in the same rounds as each other: what a fine scan costs in time and memory, and whether the open
// one prints the surface the closed one has (quality measured against the closed sphere for both).
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { measure, median } from './measure.js';
import type { SlicerName } from './engine-bench.js';
import { runQuality, type QualityFigures } from './quality.js';
import { wavySphereStl } from './large-mesh.js';

/** Rings of the generated sphere: 700 gives 1,957,200 triangles, 98 MB of STL. */
const RINGS = 700;

export interface LargeMeshFigures {
  triangles: number;
  megabytes: number;
  /** median wall s and peak RSS MiB per slicer over min(runs, 2) runs (null: it failed; error says how) */
  slicers: Partial<Record<SlicerName, { wallS: number | null; rssMiB: number | null; error?: string }>>;
  quality: QualityFigures | { error: string } | null;
}

export type LargeFigures = Record<string, LargeMeshFigures>;

export async function measureLarge(
  stratumBin: string,
  peers: SlicerName[],
  peersDir: string,
  outDir: string,
  runs: number,
  quality: { python: string; script: string } | null,
): Promise<LargeFigures> {
  const closed = join(outDir, 'large-sphere.stl');
  const open = join(outDir, 'large-sphere-open.stl');
  const meshes: Record<string, string> = { 'sphere, closed': closed, 'sphere, open down one side': open };
  const sizes: Record<string, { triangles: number; megabytes: number }> = {};
  const figures: LargeFigures = {};
  try {
    for (const path of [closed, open]) {
      const bytes = wavySphereStl(RINGS, path === open);
      writeFileSync(path, bytes);
      sizes[path] = { triangles: bytes.readUInt32LE(80), megabytes: bytes.length / 1e6 };
    }
    for (const [name, path] of Object.entries(meshes)) {
      const slicers: SlicerName[] = ['stratum', ...peers];
      const walls: Record<string, number[]> = {};
      const rss: Record<string, number[]> = {};
      const errors: Record<string, string> = {};
      const out = (s: SlicerName) => join(outDir, `${path === open ? 'large-open' : 'large'}.${s}.gcode`);
      // the peers take 6–11 s a run here and ours is a third of the faster: two runs tell enough
      for (let r = 0; r < Math.min(runs, 2); r++) {
        for (const s of slicers) {
          const m =
            s === 'stratum' ? await measure(stratumBin, ['slice', path, '-o', out(s), '--quiet']) : await measure(join(peersDir, `${s}.sh`), [path, out(s)]);
          if (!m.ok) {
            errors[s] = `exit ${m.exitCode}: ${m.stderr.split('\n').pop()}`;
            continue;
          }
          (walls[s] ??= []).push(m.wallS);
          if (m.rssMiB !== null) (rss[s] ??= []).push(m.rssMiB);
        }
      }
      const result: LargeMeshFigures = { ...sizes[path]!, slicers: {}, quality: null };
      for (const s of slicers) {
        result.slicers[s] = { wallS: median(walls[s] ?? []), rssMiB: median(rss[s] ?? []), ...(errors[s] ? { error: errors[s] } : {}) };
      }
      // both against the closed sphere: the open one should print the same surface
      if (quality && walls.stratum?.length) result.quality = runQuality(quality.python, quality.script, closed, out('stratum'));
      figures[name] = result;
    }
  } finally {
    rmSync(closed, { force: true });
    rmSync(open, { force: true });
  }
  return figures;
}
