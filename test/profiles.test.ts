import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import {
  DEFAULT_SETTINGS,
  GCODE_PLACEHOLDERS,
  FILAMENTS,
  PRINTERS,
  ProfileError,
  QUALITIES,
  SETTINGS_SCHEMA,
  SETTING_KEYS,
  SettingsError,
  checkShoreTable,
  densityForShore,
  getFilament,
  getPrinter,
  listFilaments,
  listPrinters,
  listQualities,
  resolveSettings,
  validateOverrides,
  validateValue,
  unknownPlaceholders,
} from '../src/profiles/index.js';
import { renderSettingsDoc } from '../src/profiles/settings-doc.js';
import { templateValues } from '../src/engine/output/template.js';

function throwsProfile(fn: () => unknown, code: string): ProfileError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof ProfileError, `expected ProfileError, got ${String(e)}`);
    assert.equal(e.code, code, e.message);
    return e;
  }
  assert.fail(`expected ProfileError ${code}`);
}

function throwsSettings(fn: () => unknown, code: string, key?: string): SettingsError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof SettingsError, `expected SettingsError, got ${String(e)}`);
    assert.equal(e.code, code, e.message);
    if (key !== undefined) assert.equal(e.key, key, e.message);
    return e;
  }
  assert.fail(`expected SettingsError ${code}`);
}

describe('default resolution', () => {
  it('equals DEFAULT_SETTINGS exactly, without warnings', () => {
    const r = resolveSettings({});
    assert.deepEqual(r.settings, { ...DEFAULT_SETTINGS });
    assert.deepEqual(r.warnings, []);
  });

  it('naming the default presets (or leaving them blank) gives the same', () => {
    const named = resolveSettings({ printer: 'Creality Ender 3', filament: 'Generic_PLA', quality: 'Recommended' });
    assert.deepEqual(named.settings, { ...DEFAULT_SETTINGS });
    assert.deepEqual(resolveSettings({ printer: ' ', filament: '', quality: '' }).settings, { ...DEFAULT_SETTINGS });
  });

  it('Createch_PLA (the tutorial filament) differs from the defaults only in its name', () => {
    const s = resolveSettings({ printer: 'Creality Ender 3', filament: 'Createch_PLA' }).settings;
    assert.deepEqual({ ...s, filamentName: DEFAULT_SETTINGS.filamentName }, { ...DEFAULT_SETTINGS });
    assert.equal(s.filamentName, 'Createch_PLA');
  });

  it('returns a fresh object each time', () => {
    const a = resolveSettings({}).settings;
    a.layerHeight = 0.3;
    assert.equal(resolveSettings({}).settings.layerHeight, 0.2);
  });
});

describe('schema', () => {
  it('has one entry per setting, in the order of the defaults', () => {
    assert.deepEqual([...SETTING_KEYS], Object.keys(DEFAULT_SETTINGS));
  });

  it('accepts every default value and keeps it unchanged', () => {
    for (const key of SETTING_KEYS) {
      assert.equal(validateValue(key, DEFAULT_SETTINGS[key]), DEFAULT_SETTINGS[key], key);
      assert.equal(SETTINGS_SCHEMA[key].default, DEFAULT_SETTINGS[key]);
      assert.ok(SETTINGS_SCHEMA[key].description.length > 5, key);
    }
  });
});

