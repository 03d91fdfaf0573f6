// FCode (docs/fcode.md): byte-exact round trips of sliced and hand-made G-code, the FCode printers
// through the engine, and damaged, truncated and foreign files as FCodeErrors (fuzzed a little).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { slice } from '../src/engine/pipeline.js';
import { parseModel } from '../src/engine/mesh/index.js';
import { resolveSettings } from '../src/profiles/index.js';
import type { ModelInput, SliceResult } from '../src/engine/types.js';
import { crc32, decodeFCode, encodeFCode, FCodeError, metadataFromGcode, readFCodeHeader } from '../src/engine/output/fcode-api.js';
import { ByteReader, ByteWriter } from '../src/engine/output/fcode-bytes.js';
import { parseFixed, writeFixed } from '../src/engine/output/fcode-numbers.js';
import { parseGcode } from '../src/engine/output/parse-gcode.js';
import { box, MODELS_DIR } from './mesh-fixtures.js';

const utf8 = new TextEncoder();
const text = (b: Uint8Array) => Buffer.from(b).toString('latin1');

function cubeModel(): ModelInput {
  if (MODELS_DIR) {
    const file = path.join(MODELS_DIR, 'xyz_calibration_cube.stl');
    return { name: 'cube.stl', mesh: parseModel(readFileSync(file), 'xyz_calibration_cube.stl').mesh };
  }
  const b = box(0, 0, 0, 20, 20, 20);
  return { name: 'cube.stl', mesh: { positions: new Float32Array(b.positions), indices: new Uint32Array(b.indices) } };
}

/** One slice of the cube on IdeaWerk-Speed in each format (shared by the tests below). */
const slices = (async () => {
  const model = cubeModel();
  const fcodeSettings = resolveSettings({ printer: 'IdeaWerk-Speed', overrides: { infillDensity: 10 } }).settings;
  const gcodeSettings = resolveSettings({ printer: 'IdeaWerk-Speed', overrides: { infillDensity: 10, outputFormat: 'GCODE' } }).settings;
  const fcode: SliceResult = await slice([model], fcodeSettings);
  const gcode: SliceResult = await slice([model], gcodeSettings);
  return { fcode, gcode };
})();

test('CRC-32 is the zip/PNG one (check value of "123456789") and continues across calls', () => {
  const b = utf8.encode('123456789');
  assert.equal(crc32(b), 0xcbf43926);
  assert.equal(crc32(b, 4, 9, crc32(b, 0, 4)), 0xcbf43926);
  assert.equal(crc32(new Uint8Array(0)), 0);
});

test('varints and zigzag round-trip up to 2^52; a varint past the end is an FCodeError', () => {
  const values = [0, 1, -1, 63, -64, 64, 127, 128, -129, 300000, -4800000, 2 ** 31, -(2 ** 31) - 5, 2 ** 52 - 1, -(2 ** 52)];
  const w = new ByteWriter(4);
  for (const v of values) w.signed(v);
  const r = new ByteReader(w.result(), 0, w.length, 'test');
  for (const v of values) assert.equal(r.signed(), v);
  assert.equal(r.pos, w.length);
  const cut = new ByteReader(Uint8Array.of(0x80, 0x80), 0, 2, 'test');
  assert.throws(() => cut.varint(), (e: unknown) => e instanceof FCodeError && e.code === 'BAD_BLOCK');
});

test('numbers: only the canonical spelling is taken, and it is written back the same', () => {
  const ok = ['0', '1', '-1', '12.5', '0.001', '-0.5', '123.45678', '2.40122', '200', '-5'];
  for (const s of ok) {
    const b = utf8.encode(s);
    const v = parseFixed(b, 0, b.length, 5);
    assert.ok(Number.isFinite(v), s);
    const w = new ByteWriter(4);
    writeFixed(w, v, 5);
    assert.equal(text(w.result()), s);
  }
  assert.equal(parseFixed(utf8.encode('2.40122'), 0, 7, 5), 240122);
  assert.equal(parseFixed(utf8.encode('12.5'), 0, 4, 3), 12500);
  for (const s of ['2.0', '-0', '+1', '01', '.5', '1.', '1.123456', '', '-', '1e3', '1 ', '0.10']) {
    const b = utf8.encode(s);
    assert.ok(Number.isNaN(parseFixed(b, 0, b.length, 5)), `"${s}" is not canonical`);
  }
});

