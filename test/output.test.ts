// The G-code writer: golden header, flavours, E modes, templates, progress, trailer and bounds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeGcode, formatInfo, parseGcode, simulate, limitsFromSettings, durationDhms, MoveBuffer } from '../src/engine/output/index.js';
import { dec5, micronsToMm } from '../src/engine/output/number-format.js';
import { defaultSettings } from '../src/profiles/defaults.js';
import type { LayerPlan, PlanOp } from '../src/engine/plan/types.js';
import type { SliceSettings } from '../src/engine/settings.js';
import { SliceError } from '../src/engine/types.js';

const META = { modelNames: ['cube.stl'], generator: 'Stratum 0.1.0' };
const E_SIDE = 0.66516; // 20 mm of a 0.4 × 0.2 mm line of 1.75 mm filament

/** A 20 mm square wall at (100,100)–(120,120) with a skirt line, on layer `i` (0.2 mm layers). */
function squareLayer(i: number, fan?: number): LayerPlan {
  const speed = i === 0 ? 20 : 25;
  const ops: PlanOp[] = [];
  if (fan !== undefined) ops.push({ op: 'fan', percent: fan });
  ops.push(
    { op: 'feature', type: 'SKIRT', model: -1 },
    { op: 'travel', x: 90000, y: 90000, speed: 150 },
    { op: 'extrude', x: 130000, y: 90000, e: 1.33032, speed },
    { op: 'retract', length: 5, speed: 40 },
    { op: 'feature', type: 'WALL-OUTER', model: 0 },
    { op: 'travel', x: 100000, y: 100000, speed: 150 },
    { op: 'unretract', length: 5, speed: 40 },
    { op: 'extrude', x: 120000, y: 100000, e: E_SIDE, speed },
    { op: 'extrude', x: 120000, y: 120000, e: E_SIDE, speed },
    { op: 'feature', type: 'FILL', model: 0 },
    { op: 'extrude', x: 100000, y: 120000, e: E_SIDE, speed },
    { op: 'extrude', x: 100000, y: 100000, e: E_SIDE, speed },
  );
  return { index: i, z: 200 * (i + 1), height: 200, ops };
}
const twoLayers = () => [squareLayer(0, 0), squareLayer(1, 50)];
const settings = (over: Partial<SliceSettings> = {}) =>
  defaultSettings({ startGcode: 'G28 ; home', endGcode: 'M84 ; motors off', ...over });
const lines = (text: string) => text.split('\n');
/** Header value after `key` (e.g. ';TIME:'). */
const headerValue = (text: string, key: string) => {
  const line = lines(text).find((l) => l.startsWith(key));
  assert.ok(line, `missing ${key}`);
  return line.slice(key.length);
};
/** The layer section: from `;LAYER_COUNT` up to the final M73. */
const layerSection = (text: string) => text.slice(text.indexOf(';LAYER_COUNT:'), text.indexOf('M73 P100 R0'));

test('golden header and preamble for a fixed one-layer plan', () => {
  const { text, stats } = writeGcode([squareLayer(0)], settings(), META);
  const head = lines(text).slice(0, 27);
  assert.deepEqual(head, [
    ';FLAVOR:Marlin',
    // by hand: Z 0→0.2 0.09 s, travel from home 127 mm at 150 mm/s 1.11 s, skirt 40 mm at 20 2.01 s,
    // retract + unretract 0.31 s, travel 31.6 mm (triangle) 0.46 s, four 20 mm sides 4.04 s ≈ 8.0 s
    ';TIME:8',
    ';Filament used: 0.00399m',
    ';Filament weight: 0.01g',
    ';Layer height: 0.2',
    ';MINX:90',
    ';MINY:90',
    ';MINZ:0.2',
    ';MAXX:130',
    ';MAXY:120',
    ';MAXZ:0.2',
    ';TARGET_MACHINE.NAME:Creality Ender 3',
    ';Generated with Stratum 0.1.0',
    '',
    'G90 ;absolute coordinates',
    'M140 S60',
    'M104 S210',
    'M190 S60',
    'M109 S210',
    'G28 ; home',
    'G90 ;absolute coordinates',
    'M82 ;absolute extrusion mode',
    'G92 E0',
    ';LAYER_COUNT:1',
    ';LAYER:0',
    'M73 P0 R0',
    'G92 E0',
  ]);
  // filament: the skirt line and four sides; the retract and unretract cancel
  assert.ok(Math.abs(stats.filamentMm - (1.33032 + 4 * E_SIDE)) < 1e-9);
  assert.equal(stats.layerTimesS.length, 1);
});

