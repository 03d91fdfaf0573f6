// A small G-code reader for the layer preview: follows G0/G1 (and G2/G3 arcs), absolute and
// relative XYZ and E, G92, and the layer and feature comments of Stratum, CuraEngine
// (`;LAYER:n`, `;TYPE:WALL-OUTER`, `;BRIDGE`) and PrusaSlicer (`;LAYER_CHANGE`, `;Z:0.2`,
// `;TYPE:External perimeter`). Files without layer comments are split where extrusion
// moves up in Z. It keeps the moves of one requested layer only, so large files stay cheap.

export interface LayerMoves {
  /** the layer's number: `;LAYER:n` as written, else the count of layer changes from 0 */
  number: number;
  /** height of the layer's first extrusion (or PrusaSlicer's `;Z:`), mm; NaN if none */
  z: number;
  /** extrusions: flat [x0, y0, x1, y1, …] in mm, with the feature type of each in `extrusionTypes` */
  extrusions: number[];
  extrusionTypes: string[];
  /** filament each extrusion feeds, mm (an arc's share per chord) */
  extrusionE: number[];
  /** the layer's height: its z less the previous layer's (its z if it is the first), mm; NaN if unknown */
  height: number;
  /** travel moves: flat [x0, y0, x1, y1, …] in mm */
  travels: number[];
}

export interface GcodeScan {
  /** the requested layer, or null when the file has no such layer */
  layer: LayerMoves | null;
  /**
   * the filament's diameter as the file says it (PrusaSlicer's `; filament_diameter =`, or the ratio
   * of the trailer's `filament used [cm3]` and `[mm]`), mm; null if it does not
   */
  filamentDiameter: number | null;
  /** numbers of all layers found, in file order */
  layerNumbers: number[];
  /** how the layers were recognised */
  layerMarkers: 'cura' | 'prusa' | 'z';
}

type Markers = GcodeScan['layerMarkers'];

/** Largest angle per chord when an arc is turned into segments, radians. */
const ARC_STEP = Math.PI / 18;

