// ASCII STL is read two ways: through a string with regular expressions (files up to 8 MiB, fast
// from the first line) and by the byte scanner (larger files). Both must read every file alike:
// the same coordinates, warnings and errors, word for word.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readAsciiStl, readAsciiStlBytes, readAsciiStlText, STRING_PATH_MAX_BYTES } from '../src/engine/mesh/stl-ascii.js';
import { DECIMAL_TEXT } from '../src/engine/mesh/text-scan.js';
import { parseModel } from '../src/engine/mesh/index.js';
import { asciiStl, box, soup } from './mesh-fixtures.js';

const enc = (s: string) => new TextEncoder().encode(s);
const cube = asciiStl(soup(box(0, 0, 0, 10, 10, 10)));

function outcome(read: (b: Uint8Array) => unknown, bytes: Uint8Array): unknown {
  try {
    const r = read(bytes) as { positions: Float32Array; warnings: string[] };
    return { positions: Array.from(r.positions), warnings: r.warnings };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

const cases: Record<string, string> = {
  cube,
  'CRLF, tabs, vertical tabs and form feeds': cube.replaceAll('\n', '\r\n').replaceAll(' ', '\t\v\f '),
  'upper case and exponents': cube.replace(/vertex (\S+) (\S+)/g, (_m, x: string, y: string) => `VERTEX ${Number(x).toExponential()} +${y}.`),
  'a quad fanned into two triangles': 'solid q\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 1 1 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid\n',
  'a facet of two vertices is skipped': 'solid s\nfacet\nvertex 0 0 0\nvertex 1 0 0\nendfacet\nfacet\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendsolid',
  'missing end markers': 'solid m\nfacet normal 0 0 1 outer loop vertex 0 0 0 vertex 1 0 0 vertex 0 1 0\nfacet normal 0 0 1 outer loop vertex 0 0 1 vertex 1 0 1 vertex 0 1 1',
  'keywords inside names are not keywords': 'solid vertexfacet\nfacet normal 0 0 1\nouter loop\nvertex .5 -.5 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid xvertex',
  'truncated after a coordinate': 'solid t\nfacet\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1',
  'truncated after the keyword': 'solid t\nfacet\nvertex 0 0 0\nvertex 1 0 0\nvertex   \n',
  'a keyword where a coordinate is due': 'solid k\nfacet\nvertex 0 0\nendloop\n',
  'NaN': cube.replace('vertex 10', 'vertex nan'),
  'infinity': cube.replace('vertex 10', 'vertex -inf'),
  'hexadecimal': cube.replace('vertex 10', 'vertex 0x10'),
  'too large': cube.replace('vertex 10', 'vertex 1e999'),
  'long mantissa': cube.replace('vertex 10', 'vertex 1.00000000000000000000001'),
  // past 64 characters the byte scanner refused any number (audit D6)
  'a 68-character coordinate': cube.replace('vertex 10', `vertex 1.${'0'.repeat(66)}`),
  'a 300-character coordinate with an exponent': cube.replace('vertex 10', `vertex 0.${'0'.repeat(290)}1e300`),
  'a 70-digit coordinate, beyond float32': cube.replace('vertex 10', `vertex ${'9'.repeat(70)}`),
  'a 70-digit coordinate, beyond float64': cube.replace('vertex 10', `vertex 1${'0'.repeat(69)}e300`),
  'a long run of digits ending in a letter': cube.replace('vertex 10', `vertex ${'1'.repeat(5000)}x`),
  'Latin-1 bytes in a name': 'solid caf\xe9 \x80\x9f\nfacet\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendsolid',
  'no facets': 'solid e\nendsolid e\n',
  empty: '',
};

test('the string reader and the byte scanner read every case alike', () => {
  for (const [name, text] of Object.entries(cases)) {
    // Latin-1 bytes as they are (the byte scanner reads bytes, not UTF-8)
    const bytes = Uint8Array.from(text, (c) => c.charCodeAt(0) & 0xff);
    assert.deepEqual(outcome(readAsciiStlText, bytes), outcome(readAsciiStlBytes, bytes), name);
  }
  // and the cases mean what they say
  assert.match((outcome(readAsciiStlText, enc(cases['a keyword where a coordinate is due']!)) as { error: string }).error, /'endloop' on line 4/);
  assert.match((outcome(readAsciiStlText, enc(cases['truncated after the keyword']!)) as { error: string }).error, /the file ends in the middle of a vertex on line 6 \(is it truncated\?\)/);
  assert.equal((outcome(readAsciiStlText, enc(cases['a quad fanned into two triangles']!)) as { positions: number[] }).positions.length, 18);
});

test('a coordinate of any length reads the same on both paths, through parseModel (up to 8 MiB and beyond)', () => {
  const long = cube.replace(/vertex 10 /g, `vertex 1${'0'.repeat(71)}e-70 `); // 10, in 76 characters
  const padding = ' '.repeat(1023) + '\n';
  const big = long + padding.repeat(STRING_PATH_MAX_BYTES / padding.length + 16);
  assert.ok(big.length > STRING_PATH_MAX_BYTES);
  const small = parseModel(enc(long), 'long.stl');
  assert.deepEqual(parseModel(enc(cube), 'cube.stl').mesh, small.mesh);
  assert.deepEqual(parseModel(enc(big), 'long.stl'), small);
  // a coordinate float32 cannot hold is refused alike
  const huge = cube.replace('vertex 10', `vertex ${'9'.repeat(70)}`);
  const refusal = /'huge\.stl' \(ASCII STL\) has a vertex coordinate that is infinite/;
  assert.throws(() => parseModel(enc(huge), 'huge.stl'), refusal);
  assert.throws(() => parseModel(enc(huge + padding.repeat(STRING_PATH_MAX_BYTES / padding.length + 16)), 'huge.stl'), refusal);
});

test('a decimal number is recognised in time linear in its length', () => {
  // `\d+\.?\d*` split a run of digits every way: 50,000 digits and a letter took about 2.7 s
  const started = performance.now();
  assert.equal(DECIMAL_TEXT.test(`${'1'.repeat(50_000)}x`), false);
  assert.equal(DECIMAL_TEXT.test(`${'1'.repeat(50_000)}.${'1'.repeat(50_000)}e`), false);
  assert.equal(DECIMAL_TEXT.test(`-${'1'.repeat(50_000)}.${'1'.repeat(50_000)}e+7`), true);
  assert.ok(performance.now() - started < 250, `${performance.now() - started} ms`);
  for (const yes of ['1', '-1.', '+.5', '1e5', '1.5E-3', '007']) assert.ok(DECIMAL_TEXT.test(yes), yes);
  for (const no of ['', '.', 'e5', '1e', '0x10', 'inf', '1.2.3', '1 2', '+-1']) assert.ok(!DECIMAL_TEXT.test(no), no);
});

test('files up to 8 MiB take the string path; the choice does not change the result', () => {
  assert.equal(STRING_PATH_MAX_BYTES, 8 << 20);
  assert.deepEqual(outcome(readAsciiStl, enc(cube)), outcome(readAsciiStlBytes, enc(cube)));
});
