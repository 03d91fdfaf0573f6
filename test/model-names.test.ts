// Model names reach the G-code as `;MESH:` comments: whatever a file or a workspace calls a model,
// its name must stay inside the comment.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { slice } from '../src/engine/pipeline.js';
import { initGeometry } from '../src/engine/geom/clipper.js';
import { commentSafe, MAX_COMMENT_NAME } from '../src/engine/output/comment-text.js';
import { defaultSettings } from '../src/profiles/defaults.js';
import { box } from './mesh-fixtures.js';
import { outputFileName } from '../src/service/file-rules.js';
import { batchOutputs } from '../src/cli/slice-batch.js';
import { basename, join } from 'node:path';

test('a name with line breaks or control characters stays one comment line; a long one is cut', () => {
  assert.equal(commentSafe('a\nM104 S300\r\n;'), 'a M104 S300 ;');
  assert.equal(commentSafe('tab\there\u0000\u001b[2J'), 'tab here [2J');
  assert.equal(commentSafe('a\u2028b\u0085c\u202Ed'), 'a b c d');
  assert.equal(commentSafe('Büste (v2).stl'), 'Büste (v2).stl');
  const long = commentSafe('😀'.repeat(500));
  assert.equal(Array.from(long).length, MAX_COMMENT_NAME);
  assert.ok(long.endsWith('…') && !/[\ud800-\udbff]…$/.test(long), 'cut between code points');
});

test('a slice of a model named with a line break writes no line of the name as a command', async () => {
  await initGeometry();
  const s = { ...defaultSettings(), skirtLoops: 0 };
  const cube = box(0, 0, 0, 10, 10, 1);
  const mesh = { positions: Float32Array.from(cube.positions), indices: Uint32Array.from(cube.indices) };
  const r = await slice([{ name: 'evil\nM104 S300\n;', mesh }], s);
  const lines = new TextDecoder().decode(r.output).split('\n');
  assert.ok(lines.some((l) => l === ';MESH:evil M104 S300 ;'));
  assert.ok(!lines.some((l) => l.startsWith('M104 S300')), 'the name became a command');
});

test("the printer file's name stays within 255 bytes: a long input name's base is cut at a whole character", () => {
  assert.equal(outputFileName('cube.stl', '.gcode'), 'cube.gcode');
  assert.equal(outputFileName('part.v2.STL', '.fcode'), 'part.v2.fcode');
  const long = `${'a'.repeat(251)}.stl`; // 255 bytes, the longest name an upload may have
  const out = outputFileName(long, '.gcode');
  assert.equal(Buffer.byteLength(out), 255);
  assert.ok(out.endsWith('.gcode'));
  // 3-byte characters: cut before one that would not fit whole, never inside it
  const wide = `${'é'.repeat(10)}${'€'.repeat(77)}.stl`; // 20 + 231 + 4 = 255 bytes
  const cut = outputFileName(wide, '.gcode');
  assert.ok(Buffer.byteLength(cut) <= 255, `${Buffer.byteLength(cut)} bytes`);
  assert.ok(!cut.includes('\uFFFD'));
  assert.equal(cut, `${'é'.repeat(10)}${'€'.repeat(76)}.gcode`);
});

test('the CLI names a batch slice\'s outputs by the same rule: a 255-byte model name gives a 255-byte output name', () => {
  const long = `${'m'.repeat(251)}.stl`;
  const [out] = batchOutputs([`/models/${long}`, '/models/cube.stl'], '/out', 'GCODE');
  assert.equal(Buffer.byteLength(basename(out!)), 255);
  assert.equal(batchOutputs(['/models/cube.STL'], '/out', 'FCODE')[0], join('/out', 'cube.fcode'));
});