export function readGcodeLayer(text: string, wanted: number): GcodeScan {
  // Which convention the file follows, decided up front: a purge line in the start G-code must not
  // be taken for a layer of its own.
  const markers: Markers = /^;LAYER:/m.test(text) ? 'cura' : /^;LAYER_CHANGE/m.test(text) ? 'prusa' : 'z';
  const layerNumbers: number[] = [];
  let current: LayerMoves | null = null;
  let found: LayerMoves | null = null;
  let prusaCount = 0;
  let type = '';
  // machine state
  let x = 0, y = 0, z = 0, e = 0;
  let relXYZ = false, relE = false, relEByM8x = false;
  // Z of the last layer started by extrusion height (files without comments)
  let zLayerTop = -Infinity;

  // the z of the layer before the current one (its first extrusion's), for the wanted layer's height
  let previousZ = NaN;
  const startLayer = (number: number) => {
    layerNumbers.push(number);
    if (current) previousZ = (current as LayerMoves).z;
    current = { number, z: NaN, extrusions: [], extrusionTypes: [], extrusionE: [], height: NaN, travels: [] };
    if (number === wanted && !found) {
      found = current;
      wantedAfterZ = layerNumbers.length === 1 ? 0 : previousZ;
    }
  };
  let wantedAfterZ = NaN;
  // Only the wanted layer keeps its moves; others are counted and dropped.
  const keep = () => current !== null && current === found;

  const segment = (x1: number, y1: number, extrude: boolean, de = 0) => {
    if (extrude && markers === 'z' && z > zLayerTop + 1e-4) {
      zLayerTop = z;
      startLayer(layerNumbers.length);
    }
    const layer = current as LayerMoves | null;
    if (layer === null) return;
    if (extrude && Number.isNaN(layer.z)) layer.z = z;
    if (!keep()) return;
    if (extrude) {
      layer.extrusions.push(x, y, x1, y1);
      layer.extrusionTypes.push(type);
      layer.extrusionE.push(de);
    } else {
      layer.travels.push(x, y, x1, y1);
    }
  };

  let pos = 0;
  const n = text.length;
  while (pos < n) {
    let end = text.indexOf('\n', pos);
    if (end < 0) end = n;
    const raw = text.slice(pos, end);
    pos = end + 1;
    let line = raw.trim();
    if (line.length === 0) continue;

    if (line.charCodeAt(0) === 59 /* ; */) {
      if (line.startsWith(';LAYER:')) {
        if (markers === 'cura') startLayer(parseInt(line.slice(7), 10));
      } else if (line.startsWith(';LAYER_CHANGE')) {
        if (markers === 'prusa') startLayer(prusaCount++);
      } else if (line.startsWith(';TYPE:')) {
        type = line.slice(6).trim();
      } else if (line === ';BRIDGE') {
        // Stratum marks bridge lines with `;BRIDGE` after their `;TYPE:SKIN`
        type = 'Bridge infill';
      } else if (line.startsWith(';Z:') && markers === 'prusa' && current) {
        (current as LayerMoves).z = parseFloat(line.slice(3));
      }
      continue;
    }
    const semi = line.indexOf(';');
    if (semi >= 0) line = line.slice(0, semi).trim();
    const words = line.split(/\s+/);
    const cmd = words[0].toUpperCase();
    if (cmd === 'G0' || cmd === 'G1' || cmd === 'G2' || cmd === 'G3') {
      let nx = x, ny = y, nz = z, de = 0, hasE = false, ci = 0, cj = 0;
      for (let w = 1; w < words.length; w++) {
        const word = words[w];
        const v = parseFloat(word.slice(1));
        if (Number.isNaN(v)) continue;
        switch (word.charCodeAt(0) | 0x20 /* lower case */) {
          case 120: nx = relXYZ ? x + v : v; break; // x
          case 121: ny = relXYZ ? y + v : v; break; // y
          case 122: nz = relXYZ ? z + v : v; break; // z
          case 101: de = relE ? v : v - e; hasE = true; e = relE ? e + v : v; break; // e
          case 105: ci = v; break; // i
          case 106: cj = v; break; // j
        }
      }
      z = nz;
      const moved = nx !== x || ny !== y;
      const extrude = hasE && de > 0 && moved;
      if (moved && (cmd === 'G2' || cmd === 'G3') && (ci !== 0 || cj !== 0)) {
        arc(x, y, nx, ny, x + ci, y + cj, cmd === 'G2', (ax, ay, share) => {
          segment(ax, ay, extrude, de * share);
          x = ax;
          y = ay;
        });
      } else if (moved) {
        segment(nx, ny, extrude, de);
      }
      x = nx;
      y = ny;
    } else if (cmd === 'G92') {
      for (let w = 1; w < words.length; w++) {
        const v = parseFloat(words[w].slice(1));
        if (Number.isNaN(v)) continue;
        const axis = words[w][0].toUpperCase();
        if (axis === 'E') e = v;
        else if (axis === 'X') x = v;
        else if (axis === 'Y') y = v;
        else if (axis === 'Z') z = v;
      }
    } else if (cmd === 'G90') {
      relXYZ = false;
      relE = relEByM8x;
    } else if (cmd === 'G91') {
      // Marlin: G91 makes every axis relative, E included.
      relXYZ = true;
      relE = true;
    } else if (cmd === 'M82') {
      relE = relEByM8x = false;
    } else if (cmd === 'M83') {
      relE = relEByM8x = true;
    } else if (cmd === 'G28') {
      const axes = words.slice(1).map((w) => w[0]?.toUpperCase());
      if (axes.length === 0 || axes.includes('X')) x = 0;
      if (axes.length === 0 || axes.includes('Y')) y = 0;
      if (axes.length === 0 || axes.includes('Z')) z = 0;
    }
  }
  const layer = found as LayerMoves | null;
  if (layer && Number.isFinite(layer.z) && Number.isFinite(wantedAfterZ) && layer.z > wantedAfterZ) layer.height = layer.z - wantedAfterZ;
  return { layer, layerNumbers, layerMarkers: markers, filamentDiameter: filamentDiameterOf(text) };
}

/** Filament diameters in use, mm: a figure worked out from rounded totals is taken as the nearest. */
const DIAMETERS = [1.75, 2.85, 3];

function filamentDiameterOf(text: string): number | null {
  const stated = /^; filament_diameter = ([\d.]+)/m.exec(text);
  if (stated) {
    const d = parseFloat(stated[1]!);
    if (d > 0.5 && d < 5) return d;
  }
  const mm = /^; filament used \[mm\] = ([\d.]+)/m.exec(text);
  const cm3 = /^; filament used \[cm3\] = ([\d.]+)/m.exec(text);
  if (!mm || !cm3) return null;
  const d = 2 * Math.sqrt((parseFloat(cm3[1]!) * 1000) / (parseFloat(mm[1]!) * Math.PI));
  if (!Number.isFinite(d)) return null;
  return DIAMETERS.reduce((a, b) => (Math.abs(b - d) < Math.abs(a - d) ? b : a));
}

/** Calls `to` with the end point of each chord of a G2 (clockwise) or G3 arc around (cx, cy). */
function arc(
  x0: number, y0: number, x1: number, y1: number, cx: number, cy: number, clockwise: boolean,
  to: (x: number, y: number, share: number) => void,
): void {
  const r = Math.hypot(x0 - cx, y0 - cy);
  const a0 = Math.atan2(y0 - cy, x0 - cx);
  let sweep = Math.atan2(y1 - cy, x1 - cx) - a0;
  if (clockwise && sweep >= 0) sweep -= 2 * Math.PI;
  if (!clockwise && sweep <= 0) sweep += 2 * Math.PI;
  const steps = Math.max(1, Math.ceil(Math.abs(sweep) / ARC_STEP));
  for (let s = 1; s < steps; s++) {
    const a = a0 + (sweep * s) / steps;
    to(cx + r * Math.cos(a), cy + r * Math.sin(a), 1 / steps);
  }
  to(x1, y1, 1 / steps);
}