test('a start G-code that ends in relative mode (G91) leaves the layers absolute', () => {
  const s = settings({ startGcode: 'G28\nG91\nG1 Z5 F600 ; lift' });
  const { text, stats } = writeGcode(twoLayers(), s, META);
  const start = text.indexOf('G1 Z5 F600');
  const g90 = text.indexOf('G90 ;absolute coordinates', start);
  assert.ok(start > 0 && g90 > start && g90 < text.indexOf(';LAYER:0'), 'G90 after the start G-code, before the layers');
  // read as a printer would, from the top: the nozzle stays within the header's bounds (in G91 the
  // layers' coordinates added up to hundreds of mm)
  const whole = parseGcode(text);
  let x = 0;
  let maxX = 0;
  for (let i = 0; i < whole.moves.length; i++) maxX = Math.max(maxX, (x += whole.moves.dx[i]!));
  assert.ok(maxX <= stats.bounds.max[0] + 1e-6, `x reaches ${maxX}, the print ${stats.bounds.max[0]}`);
  assert.ok(Math.abs(simulate(whole.moves, limitsFromSettings(s)).totalS - stats.printTimeS) < 1e-6 * stats.printTimeS);
});

test('a file larger than one file can be is a SliceError saying what to change, as soon as it passes the limit', () => {
  assert.throws(
    () => writeGcode(twoLayers(), settings(), META, { maxOutputBytes: 200 }),
    (e: Error) => e instanceof SliceError && e.code === 'BAD_SETTINGS' && /^the G-code would be larger than 200 bytes.*layerHeight.*infillDensity/.test(e.message),
  );
  assert.ok(writeGcode(twoLayers(), settings(), META).text.length > 200);
  // the moves' memory handed to the file is at most what one array holds (a view of a block of 4 GB
  // and more threw "Invalid typed array length")
  const moves = new MoveBuffer(1000);
  assert.equal(moves.takeMemory(100).length, 100);
  assert.equal(new MoveBuffer(1000).takeMemory().length, 40_000);
});

test('the header time is the simulation of the written text, and filament its net extrusion', () => {
  const s = settings();
  const { text, stats } = writeGcode(twoLayers(), s, META);
  const parsed = parseGcode(text);
  const again = simulate(parsed.moves, limitsFromSettings(s)).totalS;
  assert.ok(Math.abs(again - stats.printTimeS) < 1e-6 * stats.printTimeS, `${again} vs ${stats.printTimeS}`);
  assert.equal(Number(headerValue(text, ';TIME:')), Math.round(stats.printTimeS));
  const layers = parseGcode(layerSection(text));
  assert.ok(Math.abs(layers.netE - stats.filamentMm) < 1e-4);
  assert.equal(stats.layerTimesS.length, 2);
  assert.ok(stats.layerTimesS.every((t) => t > 0));
});

test('absolute and relative E describe the same moves', () => {
  const abs = writeGcode(twoLayers(), settings(), META);
  const rel = writeGcode(twoLayers(), settings({ relativeExtrusion: true }), META);
  assert.ok(abs.text.includes('M82 ;absolute extrusion mode'));
  assert.ok(rel.text.includes('M83 ;relative extrusion mode'));
  const a = parseGcode(layerSection(abs.text)).moves;
  const r = parseGcode(layerSection(rel.text), { start: { relativeE: true } }).moves;
  assert.equal(a.length, r.length);
  for (let i = 0; i < a.length; i++) {
    assert.equal(a.dx[i], r.dx[i]);
    assert.ok(Math.abs(a.de[i]! - r.de[i]!) < 2e-5, `move ${i}: ${a.de[i]} vs ${r.de[i]}`);
  }
  // absolute E restarts at every layer, relative E never resets
  const g92 = (t: string) => lines(layerSection(t)).filter((l) => l === 'G92 E0').length;
  assert.equal(g92(abs.text), 2);
  assert.equal(g92(rel.text), 0);
  assert.ok(lines(rel.text).includes('G1 F1500 X120 Y100 E0.66516'));
  assert.ok(Math.abs(abs.stats.filamentMm - rel.stats.filamentMm) < 1e-9);
});

