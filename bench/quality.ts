// The shared, independent quality figures (quality/gcode_quality.py) for one G-code file.
import { spawnSync } from 'node:child_process';

export interface QualityFigures {
  wall_cov: number | null;
  solid_cov: number | null;
  spill: number | null;
  dev_mm: number | null;
  open_exits: number | null;
  travels: number | null;
  [key: string]: unknown;
}

/** A python3 that has shapely and numpy (the tool's needs), or null. Debian's first: the tool's shebang. */
export function findQualityPython(): string | null {
  for (const py of ['/usr/bin/python3', 'python3']) {
    const r = spawnSync(py, ['-c', 'import shapely, numpy'], { stdio: 'ignore' });
    if (r.status === 0) return py;
  }
  return null;
}

export function runQuality(python: string, script: string, modelStl: string, gcode: string): QualityFigures | { error: string } {
  const r = spawnSync(python, [script, modelStl, gcode, '--center', '110,110'], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const last = (r.stdout ?? '').trim().split('\n').pop() ?? '';
  try {
    const parsed = JSON.parse(last) as QualityFigures & { error?: string };
    if (parsed.error) return { error: parsed.error };
    return parsed;
  } catch {
    return { error: (r.stderr ?? '').trim().split('\n').pop() || `exit ${r.status}` };
  }
}
