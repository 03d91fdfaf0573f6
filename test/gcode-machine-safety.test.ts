// What the G-code does to a real machine beyond the default profile (an outside audit of every
// printer and many settings found each of these): the first z-hop travel of a print goes to the
// part, not to the bed's corner (off the bed on a delta); the print ends retracted, and
// RepRapFirmware's end retraction with absolute E stays 2 mm; the bridge fan follows the filament and the fan-off layers; flexible
// filaments' speed cap covers bridges; the end lift stays within the build height; a retraction
// at a layer change comes before the move up.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { slice } from '../src/engine/pipeline.js';
import { clampEndLift } from '../src/engine/output/end-lift.js';
import { parseGcode } from '../src/engine/output/parse-gcode.js';
import type { SliceSettings } from '../src/engine/settings.js';
import type { Mesh } from '../src/engine/types.js';
import { resolveSettings } from '../src/profiles/index.js';
import { box, merge, type TestMesh } from './mesh-fixtures.js';

function meshOf(t: TestMesh): Mesh {
  return { positions: Float32Array.from(t.positions), indices: Uint32Array.from(t.indices) };
}

/** Two pillars 6 mm tall and a plate across them: a 20 mm bridge at z 6 (layers 30 on). */
const BRIDGE = meshOf(merge(box(0, 0, 0, 10, 10, 6), box(30, 0, 0, 40, 10, 6), box(0, 0, 6, 40, 10, 8)));
/** A bridge right above the bed: pillars 0.6 mm tall (layers 1–3 are the plate's first). */
const LOW_BRIDGE = meshOf(merge(box(0, 0, 0, 10, 10, 0.6), box(30, 0, 0, 40, 10, 0.6), box(0, 0, 0.6, 40, 10, 2)));
const CUBE = meshOf(box(0, 0, 0, 20, 20, 10));

async function gcodeOf(mesh: Mesh, req: Parameters<typeof resolveSettings>[0]): Promise<{ text: string; settings: SliceSettings; warnings: string[] }> {
  const resolved = resolveSettings(req);
  const r = await slice([{ name: 'part', mesh }], resolved.settings);
  return { text: new TextDecoder().decode(r.output), settings: resolved.settings, warnings: [...resolved.warnings, ...r.stats.warnings] };
}

/** The code of each line (comment removed), with the line's layer (-1 before the first `;LAYER:`). */
function codeLines(text: string): Array<{ code: string; layer: number; n: number }> {
  let layer = -1;
  return text.split('\n').map((line, n) => {
    const m = /^;LAYER:(-?\d+)/.exec(line);
    if (m) layer = Number(m[1]);
    const semi = line.indexOf(';');
    return { code: (semi >= 0 ? line.slice(0, semi) : line).trim(), layer, n };
  });
}

const word = (code: string, letter: string): number | undefined => {
  const m = new RegExp(`(?:^|\\s)${letter}(-?[0-9.]+)`).exec(code);
  return m ? Number(m[1]) : undefined;
};

test('z-hop: the first travel of a print goes to the part, never to the bed corner (a delta\'s is off the bed)', async () => {
  for (const printer of ['FLSun Q5', 'Creality Ender 3']) {
    const { text, settings } = await gcodeOf(CUBE, { printer, overrides: { zHop: 0.4 } });
    const radius = Math.min(settings.bedWidth, settings.bedDepth) / 2;
    const layers = text.slice(0, text.indexOf('M73 P100 R0')); // the end G-code parks where it likes
    for (const { code, layer, n } of codeLines(layers)) {
      if (layer < 0 || !/^G[01]\s/.test(code)) continue;
      const x = word(code, 'X'), y = word(code, 'Y');
      if (x === undefined || y === undefined) continue;
      if (settings.originCenter) assert.ok(Math.hypot(x, y) <= radius, `${printer} line ${n + 1} '${code}' leaves the ${radius} mm bed circle`);
      else assert.ok(x > 50 && y > 50, `${printer} line ${n + 1} '${code}' goes to the corner`);
    }
    const minX = Number(/;MINX:(-?[0-9.]+)/.exec(text)?.[1]);
    assert.ok(settings.originCenter ? minX > -radius / 2 : minX > 50, `${printer}: the header's MINX ${minX} is the part's`);
  }
});