test('flavours: RepRap fan as a fraction, Klipper objects and layer info, Griffin header block', () => {
  const reprap = writeGcode(twoLayers(), settings({ gcodeFlavor: 'reprap' }), META).text;
  assert.equal(lines(reprap)[0], ';FLAVOR:RepRap');
  assert.ok(lines(reprap).includes('M106 S0.5'));
  const marlin = writeGcode(twoLayers(), settings(), META).text;
  assert.ok(lines(marlin).includes('M106 S128'));
  assert.ok(lines(marlin).includes('M107'));
  assert.ok(!marlin.includes('EXCLUDE_OBJECT'));

  const klipper = writeGcode(twoLayers(), settings({ gcodeFlavor: 'klipper' }), META).text;
  const k = lines(klipper);
  assert.equal(k[0], ';FLAVOR:Klipper');
  assert.ok(k.includes('EXCLUDE_OBJECT_DEFINE NAME=cube.stl CENTER=110,110 POLYGON=[[100,100],[120,100],[120,120],[100,120]]'));
  assert.equal(k.filter((l) => l === 'EXCLUDE_OBJECT_START NAME=cube.stl').length, 2);
  assert.equal(k.filter((l) => l === 'EXCLUDE_OBJECT_END NAME=cube.stl').length, 2);
  assert.ok(k.indexOf('EXCLUDE_OBJECT_DEFINE NAME=cube.stl CENTER=110,110 POLYGON=[[100,100],[120,100],[120,120],[100,120]]') < k.indexOf('G28 ; home'));
  assert.ok(k.includes('SET_PRINT_STATS_INFO TOTAL_LAYER=2'));
  assert.ok(k.indexOf('SET_PRINT_STATS_INFO CURRENT_LAYER=1') < k.indexOf('SET_PRINT_STATS_INFO CURRENT_LAYER=2'));
  // the object is started after its ;MESH: line and ended before the skirt of the next layer
  assert.equal(k[k.indexOf(';MESH:cube.stl') + 1], 'EXCLUDE_OBJECT_START NAME=cube.stl');

  const griffin = lines(writeGcode(twoLayers(), settings({ gcodeFlavor: 'griffin' }), META).text);
  assert.equal(griffin[0], ';START_OF_HEADER');
  assert.ok(griffin.includes(';FLAVOR:Griffin'));
  const end = griffin.indexOf(';END_OF_HEADER');
  assert.ok(end > 0);
  const time = griffin.find((l) => l.startsWith(';PRINT.TIME:'))!.slice(12);
  assert.equal(griffin.find((l) => l.startsWith(';TIME:')), `;TIME:${time}`);
  assert.ok(griffin.includes(';PRINT.SIZE.MAX.Z:0.4'));
  assert.ok(griffin.includes(';EXTRUDER_TRAIN.0.NOZZLE.NAME:AA 0.4'));
  assert.ok(griffin.includes(';BUILD_PLATE.TYPE:glass'));
});

