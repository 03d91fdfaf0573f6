// Test helpers for the support and raft tests: slice small meshes and read the G-code back as
// extrusion segments by feature type and layer height.
import { slice, type PipelineOptions } from '../src/engine/pipeline.js';
import { defaultSettings } from '../src/profiles/defaults.js';
import type { SliceSettings } from '../src/engine/settings.js';
import type { SliceResult } from '../src/engine/types.js';
import { merge, type TestMesh } from './mesh-fixtures.js';

/** One extruding move: from (x0, y0) to (x1, y1) at height z, mm. */
export interface Extrusion {
  type: string;
  z: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** filament fed, mm */
  e: number;
}

export async function sliceMeshes(
  meshes: TestMesh[],
  overrides: Partial<SliceSettings>,
  options: PipelineOptions = {},
): Promise<{ result: SliceResult; moves: Extrusion[]; text: string }> {
  const m = merge(...meshes);
  const mesh = { positions: Float32Array.from(m.positions), indices: Uint32Array.from(m.indices) };
  const result = await slice([{ name: 'part', mesh }], defaultSettings(overrides), options);
  const text = new TextDecoder().decode(result.output);
  return { result, moves: extrusions(text), text };
}

/** Every extruding XY move of a G-code text with its ;TYPE: (absolute or relative E). */
export function extrusions(text: string): Extrusion[] {
  let x = 0, y = 0, z = 0, e = 0, rel = false, type = '';
  const out: Extrusion[] = [];
  for (const raw of text.split('\n')) {
    if (raw.startsWith(';TYPE:')) type = raw.slice(6).trim();
    const line = raw.split(';', 1)[0].trim();
    if (line === 'M83') rel = true;
    if (line === 'M82') rel = false;
    if (line.startsWith('G92')) for (const w of line.split(/\s+/)) if (w[0] === 'E') e = Number(w.slice(1));
    if (!/^G[01]\b/.test(line)) continue;
    let nx = x, ny = y, nz = z, ne = e;
    for (const w of line.split(/\s+/).slice(1)) {
      const v = Number(w.slice(1));
      if (w[0] === 'X') nx = v;
      if (w[0] === 'Y') ny = v;
      if (w[0] === 'Z') nz = v;
      if (w[0] === 'E') ne = rel ? e + v : v;
    }
    if (ne > e + 1e-9 && (nx !== x || ny !== y)) out.push({ type, z: nz, x0: x, y0: y, x1: nx, y1: ny, e: ne - e });
    x = nx;
    y = ny;
    z = nz;
    e = ne;
  }
  return out;
}

/** Distance from point (px, py) to the axis-aligned box [x0, x1] × [y0, y1] (0 inside). */
export function boxDistance(px: number, py: number, b: { x0: number; y0: number; x1: number; y1: number }): number {
  const dx = Math.max(b.x0 - px, 0, px - b.x1);
  const dy = Math.max(b.y0 - py, 0, py - b.y1);
  return Math.hypot(dx, dy);
}

/** Points every 0.1 mm along an extrusion (its ends included). */
export function samples(m: Extrusion): Array<[number, number]> {
  const n = Math.max(1, Math.ceil(Math.hypot(m.x1 - m.x0, m.y1 - m.y0) / 0.1));
  const out: Array<[number, number]> = [];
  for (let i = 0; i <= n; i++) out.push([m.x0 + ((m.x1 - m.x0) * i) / n, m.y0 + ((m.y1 - m.y0) * i) / n]);
  return out;
}