test('the print ends with a full retraction, then the end G-code pulls back its 2 mm, not the whole last layer (RepRapFirmware with absolute E)', async () => {
  for (const relativeExtrusion of [false, true]) {
    for (const gcodeFlavor of ['reprap', 'marlin'] as const) {
      const { text } = await gcodeOf(CUBE, { overrides: { gcodeFlavor, relativeExtrusion } });
      const end = text.slice(text.lastIndexOf(';TIME_ELAPSED:'));
      const what = `${gcodeFlavor}, ${relativeExtrusion ? 'relative' : 'absolute'} E`;
      // the layers end primed: the nozzle leaves the top surface retracted by the print's own 5 mm
      const first = end.split('\n').find((l) => /^G1\b[^;]*\bE/.test(l));
      assert.match(first ?? '', /^G1 F2400 E-5 /, `${what}: ${first}`);
      // RepRapFirmware's G91 leaves E absolute: from E = 0, `G1 E-2` is -2 mm there as on Marlin
      const read = parseGcode(end, { g91MovesE: gcodeFlavor !== 'reprap', start: { e: 50, relativeE: relativeExtrusion } });
      assert.ok(Math.abs(read.netE + 7) < 1e-9, `${what}: pulls back ${-read.netE} mm in all`);
    }
  }
});

test('the bridge fan follows the filament (ABS 25 %, PETG 50 %) and stays off in the fan-off layers', async () => {
  const fanOf = (code: string) => (code.startsWith('M107') ? 0 : Math.round(((word(code, 'S') ?? 255) * 100) / 255));
  const fans = (text: string) => codeLines(text).filter((l) => /^M10[67]\b/.test(l.code)).map((l) => ({ layer: l.layer, percent: fanOf(l.code) }));

  const abs = fans((await gcodeOf(BRIDGE, { filament: 'Generic_ABS' })).text);
  assert.deepEqual([...new Set(abs.map((f) => f.percent))].sort((a, b) => a - b), [0, 25], 'ABS: off, and 25 % on its bridges');
  const petg = fans((await gcodeOf(BRIDGE, { filament: 'Generic_PETG' })).text);
  assert.ok(Math.max(...petg.map((f) => f.percent)) === 50, 'PETG bridges at its 50 %');
  const pla = fans((await gcodeOf(BRIDGE, {})).text);
  assert.equal(Math.max(...pla.map((f) => f.percent)), 100, 'PLA: 100 %, bridges too');

  const low = fans((await gcodeOf(LOW_BRIDGE, { overrides: { fanOffLayers: 3, fanFullLayer: 5 } })).text);
  assert.deepEqual(low.filter((f) => f.layer < 3 && f.percent > 0), [], 'no fan in the three fan-off layers, bridges or not');
});

test('a flexible filament\'s speed cap covers bridges too', async () => {
  const { text, settings } = await gcodeOf(BRIDGE, { filament: 'Generic_TPU85A' });
  assert.equal(settings.bridgeSpeed, 15);
  let f = 0;
  let e = 0;
  for (const { code, layer } of codeLines(text)) {
    f = word(code, 'F') ?? f;
    if (layer < 0 || !/^G1\s/.test(code)) continue;
    const ne = word(code, 'E');
    if (ne !== undefined && ne > e && word(code, 'X') !== undefined) assert.ok(f <= 15 * 60 + 1e-9, `extrusion at F${f}: '${code}'`);
    if (ne !== undefined) e = ne;
    if (code.startsWith('G92')) e = 0;
  }
});