test('Klipper with the limits written: travel and print accelerations switched where the moves change kind', () => {
  const accels = { printAcceleration: 3000, travelAcceleration: 5000, maxAccelX: 10000, maxAccelY: 10000 };
  const text = writeGcode(twoLayers(), settings({ gcodeFlavor: 'klipper', emitMachineLimits: true, ...accels }), META).text;
  const k = lines(text);
  assert.ok(k.includes('SET_VELOCITY_LIMIT VELOCITY=500 ACCEL=3000'));
  // walk the moves with the acceleration Klipper would use for each
  let accel = 0;
  let switches = 0;
  for (const l of k) {
    const m = /^M204 S(\d+)$/.exec(l);
    if (m) {
      assert.notEqual(Number(m[1]), accel, 'no line that changes nothing');
      accel = Number(m[1]);
      switches++;
    } else if (l.startsWith('SET_VELOCITY_LIMIT')) accel = 3000;
    else if (/^G1 .*X.*E/.test(l)) assert.equal(accel, 3000, l);
    else if (/^G0 .*X/.test(l)) assert.equal(accel, 5000, l);
  }
  assert.equal(switches, 8, 'per layer: travel, skirt, travel, walls');
  // the estimate is of those moves: travels at 5000 are quicker than at the print acceleration
  const same = writeGcode(twoLayers(), settings({ gcodeFlavor: 'klipper', emitMachineLimits: true, ...accels, travelAcceleration: 3000 }), META);
  const switched = writeGcode(twoLayers(), settings({ gcodeFlavor: 'klipper', emitMachineLimits: true, ...accels }), META);
  assert.ok(switched.stats.printTimeS < same.stats.printTimeS);
  assert.ok(!same.text.includes('M204 S'), 'equal accelerations: nothing to switch');
  // without the limits the firmware keeps its own; Marlin switches by itself (M204 P, T)
  assert.ok(!writeGcode(twoLayers(), settings({ gcodeFlavor: 'klipper', ...accels }), META).text.includes('M204 S'));
  const marlin = writeGcode(twoLayers(), settings({ emitMachineLimits: true, ...accels }), META).text;
  assert.ok(!marlin.includes('M204 S'));
  assert.ok(lines(marlin).some((l) => l.startsWith('M204 P3000') && l.includes('T5000')));
});

test('start template: placeholders filled, unknown ones kept, temperatures it sets not repeated', () => {
  const s = settings({
    startGcode: 'M190 S{first_layer_bed_temperature}\nM109 S{first_layer_nozzle_temperature} ; {unknown_thing}\nG1 X{bed_width} Y{bed_depth} Z{bed_height} ; {filament_diameter}',
    firstLayerNozzleTemperature: 215,
    nozzleTemperature: 205,
    firstLayerBedTemperature: 65,
    bedTemperature: 60,
  });
  const text = writeGcode(twoLayers(), s, META).text;
  const l = lines(text);
  assert.ok(l.includes('M190 S65'));
  assert.ok(l.includes('M109 S215 ; {unknown_thing}'));
  assert.ok(l.includes('G1 X220 Y220 Z250 ; 1.75'));
  assert.ok(!l.includes('M140 S65') && !l.includes('M104 S215'), 'no preamble temperatures');
  // after the first layer: the normal temperatures
  const layer1 = l.indexOf(';LAYER:1');
  assert.ok(l.indexOf('M104 S205') > layer1);
  assert.ok(l.indexOf('M140 S60') > layer1);

  const plain = lines(writeGcode(twoLayers(), settings({ heatedBed: false }), META).text);
  assert.ok(plain.includes('M104 S210') && plain.includes('M109 S210'));
  assert.ok(!plain.some((x) => x.startsWith('M140') || x.startsWith('M190')), 'no bed commands without a heated bed');
});

test('heatedBed turned off over a template written for a heated bed: no bed command, bed placeholders 0', () => {
  // a preset's start G-code heats and waits for the bed; `--set heatedBed=false` said the bed
  // temperatures were ignored while the file still held M140 S60 and M190 S60
  const startGcode = 'M140 S{first_layer_bed_temperature} ; bed\nM104 S{first_layer_nozzle_temperature}\nG28\nM190 S{first_layer_bed_temperature}\nM7 T0 ; FlashForge: wait for the bed\nM109 S{first_layer_nozzle_temperature}\nSTART_PRINT BED={bed_temperature}';
  const endGcode = 'M104 S0\nM140 S0 ; bed off\nM84';
  const bedless = lines(writeGcode(twoLayers(), settings({ heatedBed: false, startGcode, endGcode }), META).text);
  assert.deepEqual(bedless.filter((x) => /^M1(40|90)\b|^M7 /.test(x)), []);
  assert.ok(bedless.includes('START_PRINT BED=0') && bedless.includes('M109 S210') && bedless.includes('G28'));
  const heated = lines(writeGcode(twoLayers(), settings({ startGcode, endGcode }), META).text);
  assert.deepEqual(heated.filter((x) => /^M1(40|90)\b/.test(x)).map((x) => x.split(' ;')[0]), ['M140 S60', 'M190 S60', 'M140 S0']);
  assert.ok(heated.includes('START_PRINT BED=60'));
});