test('a sliced model round-trips byte for byte, and FCode is much smaller than its G-code', async () => {
  const { fcode, gcode } = await slices;
  assert.equal(fcode.format, 'FCODE');
  assert.equal(gcode.format, 'GCODE');
  assert.ok(fcode.stats.timings.fcode! >= 0, 'the encoding time is reported with the stage timings');
  assert.equal(gcode.stats.timings.fcode, undefined);
  assert.deepEqual([...fcode.output.subarray(0, 5)], [0x43, 0x49, 0x52, 0x00, 2]); // CIR\0\x02, as the public samples
  const decoded = decodeFCode(fcode.output);
  assert.ok(Buffer.from(decoded.gcode).equals(Buffer.from(gcode.output)), 'decode(FCode) = the G-code of the same slice');
  assert.ok(fcode.output.length < gcode.output.length * 0.35, `FCode ${fcode.output.length} B vs G-code ${gcode.output.length} B`);
  // every motion and extrusion command is there: the parsed moves agree too
  const a = parseGcode(text(decoded.gcode));
  const b = parseGcode(text(gcode.output));
  assert.equal(a.moves.length, b.moves.length);
  assert.equal(a.netE, b.netE);
  assert.deepEqual(a.layerStarts, b.layerStarts);
  // re-encoding the decoded G-code gives the same file
  assert.ok(Buffer.from(encodeFCode(decoded.gcode, decoded.meta)).equals(Buffer.from(fcode.output)));
});

test('relative extrusion (M83): flagged in the header, predicted on E amounts, still byte-exact', async () => {
  const settings = resolveSettings({ printer: 'Stratum One', overrides: { infillDensity: 10, relativeExtrusion: true } }).settings;
  const r = await slice([cubeModel()], settings);
  assert.equal(r.format, 'FCODE');
  const d = decodeFCode(r.output);
  assert.equal(d.flags & 2, 2, 'relative-E flag');
  const g = text(d.gcode);
  assert.match(g, /^M83/m);
  assert.ok(Buffer.from(encodeFCode(d.gcode, d.meta)).equals(Buffer.from(r.output)));
  assert.ok(r.output.length < d.gcode.length * 0.35, `FCode ${r.output.length} B vs G-code ${d.gcode.length} B`);
  // the same G-code with the absolute-E guess decodes the same, only larger
  const absolute = encodeFCode(utf8.encode(g.replace(/^M83/m, 'M82')), d.meta);
  assert.equal(absolute[5]! & 2, 0);
  assert.ok(absolute.length > r.output.length, `${absolute.length} > ${r.output.length}`);
});

test('the metadata block carries the slice figures, the flavour and the machine', async () => {
  const { fcode } = await slices;
  const h = readFCodeHeader(fcode.output);
  const s = fcode.stats;
  assert.equal(h.version, 2);
  assert.deepEqual(h.decimals, { x: 3, y: 3, z: 3, e: 5, f: 0 });
  assert.equal(h.meta.printTimeS, s.printTimeS);
  assert.equal(h.meta.filamentMm, s.filamentMm);
  assert.equal(h.meta.filamentMm3, s.filamentMm3);
  assert.equal(h.meta.filamentG, s.filamentG);
  assert.deepEqual(h.meta.bounds, s.bounds);
  assert.equal(h.meta.layerCount, s.layerCount);
  assert.match(h.meta.generator ?? '', /^Stratum \d/);
  assert.equal(h.meta.machine, 'IdeaWerk-Speed');
  assert.equal(h.meta.flavor, 'marlin');
});

