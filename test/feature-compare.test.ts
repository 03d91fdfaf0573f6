import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyseGcode } from '../bench/feature-compare.js';

const near = (a: number, b: number, what: string) => assert.ok(Math.abs(a - b) < 1e-9, `${what}: ${a} vs ${b}`);

test('feature-compare: path, filament and time per feature and per layer, with the peers\' names mapped to ours', () => {
  const gcode = [
    'G28',
    'G92 E0',
    ';LAYER_CHANGE',
    'G1 Z0.2 F600',
    ';TYPE:External perimeter',
    'G1 X10 Y0 E1 F600',
    ';TYPE:Internal infill',
    'G1 X10 Y5 E1.5',
    'G1 E-3.5 F2400',
    'G1 X20 Y5 F9000',
    'G1 E1.5 F2400',
    ';LAYER_CHANGE',
    'G1 Z0.4 F600',
    ';TYPE:Perimeter',
    'G1 X20 Y10 E2 F600',
    ';TYPE:Gap fill',
    'G1 X20 Y12 E2.1',
  ].join('\n');
  const r = analyseGcode('prusa.gcode', gcode);
  const f = (name: string) => r.features.get(name)!;
  near(f('WALL-OUTER').lengthMm, 10, 'outer wall path');
  near(f('WALL-OUTER').eMm, 1, 'outer wall E');
  near(f('FILL').lengthMm, 5, 'infill path');
  near(f('FILL').eMm, 0.5, 'infill E');
  near(f('WALL-INNER').lengthMm, 5, 'perimeter path');
  near(f('GAP-FILL').eMm, 0.1, 'gap fill E');
  // retraction and travel are not extrusion: they count as travel time only
  assert.equal(f('travel').eMm, 0);
  assert.ok(f('travel').timeS > 0);
  // at 10 mm/s a 10 mm wall takes at least a second (accelerations only add to it)
  assert.ok(f('WALL-OUTER').timeS >= 1);
  assert.equal(r.layers.length, 2);
  near(r.layers[0]!.eMm, 1.5, 'layer 0 E');
  near(r.layers[1]!.eMm, 0.6, 'layer 1 E');
  const sum = [...r.features.values()].reduce((t, v) => t + v.timeS, 0);
  near(sum, r.totalS, 'feature times add up to the total');
  near(r.netEMm, 2.1, 'net filament');
});