test('the end lift stays within the build height, with a warning', async () => {
  const { text, warnings } = await gcodeOf(CUBE, { printer: 'Elegoo Neptune 4', overrides: { bedHeight: 15 } });
  const end = parseGcode(text.slice(text.lastIndexOf(';TIME_ELAPSED:')), { start: { z: 10 } });
  assert.ok(end.end.z <= 15 + 1e-9, `the end G-code leaves Z at ${end.end.z}`);
  assert.ok(warnings.some((w) => /lift was cut/.test(w)), warnings.join('; '));

  assert.deepEqual(clampEndLift('G91\nG1 Z10 F3000 ; lift\nG90', 5, 250), { text: 'G91\nG1 Z10 F3000 ; lift\nG90' });
  assert.equal(clampEndLift('G91\nG1 E-2\nG1 Z10 F3000 ; lift\nG90\nG1 X0 Y200', 245, 250).text, 'G91\nG1 E-2\nG1 Z5 F3000 ; lift\nG90\nG1 X0 Y200');
  assert.equal(clampEndLift('G91\nG1 Z10 F3000', 250, 250).text, 'G91\nG1 F3000');
  assert.equal(clampEndLift('G1 Z300', 100, 250).text, 'G1 Z250');
  // after homing Z, where Z then is depends on the machine: left alone; homing X and Y leaves Z where it was
  assert.equal(clampEndLift('G28\nG91\nG1 Z10', 249, 250).text, 'G28\nG91\nG1 Z10');
  assert.equal(clampEndLift('G28 Z\nG91\nG1 Z10', 249, 250).text, 'G28 Z\nG91\nG1 Z10');
  assert.equal(clampEndLift('G28 X Y\nG91\nG1 Z10', 249, 250).text, 'G28 X Y\nG91\nG1 Z1');
});

test('retractAtLayerChange: the retraction comes before the layer\'s move up', async () => {
  const { text } = await gcodeOf(CUBE, { overrides: { retractAtLayerChange: true } });
  const lines = codeLines(text);
  let checked = 0;
  for (let i = 0; i < lines.length; i++) {
    if (!/^;LAYER:([1-9]\d*)$/.test(text.split('\n')[lines[i]!.n]!)) continue;
    const firstMove = lines.slice(i + 1).find((l) => /^G[01]\s/.test(l.code))!;
    assert.ok(word(firstMove.code, 'E') !== undefined && word(firstMove.code, 'X') === undefined, `layer ${lines[i]!.layer} starts with '${firstMove.code}', not a retraction`);
    checked++;
  }
  assert.ok(checked > 40, `${checked} layers`);
});

test('a model that fits while its skirt or brim does not is refused, not printed off the bed edge', async () => {
  // a 20 mm cube on a 30 mm bed: the skirt reaches from -1.2 to 31.2 mm
  const small = { overrides: { bedWidth: 30, bedDepth: 30 } };
  await assert.rejects(gcodeOf(CUBE, small), (e: Error) => /beyond the bed.*skirt/.test(e.message) && (e as { code?: string }).code === 'OUT_OF_VOLUME');
  await assert.rejects(gcodeOf(CUBE, { overrides: { bedWidth: 30, bedDepth: 30, adhesionType: 'brim', brimWidth: 8 } }), /beyond the bed.*brim/);
  // without adhesion the same cube prints, and every move is on the bed
  const { text } = await gcodeOf(CUBE, { overrides: { bedWidth: 30, bedDepth: 30, adhesionType: 'none' } });
  assert.match(text, /;MINX:[0-9]/);
});