test('G-code comments give the metadata of G-code from elsewhere', async () => {
  const { gcode, fcode } = await slices;
  const m = metadataFromGcode(gcode.output);
  assert.equal(m.layerCount, fcode.stats.layerCount);
  assert.equal(m.printTimeS, Math.round(fcode.stats.printTimeS));
  assert.deepEqual(m.bounds, fcode.stats.bounds);
  assert.equal(m.machine, 'IdeaWerk-Speed');
  const prusaStyle = utf8.encode('; generated by PrusaSlicer 2.8.1 on 2024-01-01 at 10:00:00 UTC\nG1 X1\n;LAYER_CHANGE\n;LAYER:0\n;LAYER:1\n' +
    '; filament used [mm] = 1234.5\n; filament used [cm3] = 3.1\n; estimated printing time (normal mode) = 1h 2m 3s\n');
  const p = metadataFromGcode(prusaStyle);
  assert.deepEqual(p, { generator: 'PrusaSlicer 2.8.1', filamentMm: 1234.5, filamentMm3: 3100, printTimeS: 3723, layerCount: 2 });
  assert.equal(metadataFromGcode(utf8.encode(';LAYER_CHANGE\nG1 X1\n;LAYER_CHANGE\n;LAYER_CHANGE\n')).layerCount, 3);
  assert.deepEqual(metadataFromGcode(utf8.encode('G1 X1\n')), {});
});

/** G-code that is awkward on purpose: odd spellings, CRLF, bytes that are not UTF-8, long lines. */
function awkwardGcode(): Uint8Array {
  const lines = [
    ';FLAVOR:Marlin', '', 'G28 ; home', 'G1 Z2.0 F3000 ; lift', 'G1 X10 Y-0.5 E.5', 'G1 X1 F200 Y2', 'G1 F1200 X1.5 Y2.25 E0.00001',
    'G0 X100.001 Y0 Z0.3 F6000', 'G1 F1800 E-5', 'G1 F1800 E0', 'G1 E0 E1', 'G1 Y1 X2', 'G1', 'G0', 'G1  X1', 'G1 X1 ', 'G1 X0.0001',
    'G10', 'G11', 'g1 x1', 'G92 E0', 'G92 E-1.5', 'G92 X0', 'M106 S255', 'M106 S127.5', 'M106', 'M107', 'M1070', 'M104 S210',
    'M109 S215 T0', 'M140 S60', 'M190 S-1', 'M73 P5 R100', 'M73 P5', 'M73 Q5 R1', ';LAYER:-3', ';LAYER:12', ';LAYER:x',
    ';TYPE:WALL-OUTER', ';TYPE:Custom', ';TYPE:SUPPORT-INTERFACE', ';TIME_ELAPSED:12.345', ';TIME_ELAPSED:12.3456',
    ';TIME_ELAPSED:-1', 'G1 X1\r', '; ünïcödé ✓', 'x'.repeat(5000), 'G1 X99999999999999999 Y1', 'G1 X99999999999 E99999999.12345', 'G1 X999999999999 Y-999999999999', 'G1 X12345678901234 Y-12345678901234.5', 'G1 X-0', ';MESH:a.stl', ';MESH:a.stl',
  ];
  const body = utf8.encode(lines.join('\n'));
  const out = new Uint8Array(body.length + 4);
  out.set(body);
  out.set([10, 0xff, 0xfe, 0x80], body.length); // not UTF-8, no final newline
  return out;
}

test('any line survives: awkward G-code round-trips byte for byte, with or without a final newline', () => {
  const g = awkwardGcode();
  for (const input of [g, Uint8Array.from([...g, 10]), new Uint8Array(0), utf8.encode('\n'), utf8.encode('\n\n'), utf8.encode('G1 X1')]) {
    for (const blockLines of [1, 3, 4096]) {
      const f = encodeFCode(input, {}, { blockLines });
      const d = decodeFCode(f);
      assert.ok(Buffer.from(d.gcode).equals(Buffer.from(input)), `round trip (${input.length} bytes, blocks of ${blockLines})`);
    }
  }
  const many = decodeFCode(encodeFCode(g, {}, { blockLines: 3 }));
  assert.equal(many.blocks, Math.ceil(many.lines / 3));
});

