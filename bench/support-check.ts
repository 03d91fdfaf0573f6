// Support figures of a G-code file against the model it was sliced from (ours, CuraEngine's or
// PrusaSlicer's: features by their ;TYPE: comments). The model is centred on the bed as the slicers
// centre a lone STL (bounding-box centre at the bed centre, lowest point at z = 0, raised by --zoffset).
//
//   node dist/bench/support-check.js MODEL.stl OUT.gcode [--angle 50] [--xy 0.8] [--zgap 1] [--zoffset MM] [--json] [--rows]
//   (--rows: also a line for every layer with more than 0.5 mm² of unsupported overhang)
//
// Figures (every model layer):
//   overhang_mm2     area of the layers' overhangs beyond the angle (the layer minus the layer below
//                    grown by h·tan(angle))
//   supported        share of that area with support extrusion under it: support beads on the 1 to
//                    zgap + 2 layers below, each bead counted as covering half a support line spacing
//                    (1.5 mm) around it, since support is sparse
//   support_mm       support extrusion length (SUPPORT and SUPPORT-INTERFACE kinds)
//   near_part_mm     support extrusion whose centre line lies inside the part or closer to it than the
//                    XY distance minus 0.2 mm (the tolerance: bead half-width rounding and slicing)
//   inside_part_mm   the part of that inside the part itself
//   on_model_mm      support extrusion above the model's footprint (the union of every model layer
//                    below, shrunk by 0.2 mm): 'buildplate' support must have none
import { readFileSync } from 'node:fs';
import { initGeometry, clipLines, offset, difference, intersection, offsetOpen, simplify, unionWith } from '../src/engine/geom/clipper.js';
import { areaOf } from '../src/engine/geom/path-math.js';
import { parseModel } from '../src/engine/mesh/index.js';
import { placeModels } from '../src/engine/setup/place.js';
import { sliceMesh } from '../src/engine/layers/index.js';
import { defaultSettings } from '../src/profiles/defaults.js';
import type { Paths } from '../src/engine/types.js';

interface Seg {
  z: number;
  support: boolean;
  pts: number[];
}

const SUPPORT_TYPES = /^(SUPPORT|SUPPORT-INTERFACE|Support material|Support material interface|SUPPORT_INTERFACE|Support|Support interface)$/;
const EXCLUDED = /^(SKIRT|Skirt|Skirt\/Brim|BRIM|Brim|RAFT|Raft|PRIME-TOWER|Wipe tower)$/;

/** Extruding XY moves grouped into polylines, with their feature kind and z (µm). */
function readGcode(text: string): { segs: Seg[]; modelZs: number[] } {
  let x = 0, y = 0, z = 0, e = 0;
  let relE = false;
  let type = '';
  const segs: Seg[] = [];
  let cur: Seg | null = null;
  const modelZ = new Set<number>();
  for (const raw of text.split('\n')) {
    if (raw.startsWith(';TYPE:')) {
      type = raw.slice(6).trim();
      cur = null;
      continue;
    }
    const line = raw.split(';', 1)[0].trim();
    if (line === '') continue;
    const word = line.split(/\s+/);
    const g = word[0];
    if (g === 'M82') relE = false;
    else if (g === 'M83') relE = true;
    else if (g === 'G92') {
      for (const w of word.slice(1)) if (w[0] === 'E') e = Number(w.slice(1));
    } else if (g === 'G0' || g === 'G1') {
      let nx = x, ny = y, nz = z, ne = e;
      let hasE = false;
      for (const w of word.slice(1)) {
        const v = Number(w.slice(1));
        if (w[0] === 'X') nx = v;
        else if (w[0] === 'Y') ny = v;
        else if (w[0] === 'Z') nz = v;
        else if (w[0] === 'E') {
          ne = relE ? e + v : v;
          hasE = true;
        }
      }
      const extruding = hasE && ne > e + 1e-6 && (nx !== x || ny !== y);
      if (nz !== z || !extruding) cur = null;
      if (extruding && !EXCLUDED.test(type)) {
        const zu = Math.round(nz * 1000);
        const support = SUPPORT_TYPES.test(type);
        if (!support) modelZ.add(zu);
        if (!cur) {
          cur = { z: zu, support, pts: [Math.round(x * 1000), Math.round(y * 1000)] };
          segs.push(cur);
        }
        cur.pts.push(Math.round(nx * 1000), Math.round(ny * 1000));
      }
      x = nx;
      y = ny;
      z = nz;
      e = ne;
    }
  }
  return { segs, modelZs: [...modelZ].sort((a, b) => a - b) };
}

function lengthOf(paths: Paths): number {
  let len = 0;
  for (const p of paths) for (let i = 2; i < p.length; i += 2) len += Math.hypot(p[i] - p[i - 2], p[i + 1] - p[i - 1]);
  return len;
}