test('a round bed (delta): a model that fits the square but not the circle is refused, as is a skirt past the circle', async () => {
  // FLSun Q5: 200 mm across; a 150 mm square part has its corners 106 mm from the centre
  const wide = meshOf(box(0, 0, 0, 150, 150, 2));
  await assert.rejects(gcodeOf(wide, { printer: 'FLSun Q5' }), (e: Error) => /outside the build volume.*round bed 200 mm across/.test(e.message));
  // 136 mm square: corners 96.2 mm out, inside the circle; its skirt (3 mm out, then a loop) is not
  const near = meshOf(box(0, 0, 0, 136, 136, 2));
  await assert.rejects(gcodeOf(near, { printer: 'FLSun Q5' }), (e: Error) => /beyond the bed.*round bed 200 mm across.*skirt/.test(e.message));
  const { text } = await gcodeOf(near, { printer: 'FLSun Q5', overrides: { adhesionType: 'none' } });
  for (const { code, layer } of codeLines(text.slice(0, text.indexOf('M73 P100 R0')))) {
    const x = word(code, 'X'), y = word(code, 'Y');
    if (layer >= 0 && x !== undefined && y !== undefined) assert.ok(Math.hypot(x, y) <= 100, `'${code}' leaves the bed circle`);
  }
});

test('nothing goes above the build height: a z-hop near the top lifts less, a raft that raises the part past it is refused', async () => {
  // the 10 mm cube on a printer 10 mm high, with a 0.4 mm z-hop (Klipper stops a print at a move past its height)
  for (const printer of ['Creality Ender 3', 'Voron 2.4 350']) {
    const { text } = await gcodeOf(CUBE, { printer, overrides: { bedHeight: 10, zHop: 0.4, retractAtLayerChange: true } });
    let hops = 0;
    let maxZ = 0;
    for (const { code, layer } of codeLines(text.slice(0, text.indexOf('M73 P100 R0')))) {
      const z = word(code, 'Z');
      if (layer < 0 || z === undefined || !/^G[01]\s/.test(code)) continue;
      maxZ = Math.max(maxZ, z);
      if (layer < 40) hops += z > (layer + 1) * 0.2 + 0.3 ? 1 : 0;
    }
    assert.ok(maxZ <= 10 + 1e-9, `${printer}: a move to z ${maxZ} on a printer 10 mm high`);
    assert.ok(hops > 10, `${printer}: the lower layers still hop the full 0.4 mm (${hops})`);
    assert.match(text, /^;MAXZ:10$/m);
  }
  await assert.rejects(
    gcodeOf(CUBE, { overrides: { bedHeight: 10.5, adhesionType: 'raft' } }),
    (e: Error) => /above the build height .*10\.5 mm.*raftLayers/.test(e.message) && (e as { code?: string }).code === 'OUT_OF_VOLUME',
  );
});

test('a nozzle temperature of 0 writes no command: never M104 S0 under the print', async () => {
  const later = await gcodeOf(CUBE, { overrides: { nozzleTemperature: 0 } });
  // (the end G-code turns the heater off, after the print)
  assert.doesNotMatch(later.text.slice(0, later.text.indexOf('M73 P100 R0')), /^M10[49] S0\b/m);
  assert.match(later.text, /^M109 S210/m, 'the first layer still heats');
  // the first layer's 0 with a start G-code that does not heat: no heating command at all, and a warning
  const first = await gcodeOf(CUBE, { overrides: { firstLayerNozzleTemperature: 0 } });
  const preamble = first.text.slice(0, first.text.indexOf(';LAYER:0'));
  assert.doesNotMatch(preamble, /^M10[49]\b/m);
  assert.match(first.text, /^M104 S210/m, 'the later layers set theirs');
  assert.ok(first.warnings.some((w) => /firstLayerNozzleTemperature is 0 .*nothing in the file heats the nozzle/.test(w)), first.warnings.join('; '));
  // a start G-code that heats from the value cannot honour 0: refused, not M109 S0
  for (const printer of ['Creality Ender 3 Pro', 'Voron 2.4 350', 'Prusa i3 MK3S']) {
    await assert.rejects(
      gcodeOf(CUBE, { printer, overrides: { firstLayerNozzleTemperature: 0 } }),
      (e: Error & { code?: string; key?: string }) =>
        e.name === 'SettingsError' &&
        /^firstLayerNozzleTemperature is 0 .*startGcode heats the nozzle to \{first_layer_nozzle_temperature\}: it would turn the nozzle off/.test(e.message),
      printer,
    );
  }
  const cold = await gcodeOf(CUBE, { overrides: { firstLayerNozzleTemperature: 100 } });
  assert.ok(cold.warnings.some((w) => /firstLayerNozzleTemperature 100 °C is too cold/.test(w)), cold.warnings.join('; '));
});

