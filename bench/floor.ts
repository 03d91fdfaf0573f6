// The fixed cost of a slicing process, measured beside the models: what a run costs before the
// model matters. `node -e 0` is the runtime's own start (where the environment sets
// NODE_EXTRA_CA_CERTS, also without it: Node parses that file before any script runs, and
// `stratum slice` runs without it); each slicer on a 1 mm cube (five layers) is its start-up plus
// next to no slicing. On a small model the whole-process ratio against a native peer is mostly this
// difference, so the bench prints it to tell start-up from engine speed.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { measure, median } from './measure.js';
import type { SlicerName } from './engine-bench.js';

export interface FloorFigures {
  /** `node -e 0`, median wall s */
  nodeS: number | null;
  /**
   * `node -e 0` without NODE_EXTRA_CA_CERTS, measured when the environment sets it: Node loads that
   * file as it starts, and `stratum slice` runs without it (bin/stratum)
   */
  nodeNoExtraCertsS?: number | null;
  /** each slicer on the 1 mm cube, median wall s */
  tinyCubeS: Partial<Record<SlicerName, number | null>>;
}

/** A 1 mm cube as ASCII STL: 12 triangles, outward normals. */
export function tinyCubeStl(): string {
  const v = (x: number, y: number, z: number) => `${x} ${y} ${z}`;
  const quads: Array<[number[], number[], number[], number[]]> = [
    [[0, 0, 0], [0, 1, 0], [1, 1, 0], [1, 0, 0]], // bottom, facing -z
    [[0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]], // top
    [[0, 0, 0], [1, 0, 0], [1, 0, 1], [0, 0, 1]], // front, -y
    [[0, 1, 0], [0, 1, 1], [1, 1, 1], [1, 1, 0]], // back
    [[0, 0, 0], [0, 0, 1], [0, 1, 1], [0, 1, 0]], // left, -x
    [[1, 0, 0], [1, 1, 0], [1, 1, 1], [1, 0, 1]], // right
  ];
  const lines = ['solid tiny_cube'];
  for (const [a, b, c, d] of quads) {
    for (const tri of [[a, b, c], [a, c, d]]) {
      lines.push('  facet normal 0 0 0', '    outer loop');
      for (const p of tri) lines.push(`      vertex ${v(p[0]!, p[1]!, p[2]!)}`);
      lines.push('    endloop', '  endfacet');
    }
  }
  lines.push('endsolid tiny_cube', '');
  return lines.join('\n');
}

/**
 * Round-robin like the models: `node -e 0`, then each slicer on the 1 mm cube, `runs` times.
 * `commandOf` gives a slicer's command and arguments for a model and an output file.
 */
export async function measureFloor(
  runs: number,
  slicers: SlicerName[],
  outDir: string,
  commandOf: (s: SlicerName, model: string, out: string) => [string, string[]],
): Promise<FloorFigures> {
  const model = join(outDir, 'tiny_cube.stl');
  writeFileSync(model, tinyCubeStl());
  const node: number[] = [];
  const nodeNoCerts: number[] = [];
  const withoutCerts = process.env.NODE_EXTRA_CA_CERTS ? { ...process.env, NODE_EXTRA_CA_CERTS: undefined } : null;
  const tiny: Partial<Record<SlicerName, number[]>> = {};
  for (let r = 0; r < runs; r++) {
    const m = await measure(process.execPath, ['-e', '0']);
    if (m.ok) node.push(m.wallS);
    if (withoutCerts) {
      const n = await measure(process.execPath, ['-e', '0'], { env: withoutCerts });
      if (n.ok) nodeNoCerts.push(n.wallS);
    }
    for (const s of slicers) {
      const [cmd, args] = commandOf(s, model, join(outDir, `tiny_cube.${s}.gcode`));
      const t = await measure(cmd, args);
      if (t.ok) (tiny[s] ??= []).push(t.wallS);
    }
  }
  const tinyCubeS: FloorFigures['tinyCubeS'] = {};
  for (const s of slicers) tinyCubeS[s] = median(tiny[s] ?? []);
  const figures: FloorFigures = { nodeS: median(node), tinyCubeS };
  if (withoutCerts) figures.nodeNoExtraCertsS = median(nodeNoCerts);
  return figures;
}