function arg(name: string, def: number): number {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : def;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const [modelFile, gcodeFile] = args.filter((a, i) => !a.startsWith('--') && !(i > 0 && args[i - 1].startsWith('--') && args[i - 1] !== '--json'));
  if (!modelFile || !gcodeFile) {
    console.error('usage: support-check MODEL.stl OUT.gcode [--angle 50] [--xy 0.8] [--zgap 1] [--zoffset MM] [--json]');
    process.exit(2);
  }
  const angle = arg('--angle', 50);
  const xy = Math.round(arg('--xy', 0.8) * 1000);
  const zgap = arg('--zgap', 1);
  const zoffset = Math.round(arg('--zoffset', 0) * 1000);
  const rows = process.argv.includes('--rows');
  await initGeometry();
  const { mesh } = parseModel(readFileSync(modelFile), modelFile);
  const { placed } = placeModels([{ name: 'm', mesh }], defaultSettings());
  const { segs, modelZs } = readGcode(readFileSync(gcodeFile, 'utf8'));
  // the part's layers: z of every layer with model extrusion; each cut through its middle
  const heights = modelZs.map((z, i) => z - (i === 0 ? zoffset : modelZs[i - 1]));
  const outlines = sliceMesh(placed[0].positions, placed[0].indices, modelZs.map((z, i) => z - zoffset - heights[i] / 2));
  const supportByZ = new Map<number, Paths>();
  for (const s of segs) if (s.support) (supportByZ.get(s.z) ?? supportByZ.set(s.z, []).get(s.z)!).push(s.pts);
  const supportZs = [...supportByZ.keys()].sort((a, b) => a - b);
  const tan = Math.tan((angle * Math.PI) / 180);
  let overhang = 0, supported = 0, supportLen = 0, near = 0, inside = 0, onModel = 0;
  let footprint: Paths = [];
  for (let i = 0; i < modelZs.length; i++) {
    const z = modelZs[i];
    const L = outlines[i] ?? [];
    if (i > 0 && L.length > 0) {
      const below = outlines[i - 1] ?? [];
      const o = difference(L, below.length ? offset(below, heights[i] * tan) : []);
      const oa = areaOf(o);
      if (oa > 0) {
        const lines: Paths = [];
        const lo = z - (zgap + 2) * heights[i] - 20;
        for (const sz of supportZs) if (sz < z - 20 && sz >= lo) lines.push(...supportByZ.get(sz)!);
        const cover = lines.length ? offsetOpen(lines, 1500, 'round', 'round', 50) : [];
        const sa = cover.length ? areaOf(intersection(o, cover)) : 0;
        overhang += oa;
        supported += sa;
        if (rows && oa - sa > 0.5e6) console.log(`layer ${i} z ${(z / 1000).toFixed(2)}: overhang ${(oa / 1e6).toFixed(1)} mm², unsupported ${((oa - sa) / 1e6).toFixed(1)} mm²`);
      }
    }
    // support on this layer: by z, between this model layer and the next (support may print at its own heights)
    const next = i + 1 < modelZs.length ? modelZs[i + 1] : Infinity;
    const mine: Paths = [];
    for (const sz of supportZs) if (sz >= z && sz < next) mine.push(...supportByZ.get(sz)!);
    if (mine.length > 0) {
      supportLen += lengthOf(mine);
      if (L.length > 0) {
        near += lengthOf(clipLines(mine, offset(L, xy - 200, 'round', 2, 10)));
        inside += lengthOf(clipLines(mine, L));
      }
      if (footprint.length > 0) onModel += lengthOf(clipLines(mine, offset(footprint, -200)));
    }
    if (L.length > 0) footprint = simplify(unionWith(footprint, L), 20);
  }
  // support printed below the first model layer (on a raft, or on its own heights) counts in the total
  for (const sz of supportZs) if (sz < (modelZs[0] ?? 0)) supportLen += lengthOf(supportByZ.get(sz)!);
  const out = {
    file: gcodeFile,
    layers: modelZs.length,
    overhang_mm2: +(overhang / 1e6).toFixed(1),
    supported: overhang > 0 ? +(supported / overhang).toFixed(3) : null,
    support_mm: +(supportLen / 1000).toFixed(0),
    near_part_mm: +(near / 1000).toFixed(1),
    inside_part_mm: +(inside / 1000).toFixed(1),
    on_model_mm: +(onModel / 1000).toFixed(1),
  };
  console.log(process.argv.includes('--json') ? JSON.stringify(out) : Object.entries(out).map(([k, v]) => `${k.padEnd(15)} ${v}`).join('\n'));
}

await main();