test('every printer of the catalogue: the part sits at its bed centre, and every move stays on its bed', async () => {
  const { PRINTERS } = await import('../src/profiles/index.js');
  for (const p of PRINTERS) {
    // FCode printers too, as the G-code their files wrap
    const { text, settings: s } = await gcodeOf(CUBE, { printer: p.name, overrides: { outputFormat: 'GCODE' } });
    const x0 = s.originCenter ? -s.bedWidth / 2 : 0;
    const y0 = s.originCenter ? -s.bedDepth / 2 : 0;
    const header = (k: string) => Number(new RegExp(`^;${k}:(-?[0-9.]+)`, 'm').exec(text)?.[1]);
    const mid = [(header('MINX') + header('MAXX')) / 2, (header('MINY') + header('MAXY')) / 2];
    assert.ok(Math.hypot(mid[0]! - (x0 + s.bedWidth / 2), mid[1]! - (y0 + s.bedDepth / 2)) < 1, `${p.name}: the part is centred at ${mid}`);
    let absolute = true;
    for (const { code, layer, n } of codeLines(text)) {
      if (/^G90\b/.test(code)) absolute = true;
      if (/^G91\b/.test(code)) absolute = false;
      if (!absolute || !/^G[01]\s/.test(code)) continue;
      const x = word(code, 'X'), y = word(code, 'Y');
      const where = `${p.name} line ${n + 1} '${code}'`;
      if (s.roundBed) {
        if (x !== undefined && y !== undefined) assert.ok(Math.hypot(x, y) <= s.bedWidth / 2 + 1e-9, `${where} leaves the round bed`);
        continue;
      }
      // a start G-code may purge just in front of the printable area (Prusa's beds have that margin)
      const front = layer < 0 ? 9 : 0;
      if (x !== undefined) assert.ok(x >= x0 - 1e-9 && x <= x0 + s.bedWidth + 1e-9, `${where} is off the bed in X`);
      if (y !== undefined) assert.ok(y >= y0 - front - 1e-9 && y <= y0 + s.bedDepth + 1e-9, `${where} is off the bed in Y`);
    }
  }
});

test('a fin too thin for one wall is its outer surface: printed as the outer wall, at its speed', async () => {
  // 0.3 mm thick: no 0.4 mm wall fits, the whole section is gap fill; beside it a block that has walls
  const fin = meshOf(merge(box(0, 0, 0, 20, 0.3, 2), box(0, 10, 0, 20, 20, 2)));
  const { text } = await gcodeOf(fin, { overrides: { outerWallSpeed: 15, innerWallSpeed: 40, topBottomSpeed: 30, minLayerTime: 0 } });
  const layer = text.slice(text.indexOf(';LAYER:5\n'), text.indexOf(';LAYER:6\n'));
  // the fin's lines: extrusions at y below 0.5 mm of the part's front (the block starts 10 mm behind)
  const front = Math.min(...[...layer.matchAll(/^G1 [^;]*Y(-?[\d.]+)[^;]*E/gm)].map((m) => Number(m[1])));
  let type = '';
  let feed = 0;
  const finLines: Array<{ type: string; feed: number }> = [];
  for (const line of layer.split('\n')) {
    if (line.startsWith(';TYPE:')) type = line.slice(6);
    const f = /\bF(\d+)/.exec(line);
    if (f) feed = Number(f[1]);
    const y = /^G1 [^;]*Y(-?[\d.]+)[^;]*E/.exec(line);
    if (y && Number(y[1]) < front + 0.5) finLines.push({ type, feed });
  }
  assert.ok(finLines.length > 0, 'the fin is printed');
  assert.deepEqual([...new Set(finLines.map((l) => `${l.type} F${l.feed}`))], ['WALL-OUTER F900'], JSON.stringify(finLines));
});