test('decimals in the header: chosen from the G-code (Cura-style F with one decimal stays compact) or given', () => {
  const g = utf8.encode('G1 F2571.4 X1.2345 Y2\nG1 X3 Y4 E0.1234567\n');
  const f = encodeFCode(g, {}, { decimals: { x: 4, f: 1, e: 6 } });
  const d = decodeFCode(f);
  assert.ok(Buffer.from(d.gcode).equals(Buffer.from(g)));
  assert.deepEqual(d.decimals, { x: 4, y: 3, z: 3, e: 6, f: 1 });
  assert.throws(() => encodeFCode(g, {}, { decimals: { x: 9 } }), RangeError);
  // by default the decimals follow the G-code's moves (never fewer than Stratum's own)
  const auto = decodeFCode(encodeFCode(g, {}));
  assert.deepEqual(auto.decimals, { x: 4, y: 3, z: 3, e: 6, f: 1 });
  assert.ok(Buffer.from(auto.gcode).equals(Buffer.from(g)));
  const cura = utf8.encode(Array.from({ length: 200 }, (_, i) => `G1 F${1400 + i}.5 X${i}.25 Y${i % 7} E${i}.125`).join('\n'));
  const curaAuto = encodeFCode(cura, {});
  assert.equal(readFCodeHeader(curaAuto).decimals.f, 1);
  assert.ok(curaAuto.length * 3 < encodeFCode(cura, {}, { decimals: { f: 0 } }).length, 'moves with F decimals are coded, not text');
});

function expectFCodeError(bytes: Uint8Array, code: string, message?: RegExp): FCodeError {
  try {
    decodeFCode(bytes);
  } catch (e) {
    assert.ok(e instanceof FCodeError, `an FCodeError, not ${String(e)}`);
    assert.equal(e.code, code, e.message);
    if (message) assert.match(e.message, message);
    return e;
  }
  assert.fail(`no error for ${code}`);
}

test('a damaged block is caught by its CRC, with the block and its byte offset named', async () => {
  const { fcode } = await slices;
  const h = readFCodeHeader(fcode.output);
  // walk to block 1 and damage one byte in the middle of its payload
  const len0 = new DataView(fcode.output.buffer, fcode.output.byteOffset).getUint32(h.blocksAt, true);
  const block1 = h.blocksAt + 12 + len0;
  const bad = fcode.output.slice();
  bad[block1 + 40] ^= 0x10;
  const e = expectFCodeError(bad, 'BAD_CHECKSUM', new RegExp(`block 1 at byte ${block1} is damaged: CRC-32`));
  assert.equal(e.block, 1);
  assert.equal(e.offset, block1);
  // damage in the metadata
  const meta = fcode.output.slice();
  meta[20] ^= 1;
  expectFCodeError(meta, 'BAD_CHECKSUM', /metadata damaged/);
});

/** The FCode of `gcode` with its metadata replaced by `meta` (header CRC made good again). */
function withMetadata(gcode: string, meta: number[]): Uint8Array {
  const f = encodeFCode(utf8.encode(gcode), {});
  const oldLength = new DataView(f.buffer).getUint32(12, true);
  const head = Uint8Array.from([...f.subarray(0, 16), ...meta]);
  new DataView(head.buffer).setUint32(12, meta.length, true);
  const crc = new Uint8Array(4);
  new DataView(crc.buffer).setUint32(0, crc32(head), true);
  return Uint8Array.from([...head, ...crc, ...f.subarray(16 + oldLength + 4)]);
}

test('metadata: unknown tags are skipped; an entry past the end or of the wrong size is BAD_METADATA', () => {
  const ok = decodeFCode(withMetadata('G1 X1\n', [200, 2, 0, 0xaa, 0xbb, 6, 4, 0, 7, 0, 0, 0]));
  assert.deepEqual(ok.meta, { layerCount: 7 });
  assert.equal(text(ok.gcode), 'G1 X1\n');
  expectFCodeError(withMetadata('G1 X1\n', [6, 5, 0, 7, 0, 0, 0]), 'BAD_METADATA', /FCode metadata at byte 19: 5 byte\(s\) needed, 4 left/);
  expectFCodeError(withMetadata('G1 X1\n', [1, 4, 0, 0, 0, 0, 0]), 'BAD_METADATA', /tag 1 should hold 8 bytes/);
});