describe('printer catalogue', () => {
  it('has at least 30 printers, Creality Ender 3 first', () => {
    assert.ok(PRINTERS.length >= 30, `${PRINTERS.length} printers`);
    assert.equal(listPrinters()[0]!.name, 'Creality Ender 3');
    assert.equal(new Set(PRINTERS.map((p) => p.name)).size, PRINTERS.length);
  });

  it('(0,0) is the bed centre exactly on the printers whose firmware puts it there: deltas and the Adventurer 3', () => {
    // the Adventurer 3's coordinates run −75 … +75 (its makers' and Cura's definitions say so);
    // at the corner origin a part went 75 mm back and right, and the park past the axis limits
    const centred = PRINTERS.filter((p) => resolveSettings({ printer: p.name }).settings.originCenter).map((p) => p.name);
    const deltas = PRINTERS.filter((p) => resolveSettings({ printer: p.name }).settings.roundBed).map((p) => p.name);
    assert.ok(deltas.length >= 2, deltas.join(', '));
    assert.deepEqual(centred.sort(), [...deltas, 'Flashforge Adventurer 3'].sort());
  });

  it('the Adventurer 3 waits for its heaters with its own firmware\'s M7 and M6, not M190 and M109, which it does not list', () => {
    const s = resolveSettings({ printer: 'Flashforge Adventurer 3' }).settings;
    const code = (t: string) => t.split('\n').map((l) => l.split(';')[0]!.trim()).filter((l) => l !== '');
    const start = code(s.startGcode);
    assert.deepEqual(start.filter((l) => /^M(109|190|84)\b/.test(l)), []);
    assert.ok(start.indexOf('M132 X Y Z A B') > start.indexOf('G28'), start.join(' | '));
    assert.ok(start.indexOf('M7 T0') > 0 && start.indexOf('M6 T0') > start.indexOf('M7 T0'), start.join(' | '));
    assert.ok(start.indexOf('M6 T0') < start.findIndex((l) => /\bE\d/.test(l)), 'the purge waits for the nozzle');
    assert.deepEqual(code(s.endGcode).filter((l) => /^M(109|190|84)\b/.test(l)), []);
    assert.ok(code(s.endGcode).includes('M18'));
  });

  it('the Creality K1s leave heating to their START_PRINT macro, which is given the temperatures', () => {
    for (const name of ['Creality K1', 'Creality K1 Max']) {
      const start = resolveSettings({ printer: name }).settings.startGcode;
      const code = start.split('\n').map((l) => l.split(';')[0]!.trim()).filter((l) => l !== '');
      assert.equal(code[0], 'START_PRINT EXTRUDER_TEMP={first_layer_nozzle_temperature} BED_TEMP={first_layer_bed_temperature}', name);
      assert.deepEqual(code.filter((l) => /^M(104|109|140|190)\b/.test(l)), [], `${name} heats before its macro`);
    }
  });

  it('a printer that probes its bed does so on a hot bed with the nozzle at a probing temperature, not oozing at full heat', () => {
    // G80 (Prusa MK3) and Marlin's G29 measure the bed; M420 S1 and RepRapFirmware's G29 S1 load a saved mesh
    const probing = (l: string, flavor: string) => /^G80\b/.test(l) || (/^G29\b/.test(l) && !(flavor === 'reprap' && /\bS1\b/.test(l)));
    let probers = 0;
    for (const p of PRINTERS) {
      const s = resolveSettings({ printer: p.name }).settings;
      const code = s.startGcode.split('\n').map((l) => l.split(';')[0]!.trim()).filter((l) => l !== '');
      const probe = code.findIndex((l) => probing(l, s.gcodeFlavor));
      if (probe < 0) continue;
      probers++;
      const before = code.slice(0, probe);
      assert.ok(before.includes('M190 S{first_layer_bed_temperature}'), `${p.name}: the bed is not hot when it probes: ${code.join(' | ')}`);
      assert.ok(!before.some((l) => /^M10[49] S\{first_layer_nozzle_temperature\}/.test(l)), `${p.name}: the nozzle heats fully before probing`);
      assert.ok(before.includes('M109 R170'), `${p.name}: the nozzle is not waited to its probing temperature`);
      assert.ok(code.slice(probe).includes('M109 S{first_layer_nozzle_temperature}'), `${p.name}: no wait for printing temperature after probing`);
    }
    assert.ok(probers >= 5, `${probers} printers probe`);
  });

  it('every purge stroke in a start template lays at most 30 mm³ of the printer\'s own filament', () => {
    // the Ultimaker 2+ (2.85 mm) purged E10 per stroke as if 1.75 mm: 64 mm³ over 100 mm at 20 mm/s
    let strokes = 0;
    for (const p of PRINTERS) {
      const s = resolveSettings({ printer: p.name }).settings;
      const area = Math.PI * (s.filamentDiameter / 2) ** 2;
      for (const line of s.startGcode.split('\n').filter((l) => /purge/i.test(l))) {
        const e = /^G1 [^;]*\bE([\d.]+)/.exec(line);
        if (!e) continue;
        strokes++;
        assert.ok(Number(e[1]) * area <= 30, `${p.name}: ${line} lays ${(Number(e[1]) * area).toFixed(1)} mm³`);
      }
    }
    assert.ok(strokes >= 40, `${strokes} purge strokes`);
  });

  it('the settings check knows every placeholder the writer fills, and the writer fills every one it lists', () => {
    const names = Object.keys(templateValues(DEFAULT_SETTINGS, { layer_count: '1' })).sort();
    assert.deepEqual(Object.keys(GCODE_PLACEHOLDERS).sort(), names);
    const template = names.map((n) => `M117 {${n}}`).join('\n');
    assert.deepEqual(unknownPlaceholders(template), []);
    assert.deepEqual(resolveSettings({ overrides: { startGcode: template } }).warnings, []);
    assert.deepEqual(unknownPlaceholders('M117 {nozzle_temp} {layer_count}'), ['nozzle_temp']);
  });

  it('every printer resolves with every filament and quality, into valid settings', () => {
    for (const p of PRINTERS) {
      const r = resolveSettings({ printer: p.name });
      assert.deepEqual(r.warnings, [], p.name);
      assert.equal(r.settings.machineName, p.name);
      assert.equal(r.settings.bedWidth, p.bedWidth);
      assert.equal(r.settings.outputFormat, p.outputFormat);
      // Every resolved value passes the same validation as a client's overrides.
      assert.deepEqual(validateOverrides(r.settings), r.settings, p.name);
      for (const f of FILAMENTS) {
        for (const q of QUALITIES) {
          const s = resolveSettings({ printer: p.name, filament: f.name, quality: q.name }).settings;
          assert.ok(s.layerHeight <= s.nozzleDiameter * 0.75 + 1e-9, `${p.name}/${q.name}`);
          assert.equal(s.filamentDiameter, p.filamentDiameter);
        }
      }
    }
  });

  it('warns when a filament runs hotter than the printer allows, and only then', () => {
    // ABS presets print at 245–250 °C; the Adventurer 3's hotend stops at 240.
    const abs = FILAMENTS.find((f) => f.nozzleTemperature > 240)!;
    const r = resolveSettings({ printer: 'Flashforge Adventurer 3', filament: abs.name });
    assert.ok(r.warnings.some((w) => /nozzleTemperature \d+ °C is above Flashforge Adventurer 3's maximum nozzle temperature of 240 °C: the firmware caps/.test(w)), r.warnings.join('; '));
    assert.deepEqual(resolveSettings({ printer: 'Creality Ender 3', filament: abs.name }).warnings, []);
    const k = resolveSettings({ printer: 'Elegoo Neptune 4', overrides: { nozzleTemperature: 310 } });
    assert.ok(k.warnings.some((w) => /310 °C is above .* 300 °C: Klipper stops the print/.test(w)), k.warnings.join('; '));
    // A printer with the Marlin default accepts 260 °C and warns above it.
    assert.equal(resolveSettings({ printer: 'Creality Ender 3', overrides: { nozzleTemperature: 260 } }).warnings.length, 0);
    assert.equal(resolveSettings({ printer: 'Creality Ender 3', overrides: { firstLayerNozzleTemperature: 265 } }).warnings.length, 1);
    // No printer warns with any preset filament except where its hotend really is lower.
    for (const p of PRINTERS) for (const f of FILAMENTS) {
      const w = resolveSettings({ printer: p.name, filament: f.name }).warnings.filter((x) => /maximum nozzle temperature/.test(x));
      assert.equal(w.length > 0, Math.max(f.nozzleTemperature, f.firstLayerNozzleTemperature) > p.maxNozzleTemperature, `${p.name} / ${f.name}`);
    }
  });

  it('warns for every speed above the printer\'s feedrate limits, and only then', () => {
    const ender = resolveSettings({ printer: 'Creality Ender 3' }).settings;
    const fast = resolveSettings({ printer: 'Creality Ender 3', overrides: { printSpeed: 1000, infillSpeed: 1000, bridgeSpeed: 800, firstLayerTravelSpeed: 900, zSpeed: 50 } });
    for (const key of ['printSpeed 1000', 'infillSpeed 1000', 'bridgeSpeed 800', 'firstLayerTravelSpeed 900']) {
      assert.ok(fast.warnings.some((w) => w.startsWith(`${key} mm/s exceeds the printer's ${Math.min(ender.maxFeedrateX, ender.maxFeedrateY)} mm/s limit`)), `${key}: ${fast.warnings.join('; ')}`);
    }
    assert.ok(fast.warnings.some((w) => w.startsWith(`zSpeed 50 mm/s exceeds the printer's ${ender.maxFeedrateZ} mm/s Z limit`)), fast.warnings.join('; '));
    assert.equal(fast.warnings.length, 5, fast.warnings.join('; '));
    // at the limit: no warning
    assert.deepEqual(resolveSettings({ printer: 'Creality Ender 3', overrides: { printSpeed: Math.min(ender.maxFeedrateX, ender.maxFeedrateY) } }).warnings, []);
  });

  it('warns for settings that print in the air: a raft gap wider than the nozzle, no walls with no infill', () => {
    const gap = (g: number) => resolveSettings({ overrides: { adhesionType: 'raft', raftAirGap: g } }).warnings;
    assert.deepEqual(gap(0.3), []);
    assert.ok(gap(2).some((w) => w.startsWith('raftAirGap 2 mm is more than the nozzle')), gap(2).join('; '));
    const hollow = resolveSettings({ overrides: { wallCount: 0, infillDensity: 0 } }).warnings;
    assert.ok(hollow.some((w) => w.includes('top skins over the hollow inside have nothing to rest on')), hollow.join('; '));
    assert.ok(!resolveSettings({ overrides: { wallCount: 0 } }).warnings.some((w) => w.includes('nothing to rest on')));
  });

  it('knows the printers clients send, with their formats', () => {
    assert.equal(getPrinter('IdeaWerk-Speed').outputFormat, 'FCODE');
    assert.equal(getPrinter('Stratum One').outputFormat, 'FCODE');
    assert.equal(getPrinter('Creality Ender 3').outputFormat, 'GCODE');
    const s5 = resolveSettings({ printer: 'Ultimaker S5' }).settings;
    assert.equal(s5.gcodeFlavor, 'griffin');
    assert.equal(s5.filamentDiameter, 2.85);
    const delta = resolveSettings({ printer: 'FLSun Q5' }).settings;
    assert.equal(delta.originCenter, true);
    assert.equal(delta.bedWidth, delta.bedDepth);
    assert.equal(resolveSettings({ printer: 'Voron 2.4 (350)' }).settings.gcodeFlavor, 'klipper');
    assert.ok(resolveSettings({ printer: 'Voron 2.4 (350)' }).settings.junctionDeviation > 0);
    assert.equal(resolveSettings({ printer: 'Prusa i3 MK3S' }).settings.relativeExtrusion, true);
  });

  it('matches aliases ignoring case, spaces and punctuation', () => {
    assert.equal(getPrinter('CR-10').name, 'Creality CR-10');
    assert.equal(getPrinter('cr10').name, 'Creality CR-10');
    assert.equal(getPrinter('creality ender-3').name, 'Creality Ender 3');
    assert.equal(getPrinter('ENDER 3 V2').name, 'Creality Ender 3 V2');
    assert.equal(getPrinter('Original Prusa i3 MK3S+').name, 'Prusa i3 MK3S');
    assert.equal(resolveSettings({ printer: 'CR-10' }).settings.bedWidth, 300);
  });

  it('an unknown printer fails with close matches', () => {
    const e = throwsProfile(() => resolveSettings({ printer: 'Creality Ender 7' }), 'UNKNOWN_PRINTER');
    assert.ok(e.suggestions.includes('Creality Ender 3'), e.suggestions.join());
    assert.match(e.message, /Creality Ender 3/);
    const cr = throwsProfile(() => getPrinter('CR-11'), 'UNKNOWN_PRINTER');
    assert.equal(cr.suggestions[0], 'Creality CR-10');
    assert.ok(!cr.suggestions.includes('Prusa i3 MK3S'));
    assert.deepEqual(throwsProfile(() => getPrinter('zzzz qqqq'), 'UNKNOWN_PRINTER').suggestions, []);
  });
});

describe('filament and quality presets', () => {
  it('lists the required filaments, Generic_PLA first', () => {
    const names = listFilaments().map((f) => f.name);
    assert.equal(names[0], 'Generic_PLA');
    for (const n of ['Generic_PETG', 'Generic_ABS', 'Generic_ASA', 'Generic_TPU95A', 'Generic_TPU85A', 'Createch_PLA']) assert.ok(names.includes(n), n);
    for (const n of names) assert.match(n, /^[A-Za-z]+_[A-Za-z0-9_+]+$/);
  });

  it('finds filaments by alias and suggests close names', () => {
    assert.equal(getFilament('pla').name, 'Generic_PLA');
    assert.equal(getFilament('generic tpu 95a').name, 'Generic_TPU95A');
    assert.equal(getFilament('esun pla+').name, 'eSun_PLA+');
    const e = throwsProfile(() => resolveSettings({ filament: 'Generic_TPU90A' }), 'UNKNOWN_FILAMENT');
    assert.ok(e.suggestions.slice(0, 2).includes('Generic_TPU95A'), e.suggestions.join());
  });

  it('a flexible filament shortens retraction and caps speeds, also under Sketch', () => {
    const s = resolveSettings({ printer: 'Creality Ender 3', filament: 'Generic_TPU95A', quality: 'Sketch' }).settings;
    assert.ok(s.retractLength <= 2 && s.retractSpeed <= 20, `${s.retractLength} @ ${s.retractSpeed}`);
    for (const key of ['printSpeed', 'infillSpeed', 'outerWallSpeed', 'topBottomSpeed', 'firstLayerSpeed'] as const) assert.ok(s[key] <= 25, key);
    assert.equal(s.nozzleTemperature, 225);
  });

  it('quality presets scale layers and shells, and adapt to the nozzle', () => {
    assert.deepEqual(listQualities().map((q) => q.name), ['Recommended', 'Highquality', 'Sketch']);
    const hq = resolveSettings({ quality: 'Highquality' }).settings;
    assert.equal(hq.layerHeight, 0.1);
    assert.ok(hq.topLayers * hq.layerHeight >= 0.6 && hq.topLayers >= 4);
    assert.ok(hq.outerWallSpeed < DEFAULT_SETTINGS.outerWallSpeed);
    const sk = resolveSettings({ quality: 'sketch' }).settings;
    assert.equal(sk.layerHeight, 0.28);
    assert.ok(sk.infillSpeed > DEFAULT_SETTINGS.infillSpeed);
    // A 0.25 mm nozzle (set by override) gets layers it can print, and line widths to match.
    const fine = resolveSettings({ quality: 'Sketch', overrides: { nozzleDiameter: 0.25 } }).settings;
    assert.ok(fine.layerHeight <= 0.1875, String(fine.layerHeight));
    assert.equal(fine.lineWidth, 0.25);
    throwsProfile(() => resolveSettings({ quality: 'Ultra' }), 'UNKNOWN_QUALITY');
  });
});

describe('overrides', () => {
  it('apply last', () => {
    const s = resolveSettings({ quality: 'Highquality', overrides: { infillDensity: 35, layerHeight: 0.12, infillPattern: 'gyroid' } }).settings;
    assert.equal(s.infillDensity, 35);
    assert.equal(s.layerHeight, 0.12);
    assert.equal(s.infillPattern, 'gyroid');
  });

  it('reject unknown keys with suggestions', () => {
    const e = throwsSettings(() => validateOverrides({ layer_height: 0.2 }), 'UNKNOWN_KEY', 'layer_height');
    assert.equal(e.suggestions[0], 'layerHeight');
    assert.match(e.message, /layer_height.*layerHeight/);
    throwsSettings(() => validateOverrides({ toString: 1 }), 'UNKNOWN_KEY');
    throwsSettings(() => validateOverrides(JSON.parse('{"__proto__": {"x": 1}}')), 'UNKNOWN_KEY');
  });

  it('point the names CuraEngine and PrusaSlicer use at ours, without accepting them', () => {
    const first = (key: string) => throwsSettings(() => validateOverrides({ [key]: 1 }), 'UNKNOWN_KEY', key).suggestions[0];
    assert.equal(first('retraction_amount'), 'retractLength');
    assert.equal(first('retract_length'), 'retractLength');
    assert.equal(first('fill_density'), 'infillDensity');
    assert.equal(first('infill_sparse_density'), 'infillDensity');
    assert.equal(first('perimeters'), 'wallCount');
    assert.equal(first('slowdown_below_layer_time'), 'minLayerTime');
    // a longer form of one of our words counts as that word
    const e = throwsSettings(() => validateOverrides({ retractionDistance: 1 }), 'UNKNOWN_KEY', 'retractionDistance');
    assert.ok(e.suggestions.includes('retractLength'), e.suggestions.join());
  });

  it('reject wrong types, NaN, Infinity and out-of-range values', () => {
    throwsSettings(() => validateOverrides({ layerHeight: '0.2' }), 'BAD_VALUE', 'layerHeight');
    throwsSettings(() => validateOverrides({ layerHeight: Number.NaN }), 'BAD_VALUE', 'layerHeight');
    throwsSettings(() => validateOverrides({ printSpeed: Number.POSITIVE_INFINITY }), 'BAD_VALUE', 'printSpeed');
    throwsSettings(() => validateOverrides({ infillDensity: 101 }), 'BAD_VALUE', 'infillDensity');
    throwsSettings(() => validateOverrides({ infillDensity: -1 }), 'BAD_VALUE', 'infillDensity');
    throwsSettings(() => validateOverrides({ wallCount: 2.5 }), 'BAD_VALUE', 'wallCount');
    throwsSettings(() => validateOverrides({ gapFill: 'yes' }), 'BAD_VALUE', 'gapFill');
    throwsSettings(() => validateOverrides({ infillPattern: 'zigzag' }), 'BAD_VALUE', 'infillPattern');
    throwsSettings(() => validateOverrides({ machineName: 'x'.repeat(500) }), 'BAD_VALUE', 'machineName');
    throwsSettings(() => validateOverrides({ machineName: 'a\nb' }), 'BAD_VALUE', 'machineName');
    throwsSettings(() => validateOverrides({ startGcode: 'G28\u0000' }), 'BAD_VALUE', 'startGcode');
    throwsSettings(() => validateOverrides({ startGcode: 'G28\n'.repeat(10_000) }), 'BAD_VALUE', 'startGcode');
    throwsSettings(() => validateOverrides([1, 2]), 'BAD_VALUE');
    const e = throwsSettings(() => validateOverrides({ infillDensity: 150 }), 'BAD_VALUE');
    assert.match(e.message, /between 0 and 100/);
  });

  it('coerce strings only for text sources', () => {
    assert.deepEqual(validateOverrides(undefined), {});
    assert.deepEqual(validateOverrides(null), {});
    assert.deepEqual(
      validateOverrides({ layerHeight: ' 0.15 ', gapFill: 'false', wallCount: '3', infillPattern: 'Gyroid' }, { fromText: true }),
      { layerHeight: 0.15, gapFill: false, wallCount: 3, infillPattern: 'gyroid' },
    );
    throwsSettings(() => validateOverrides({ layerHeight: '0.1.5' }, { fromText: true }), 'BAD_VALUE');
    throwsSettings(() => validateOverrides({ layerHeight: '' }, { fromText: true }), 'BAD_VALUE');
  });

  it('cross-checks the merged result', () => {
    throwsSettings(() => resolveSettings({ overrides: { layerHeight: 0.5 } }), 'BAD_VALUE', 'layerHeight');
    throwsSettings(() => resolveSettings({ overrides: { lineWidth: 0.15 } }), 'BAD_VALUE', 'lineWidth');
    throwsSettings(() => resolveSettings({ overrides: { firstLayerHeight: 0.45 } }), 'BAD_VALUE', 'firstLayerHeight');
    const r = resolveSettings({ overrides: { firstLayerHeight: 0.35 } });
    assert.ok(r.warnings.some((w) => w.includes('firstLayerHeight')), r.warnings.join());
    // A bigger nozzle makes the same layer height fine.
    assert.equal(resolveSettings({ overrides: { nozzleDiameter: 0.6, layerHeight: 0.45 } }).settings.layerHeight, 0.45);
  });
});

describe('XML custom configuration', () => {
  const xml = `<?xml version="1.0" encoding="utf-8"?>
<!-- a client's custom configuration -->
<configuration>
  <setting name="layerHeight">0.15</setting>
  <setting name="infillDensity"> 40 </setting>
  <setting name='infillPattern'>gyroid</setting>
  <setting name="monotonicSkin">false</setting>
  <setting name="filamentName">Acme &amp; Sons PLA</setting>
  <setting name="startGcode">
G28 ; home&#10;G1 Z5 F3000
<![CDATA[M117 <ready>]]>
  </setting>
  <setting name="endGcode"/>
</configuration>`;

  it('reads the settings, keeps the printer and replaces the presets', () => {
    const r = resolveSettings({ printer: 'CR-10', filament: 'Generic_PETG', quality: 'Sketch', xml });
    const s = r.settings;
    assert.equal(s.layerHeight, 0.15);
    assert.equal(s.infillDensity, 40);
    assert.equal(s.infillPattern, 'gyroid');
    assert.equal(s.monotonicSkin, false);
    assert.equal(s.filamentName, 'Acme & Sons PLA');
    assert.equal(s.startGcode, 'G28 ; home\nG1 Z5 F3000\nM117 <ready>');
    assert.equal(s.endGcode, '');
    assert.equal(s.bedWidth, 300);
    assert.equal(s.nozzleTemperature, DEFAULT_SETTINGS.nozzleTemperature, 'PETG preset not applied');
    assert.equal(s.topLayers, DEFAULT_SETTINGS.topLayers, 'Sketch preset not applied');
    assert.ok(r.warnings.some((w) => w.includes('replaces')), r.warnings.join());
  });

  it('takes bytes, and overrides still apply on top', () => {
    const s = resolveSettings({ xml: new TextEncoder().encode(xml), overrides: { infillDensity: 10 } }).settings;
    assert.equal(s.infillDensity, 10);
    assert.equal(s.layerHeight, 0.15);
  });

  it('an empty file is EMPTY_XML', () => {
    throwsProfile(() => resolveSettings({ xml: '' }), 'EMPTY_XML');
    throwsProfile(() => resolveSettings({ xml: ' \n\t' }), 'EMPTY_XML');
    throwsProfile(() => resolveSettings({ xml: '\uFEFF' }), 'EMPTY_XML');
  });

  it('refuses what is not the flat configuration shape', () => {
    const bad: Array<[string, RegExp]> = [
      ['<!DOCTYPE c [<!ENTITY x "y">]><configuration/>', /DOCTYPE/],
      ['<configuration><setting name="layerHeight">&x;</setting></configuration>', /entity/],
      // names of Object.prototype's members are unknown entities too, not its functions as text
      ['<configuration><setting name="machineName">&constructor;</setting></configuration>', /unknown entity &constructor;/],
      ['<configuration><setting name="machineName">&toString;</setting></configuration>', /unknown entity &toString;/],
      ['<configuration><setting name="layerHeight">0.2</setting>', /configuration/],
      ['<configuration><setting name="layerHeight">0.2</configuration>', /setting/],
      ['<configuration><setting name="layerHeight"><b>0.2</b></setting></configuration>', /nested/],
      ['<config><setting name="layerHeight">0.2</setting></config>', /root element/],
      ['<configuration><setting>0.2</setting></configuration>', /name attribute/],
      ['<configuration><setting name=layerHeight>0.2</setting></configuration>', /quoted/],
      ['<configuration>text<setting name="layerHeight">0.2</setting></configuration>', /outside/],
      ['<configuration/><configuration/>', /after/],
      ['<configuration><setting name="layerHeight">1 & 2</setting></configuration>', /&/],
      ['not xml at all', /expected "<"/],
      // references to what XML does not allow as a character: a lone surrogate, a control character
      ['<configuration><setting name="machineName">a&#xD800;b</setting></configuration>', /bad character reference &#xD800;/],
      ['<configuration><setting name="machineName">a&#1;b</setting></configuration>', /bad character reference &#1;/],
      ['<configuration><setting name="machineName">a&#xFFFE;b</setting></configuration>', /bad character reference/],
    ];
    for (const [text, message] of bad) {
      const e = throwsProfile(() => resolveSettings({ xml: text }), 'BAD_XML');
      assert.match(e.message, message, text);
    }
  });

  it('names the setting when a name or value is wrong', () => {
    const unknown = throwsProfile(() => resolveSettings({ xml: '<configuration><setting name="layer_height">0.2</setting></configuration>' }), 'BAD_XML');
    assert.equal(unknown.key, 'layer_height');
    assert.match(unknown.message, /layer_height.*layerHeight/);
    const value = throwsProfile(() => resolveSettings({ xml: '<configuration><setting name="infillDensity">lots</setting></configuration>' }), 'BAD_XML');
    assert.equal(value.key, 'infillDensity');
    const twice = throwsProfile(
      () => resolveSettings({ xml: '<configuration><setting name="wallCount">2</setting><setting name="wallCount">3</setting></configuration>' }),
      'BAD_XML',
    );
    assert.equal(twice.key, 'wallCount');
  });

  it('refuses files over 1 MiB and bytes that are not UTF-8', () => {
    const big = `<configuration>${'<!-- padding -->'.repeat(70_000)}</configuration>`;
    assert.match(throwsProfile(() => resolveSettings({ xml: big }), 'BAD_XML').message, /larger/);
    throwsProfile(() => resolveSettings({ xml: new Uint8Array([0x3c, 0xff, 0xfe, 0x3e]) }), 'BAD_XML');
  });

  it('an empty configuration element is valid, with a warning', () => {
    const r = resolveSettings({ xml: '<configuration></configuration>' });
    assert.deepEqual(r.settings, { ...DEFAULT_SETTINGS });
    assert.equal(r.warnings.length, 1);
  });
});

describe('Shore calibration', () => {
  it('every table in the catalogue is usable; flexibles are on the A scale', () => {
    for (const f of FILAMENTS) {
      if (f.shoreToDensity) assert.equal(checkShoreTable(f.shoreToDensity), undefined, f.name);
      if (f.flexible) {
        assert.equal(f.shoreScale, 'A', f.name);
        assert.ok(f.shoreToDensity, f.name);
      }
    }
    assert.ok(getFilament('Generic_PLA').shoreToDensity);
    assert.match(checkShoreTable([[10, 20], [5, 30]]) ?? '', /increasing/);
  });

  it('interpolates linearly between rows', () => {
    const preset = { name: 'test', shoreToDensity: [[60, 10], [80, 50], [90, 100]] as const };
    assert.deepEqual(densityForShore(preset, 70), { density: 30, clamped: false });
    assert.deepEqual(densityForShore(preset, 80), { density: 50, clamped: false });
    assert.deepEqual(densityForShore(preset, 85), { density: 75, clamped: false });
    assert.deepEqual(densityForShore(preset, 60), { density: 10, clamped: false });
    assert.deepEqual(densityForShore(preset, 90), { density: 100, clamped: false });
  });

  it('clamps outside the table and says so', () => {
    const tpu = getFilament('Generic_TPU95A');
    const table = tpu.shoreToDensity!;
    assert.deepEqual(densityForShore(tpu, 0), { density: table[0]![1], clamped: true });
    assert.deepEqual(densityForShore(tpu, 120), { density: table[table.length - 1]![1], clamped: true });
    assert.equal(densityForShore(tpu, Number.NEGATIVE_INFINITY).clamped, true);
    assert.throws(() => densityForShore(tpu, Number.NaN), RangeError);
  });

  it('rises with hardness across a flexible table', () => {
    const tpu = getFilament('Generic_TPU85A');
    let last = -1;
    for (let shore = 30; shore <= 90; shore += 0.5) {
      const { density } = densityForShore(tpu, shore);
      assert.ok(density >= last, `shore ${shore}`);
      last = density;
    }
  });

  it('a filament without a table fails clearly', () => {
    throwsProfile(() => densityForShore(getFilament('Generic_PETG'), 50), 'NO_SHORE_TABLE');
  });
});

describe('docs/settings.md', () => {
  it('documents every key and every preset', () => {
    const doc = renderSettingsDoc();
    for (const key of SETTING_KEYS) assert.ok(doc.includes(`| \`${key}\` |`), key);
    for (const p of PRINTERS) assert.ok(doc.includes(`| ${p.name} |`), p.name);
    for (const f of FILAMENTS) assert.ok(doc.includes(`| ${f.name} |`), f.name);
    assert.ok(doc.includes('{first_layer_bed_temperature}'));
  });

  it('is up to date with the schema (regenerate: node dist/scripts/gen-settings-doc.js)', () => {
    const onDisk = readFileSync(new URL('../../docs/settings.md', import.meta.url), 'utf8');
    assert.equal(onDisk, renderSettingsDoc() + '\n');
  });
});