test('M73 progress is monotonic and TIME_ELAPSED grows to the end of the last layer', () => {
  const plans = Array.from({ length: 12 }, (_, i) => squareLayer(i));
  const { text, stats } = writeGcode(plans, settings(), META);
  const m73 = lines(text)
    .filter((l) => l.startsWith('M73 '))
    .map((l) => l.match(/^M73 P(\d+) R(\d+)$/)!.slice(1).map(Number) as [number, number]);
  assert.equal(m73.length, 13);
  for (let i = 1; i < m73.length; i++) {
    assert.ok(m73[i]![0] >= m73[i - 1]![0], 'percent never goes down');
    assert.ok(m73[i]![1] <= m73[i - 1]![1], 'minutes left never go up');
  }
  assert.deepEqual(m73.at(-1), [100, 0]);
  const elapsed = lines(text)
    .filter((l) => l.startsWith(';TIME_ELAPSED:'))
    .map((l) => Number(l.slice(14)));
  assert.equal(elapsed.length, 12);
  for (let i = 1; i < elapsed.length; i++) assert.ok(elapsed[i]! > elapsed[i - 1]!);
  assert.ok(elapsed.at(-1)! <= stats.printTimeS && elapsed.at(-1)! > stats.printTimeS - 5);
});

test('the trailer parses back to the header totals', () => {
  const { text, stats } = writeGcode(Array.from({ length: 40 }, (_, i) => squareLayer(i)), settings(), META);
  const trailer = (key: string) => Number(text.match(new RegExp(`^; ${key.replace(/[[\]]/g, '\\$&')} = ([0-9.]+)$`, 'm'))![1]);
  assert.ok(Math.abs(trailer('filament used [mm]') - stats.filamentMm) <= 0.005);
  assert.ok(Math.abs(trailer('filament used [mm]') / 1000 - Number(headerValue(text, ';Filament used: ').slice(0, -1))) < 1e-5);
  assert.equal(trailer('filament used [g]').toFixed(2), headerValue(text, ';Filament weight: ').slice(0, -1));
  assert.equal(trailer('total filament used [g]'), trailer('filament used [g]'));
  assert.ok(Math.abs(trailer('filament used [cm3]') - stats.filamentMm3 / 1000) <= 0.005);
  const dhms = text.match(/^; estimated printing time \(normal mode\) = (.+)$/m)![1]!;
  let seconds = 0;
  for (const [, v, u] of dhms.matchAll(/(\d+)([dhms])/g)) seconds += Number(v) * { d: 86400, h: 3600, m: 60, s: 1 }[u as 'd']!;
  assert.equal(seconds, Number(headerValue(text, ';TIME:')));
  // weight = volume × density
  assert.ok(Math.abs(stats.filamentG - (stats.filamentMm * Math.PI * 0.875 ** 2 * 1.24) / 1000) < 1e-9);
});

test('bounds are those of the written G0/G1 coordinates of the layers', () => {
  const plans = twoLayers();
  plans[1]!.ops.push({ op: 'travel', x: 140500, y: 80250, z: 900, speed: 150 }); // a z-hop beyond the part
  const { text, stats } = writeGcode(plans, settings(), META);
  assert.deepEqual(stats.bounds, { min: [90, 80.25, 0.2], max: [140.5, 120, 0.9] });
  assert.deepEqual(
    [';MINX:', ';MINY:', ';MINZ:', ';MAXX:', ';MAXY:', ';MAXZ:'].map((k) => headerValue(text, k)),
    ['90', '80.25', '0.2', '140.5', '120', '0.9'],
  );
  // the start G-code's moves (homing to 0,0) and the end G-code's are not part of the bounds
  assert.ok(lines(text).includes('G0 F9000 X140.5 Y80.25 Z0.9'));
});

test(';TYPE: and ;MESH: are written on change and again at each layer start', () => {
  const text = writeGcode(twoLayers(), settings(), META).text;
  const l = lines(layerSection(text));
  assert.equal(l.filter((x) => x === ';TYPE:SKIRT').length, 2);
  assert.equal(l.filter((x) => x === ';TYPE:WALL-OUTER').length, 2);
  assert.equal(l.filter((x) => x === ';MESH:NONMESH').length, 2);
  assert.equal(l.filter((x) => x === ';MESH:cube.stl').length, 2);
  // F only when it changes
  assert.ok(l.includes('G1 X120 Y120 E2.66064')); // skirt 1.33032 − 5 + 5 + two sides
});