test('truncated, foreign, newer and padded files are clear errors', async () => {
  const { fcode, gcode } = await slices;
  expectFCodeError(gcode.output, 'BAD_MAGIC', /not an FCode file/);
  expectFCodeError(new Uint8Array(0), 'BAD_MAGIC');
  expectFCodeError(fcode.output.subarray(0, 10), 'TRUNCATED');
  expectFCodeError(fcode.output.subarray(0, 40), 'TRUNCATED');
  expectFCodeError(fcode.output.subarray(0, fcode.output.length - 12), 'TRUNCATED', /no end block/);
  expectFCodeError(fcode.output.subarray(0, Math.floor(fcode.output.length / 2)), 'TRUNCATED', /truncated/);
  const newer = fcode.output.slice();
  newer[4] = 3;
  expectFCodeError(newer, 'BAD_VERSION', /version 3 .*versions 1 and 2/);
  expectFCodeError(Uint8Array.from([...fcode.output, 0]), 'TRAILING_DATA');
});

test('a version 1 file (written before version 2, the same layout) still decodes to the same G-code', async () => {
  const { fcode } = await slices;
  const v1 = fcode.output.slice();
  v1[4] = 1;
  // the header's CRC-32 covers the version byte: made again as a version 1 writer made it
  const metaEnd = 16 + new DataView(v1.buffer, v1.byteOffset).getUint32(12, true);
  new DataView(v1.buffer, v1.byteOffset).setUint32(metaEnd, crc32(v1, 0, metaEnd), true);
  const old = decodeFCode(v1);
  assert.equal(old.version, 1);
  assert.deepEqual({ ...old, version: 2 }, decodeFCode(fcode.output));
});

test('fuzz: random byte flips and cuts always give an FCodeError (or the same G-code), never another throw', () => {
  const g = awkwardGcode();
  const f = encodeFCode(g, metadataFromGcode(g), { blockLines: 8 });
  let seed = 12345;
  const rand = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed % n;
  };
  let errors = 0;
  for (let k = 0; k < 400; k++) {
    const bad = k % 4 === 3 ? f.slice(0, rand(f.length)) : f.slice();
    if (k % 4 !== 3) for (let flips = 1 + rand(3); flips > 0; flips--) bad[rand(bad.length)] ^= 1 + rand(255);
    try {
      const d = decodeFCode(bad);
      // only a flip in a reserved spot may pass unnoticed; then the G-code must still be exact
      assert.ok(Buffer.from(d.gcode).equals(Buffer.from(g)), `case ${k} decoded to different G-code without an error`);
    } catch (e) {
      assert.ok(e instanceof FCodeError, `case ${k}: ${String(e)}`);
      errors++;
    }
  }
  assert.ok(errors >= 395, `${errors} of 400 damaged files were rejected`);
});

// ── the CLI ─────────────────────────────────────────────────────────────────────────────────

