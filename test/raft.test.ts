import { test } from 'node:test';
import assert from 'node:assert/strict';
import { box } from './mesh-fixtures.js';
import { sliceMeshes } from './support-gcode.js';
import { raftHeights } from '../src/engine/adhesion/raft.js';
import { defaultSettings } from '../src/profiles/defaults.js';
import type { SliceSettings } from '../src/engine/settings.js';

test('raft: by default the part sits 0.1 mm above it', async () => {
  const { moves } = await sliceMeshes([box(0, 0, 0, 10, 10, 2)], { adhesionType: 'raft', raftLayers: 3 });
  const part = moves.filter((m) => m.type.startsWith('WALL'));
  assert.ok(Math.abs(Math.min(...part.map((m) => m.z)) - 1.0) < 1e-6, `first part layer at ${Math.min(...part.map((m) => m.z))}`);
});

test('raft: its layers come first, the part is raised by the raft and the air gap, the raft reaches the margin', async () => {
  const { moves, result } = await sliceMeshes([box(0, 0, 0, 10, 10, 2)], { adhesionType: 'raft', raftLayers: 3, raftMargin: 3, raftAirGap: 0.25 });
  assert.ok(!result.stats.warnings.some((w) => /raft/.test(w)), 'no "not generated" warning');
  const zs = [...new Set(moves.map((m) => m.z))].sort((a, b) => a - b);
  // base 0.3 mm, then two 0.2 mm layers: tops at 0.3, 0.5, 0.7
  const raftZs = [...new Set(moves.filter((m) => m.type === 'RAFT').map((m) => m.z))].sort((a, b) => a - b);
  assert.deepEqual(raftZs, [0.3, 0.5, 0.7]);
  assert.deepEqual(zs.slice(0, 3), [0.3, 0.5, 0.7]);
  // raft layers hold only raft (and the skirt around it)
  assert.ok(moves.filter((m) => m.z <= 0.7 + 1e-6).every((m) => m.type === 'RAFT' || m.type === 'SKIRT'));
  // the part's first layer: 0.7 + 0.25 air gap + 0.2; its top 0.7 + 0.25 + 2
  const part = moves.filter((m) => m.type.startsWith('WALL'));
  assert.ok(Math.abs(Math.min(...part.map((m) => m.z)) - 1.15) < 1e-6, `first part layer at ${Math.min(...part.map((m) => m.z))}`);
  assert.ok(Math.abs(Math.max(...part.map((m) => m.z)) - 2.95) < 1e-6);
  // the raft spans the part (105…115) plus 3 mm each side
  const rx = moves.filter((m) => m.type === 'RAFT').flatMap((m) => [m.x0, m.x1]);
  assert.ok(Math.min(...rx) < 102.6 && Math.min(...rx) > 101.8, `raft from x ${Math.min(...rx)}`);
  assert.ok(Math.max(...rx) > 117.4 && Math.max(...rx) < 118.2, `raft to x ${Math.max(...rx)}`);
  // the skirt goes around the raft, not the part
  const skirt = moves.filter((m) => m.type === 'SKIRT').flatMap((m) => [m.x0, m.x1]);
  assert.ok(skirt.length > 0 && Math.min(...skirt) < 102 - 5.9);
});

test('raft with support: the support stands on the raft, filling the air gap, and the raft covers its footprint', async () => {
  const t = [box(0, 0, 0, 10, 10, 6), box(-10, 0, 6, 20, 10, 8)];
  const { moves } = await sliceMeshes(t, { adhesionType: 'raft', supportType: 'everywhere', raftAirGap: 0.2 });
  const sup = moves.filter((m) => m.type === 'SUPPORT' || m.type === 'SUPPORT-INTERFACE');
  assert.ok(sup.length > 0);
  assert.ok(Math.abs(Math.min(...sup.map((m) => m.z)) - 1.1) < 1e-6, 'support starts on the first layer above the raft (0.7 + 0.2 + 0.2)');
  // the support's beads on that layer are 0.4 mm tall, not 0.2: twice the filament per mm of the layer above
  const perMm = (z: number) => {
    const at = sup.filter((m) => Math.abs(m.z - z) < 1e-6 && m.type === 'SUPPORT');
    const len = at.reduce((a, m) => a + Math.hypot(m.x1 - m.x0, m.y1 - m.y0), 0);
    return at.reduce((a, m) => a + m.e, 0) / len;
  };
  const ratio = perMm(1.1) / perMm(1.3);
  assert.ok(Math.abs(ratio - 2) < 0.1, `support filament per mm above the raft ${ratio.toFixed(3)}× the next layer's`);
  const rx = moves.filter((m) => m.type === 'RAFT').flatMap((m) => [m.x0, m.x1]);
  const sx = sup.flatMap((m) => [m.x0, m.x1]);
  assert.ok(Math.min(...rx) < Math.min(...sx) - 2.5 && Math.max(...rx) > Math.max(...sx) + 2.5, 'the raft reaches past the support');
});

test('a one-layer raft is solid: its lines lie one bead width apart', async () => {
  const { moves } = await sliceMeshes([box(0, 0, 0, 10, 10, 2)], { adhesionType: 'raft', raftLayers: 1 });
  const raft = moves.filter((m) => m.type === 'RAFT' && m.y0 === m.y1 && Math.abs(m.x1 - m.x0) > 5);
  const ys = [...new Set(raft.map((m) => m.y0))].sort((a, b) => a - b);
  assert.ok(ys.length > 10, `${ys.length} raft lines`);
  // twice the line width (the base layer's wide beads), no wider gaps between them
  for (let i = 1; i < ys.length; i++) assert.ok(ys[i] - ys[i - 1] <= 0.8 + 0.01, `gap ${(ys[i] - ys[i - 1]).toFixed(3)} mm`);
});

test('the layer above a raft rests on it: its bottom skin is not printed as a bridge', async () => {
  const { text } = await sliceMeshes([box(0, 0, 0, 10, 10, 2)], { adhesionType: 'raft', raftLayers: 3 });
  // the part's first layer is ;LAYER:3; with the raft off the same part has no bridge anywhere either
  const layer3 = text.slice(text.indexOf(';LAYER:3\n'), text.indexOf(';LAYER:4\n'));
  assert.ok(layer3.includes(';TYPE:SKIN'), 'the first part layer is bottom skin');
  assert.ok(!text.includes(';BRIDGE'), 'no bridge anywhere on a plain box on a raft');
});

test('the raft base is 1.5× the first layer, capped at three quarters of the nozzle and never under the first layer', () => {
  const base = (over: Partial<SliceSettings>) => raftHeights(defaultSettings({ adhesionType: 'raft', raftLayers: 3, ...over }))[0];
  assert.equal(base({}), 300);
  // a 0.4 mm first layer on a 0.4 mm nozzle made a 0.6 mm base
  assert.equal(base({ firstLayerHeight: 0.4 }), 400);
  assert.equal(base({ firstLayerHeight: 0.28 }), 300);
  assert.equal(base({ firstLayerHeight: 0.3, nozzleDiameter: 0.6, lineWidth: 0.6 }), 450);
  assert.equal(base({ firstLayerHeight: 0.1 }), 150);
});