test('number formatting and durations', () => {
  assert.equal(micronsToMm(0), '0');
  assert.equal(micronsToMm(1), '0.001');
  assert.equal(micronsToMm(-1500), '-1.5');
  assert.equal(micronsToMm(120000), '120');
  assert.equal(micronsToMm(99990), '99.99');
  assert.equal(dec5(1.000004), '1');
  assert.equal(dec5(-0.000004), '0');
  assert.equal(dec5(0.0333), '0.0333');
  assert.equal(dec5(12.000051), '12.00005');
  assert.equal(dec5(-5), '-5');
  assert.equal(durationDhms(3723), '1h 2m 3s');
  assert.equal(durationDhms(60), '1m 0s');
  assert.equal(durationDhms(5.4), '5s');
  assert.equal(durationDhms(86405), '1d 0h 0m 5s');
});

test('formatInfo gives the interface strings', () => {
  assert.deepEqual(formatInfo({ printTimeS: 3725, filamentMm: 3580, filamentG: 10.694 }), {
    time: '1:02:05',
    length: '3.58meters',
    weight: '10.69grams',
  });
  assert.equal(formatInfo({ printTimeS: 90061, filamentMm: 1000, filamentG: 3 }).time, '25:01:01');
  assert.equal(formatInfo({ printTimeS: 0, filamentMm: 1000, filamentG: 3 }).length, '1.00meter');
  assert.equal(formatInfo({ printTimeS: 59.6, filamentMm: 1010, filamentG: 3 }).length, '1.01meters');
  assert.equal(formatInfo({ printTimeS: 59.6, filamentMm: 0, filamentG: 0 }).time, '0:01:00');
});

// (how fast the writer is belongs to `npm run bench`, not to a timed test)
test('writing 200k extrusion moves', () => {
  const ops: PlanOp[] = [{ op: 'feature', type: 'FILL', model: 0 }];
  for (let i = 0; i < 200_000; i++) {
    ops.push({ op: 'extrude', x: 100000 + (i % 2) * 20000 + (i % 7), y: 100000 + ((i >> 1) % 100) * 200, e: 0.66516, speed: 50 });
  }
  const { text, stats } = writeGcode([{ index: 0, z: 200, height: 200, ops }], settings(), META);
  assert.ok(text.length > 200_000 * 20);
  assert.equal(text.split('\n').filter((l) => /^G1 (F\d+ )?X[^;]* E/.test(l)).length, 200_000);
  assert.ok(stats.printTimeS > 0);
});

test('a simulation that consumes its move buffer gives the same times to the bit', () => {
  const limits = limitsFromSettings(defaultSettings());
  // a zigzag with travels, retracts, a zero-length move, a move without speed and a Z step
  const fill = (b: MoveBuffer) => {
    for (let i = 0; i < 500; i++) {
      const k = i % 9;
      if (k === 0) b.push(0, 0, 0, -5, 40);
      else if (k === 1) b.push(12.5, -3.25, 0, 0, 150);
      else if (k === 2) b.push(0, 0, 0, 0, 25);
      else if (k === 3) b.push(3, 4, 0, 0.2, 0);
      else if (k === 4) b.push(0, 0, 0.2, 0, 10);
      else b.push(k % 2 ? 20 : -19.5, 0.4 * k, 0, 0.66516 * (k / 9), 25 + k);
    }
  };
  const kept = new MoveBuffer(8);
  fill(kept);
  const consumed = new MoveBuffer(8);
  fill(consumed);
  const a = simulate(kept, limits);
  const b = simulate(consumed, limits, { consume: true });
  assert.equal(kept.dx[1], 12.5, 'without consume the buffer is left alone');
  assert.equal(b.moveTimes.length, 500);
  assert.deepEqual([...b.moveTimes], [...a.moveTimes]);
  assert.equal(b.totalS, a.totalS);
  assert.ok(a.totalS > 0 && a.moveTimes[2] === 0 && a.moveTimes[3] === 0);
});