const BIN = fileURLToPath(new URL('../../bin/stratum.js', import.meta.url));
function stratum(cwd: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd, timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('stratum fcode encode / info / decode round-trip a file; damage fails with exit 1 and the block named', async () => {
  const { gcode, fcode } = await slices;
  const dir = mkdtempSync(path.join(tmpdir(), 'stratum-fcode-'));
  try {
    writeFileSync(path.join(dir, 'cube.gcode'), gcode.output);
    const enc = stratum(dir, 'fcode', 'encode', 'cube.gcode', '-o', 'cube.fcode', '--quiet');
    assert.equal(enc.code, 0, enc.stderr);
    const encoded = readFileSync(path.join(dir, 'cube.fcode'));
    const info = stratum(dir, 'fcode', 'info', 'cube.fcode');
    assert.equal(info.code, 0, info.stderr);
    const j = JSON.parse(info.stdout) as Record<string, unknown>;
    assert.equal(j.version, 2);
    assert.equal(j.gcodeBytes, gcode.output.length);
    assert.equal(j.layerCount, fcode.stats.layerCount);
    assert.equal(j.machine, 'IdeaWerk-Speed');
    const dec = stratum(dir, 'fcode', 'decode', 'cube.fcode', '-o', 'back.gcode');
    assert.equal(dec.code, 0, dec.stderr);
    assert.ok(readFileSync(path.join(dir, 'back.gcode')).equals(Buffer.from(gcode.output)));
    // the engine's FCode decodes to the same G-code too
    writeFileSync(path.join(dir, 'engine.fcode'), fcode.output);
    assert.equal(stratum(dir, 'fcode', 'decode', 'engine.fcode', '-o', 'engine.gcode').code, 0);
    assert.ok(readFileSync(path.join(dir, 'engine.gcode')).equals(Buffer.from(gcode.output)));

    const bad = Buffer.from(encoded);
    bad[bad.length - 100] ^= 0x55;
    writeFileSync(path.join(dir, 'bad.fcode'), bad);
    const broken = stratum(dir, 'fcode', 'decode', 'bad.fcode', '-o', 'bad.gcode');
    assert.equal(broken.code, 1);
    assert.match(broken.stderr, /bad\.fcode: FCode block \d+ at byte \d+ is damaged: CRC-32 .*\[BAD_CHECKSUM\]/);
    assert.equal(existsSync(path.join(dir, 'bad.gcode')), false);
    const foreign = stratum(dir, 'fcode', 'info', 'cube.gcode');
    assert.equal(foreign.code, 1);
    assert.match(foreign.stderr, /not an FCode file/);
    assert.equal(stratum(dir, 'fcode', 'decode', 'cube.fcode').code, 2, 'missing -o is a usage error');
    assert.equal(stratum(dir, 'fcode', 'unpack', 'cube.fcode').code, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('stratum slice -o x.fcode writes FCode; --format and .gcode override the printer', { skip: !MODELS_DIR }, () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'stratum-fcode-'));
  try {
    const cube = path.join(MODELS_DIR!, 'xyz_calibration_cube.stl');
    const a = stratum(dir, 'slice', cube, '-o', 'a.fcode', '--json');
    assert.equal(a.code, 0, a.stderr);
    assert.equal((JSON.parse(a.stdout) as { format: string }).format, 'FCODE');
    assert.deepEqual([...readFileSync(path.join(dir, 'a.fcode')).subarray(0, 4)], [0x43, 0x49, 0x52, 0]);
    const b = stratum(dir, 'slice', cube, '-p', 'IdeaWerk-Speed', '-o', 'b.gcode', '--quiet');
    assert.equal(b.code, 0, b.stderr);
    assert.match(readFileSync(path.join(dir, 'b.gcode'), 'latin1'), /^;FLAVOR:/);
    const c = stratum(dir, 'slice', cube, '-p', 'IdeaWerk-Speed', '-o', 'c.out', '--format', 'gcode', '--quiet');
    assert.equal(c.code, 0, c.stderr);
    assert.match(readFileSync(path.join(dir, 'c.out'), 'latin1'), /^;FLAVOR:/);
    assert.equal(stratum(dir, 'slice', cube, '-o', 'd.out', '--format', 'svg').code, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('stratum fcode encode refuses what is not G-code: an STL, an FCode file, an empty file (exit 1, nothing written)', async () => {
  const { fcode } = await slices;
  const dir = mkdtempSync(path.join(tmpdir(), 'stratum-fcode-not-'));
  try {
    writeFileSync(path.join(dir, 'part.stl'), Buffer.concat([Buffer.alloc(80), Buffer.from([12, 0, 0, 0])]));
    writeFileSync(path.join(dir, 'ascii.stl'), 'solid a\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid a\n');
    writeFileSync(path.join(dir, 'twice.gcode'), fcode.output);
    writeFileSync(path.join(dir, 'empty.gcode'), '');
    // line-numbered G-code, as hosts that add checksums write it, is G-code
    writeFileSync(path.join(dir, 'numbered.gcode'), 'N1 G28*18\nN2 G1 X10 Y10 F3000*85\n');
    assert.equal(stratum(dir, 'fcode', 'encode', 'numbered.gcode', '-o', 'numbered.fcode', '--quiet').code, 0);
    for (const [name, why] of [['part.stl', /binary bytes/], ['ascii.stl', /no G, M or T command/], ['twice.gcode', /FCode already/], ['empty.gcode', /empty/]] as const) {
      const r = stratum(dir, 'fcode', 'encode', name, '-o', 'out.fcode');
      assert.equal(r.code, 1, `${name}: ${r.stderr}`);
      assert.match(r.stderr, why);
      assert.equal(existsSync(path.join(dir, 'out.fcode')), false);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
