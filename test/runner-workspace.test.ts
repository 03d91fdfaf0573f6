// The Workspace reader the worker uses: both key casings, absolute positions kept, modifiers and
// point-cloud references kept apart from the printed models, and errors that give the JSON path.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WorkspaceError, readWorkspace } from '../src/service/workspace/read-workspace.js';

const enc = (v: unknown) => new TextEncoder().encode(typeof v === 'string' ? v : JSON.stringify(v));
const tri = (z = 0) => [
  { X: 100, Y: 100, Z: z },
  { X: 120, Y: 100, Z: z },
  { X: 100, Y: 120, Z: z + 5 },
];

test('capitalised keys (real files): positions kept in bed millimetres, indices used', () => {
  const ws = readWorkspace(
    enc({ Models: [{ metaData: { Name: 'part.stl', SlicingPriority: 0 }, ModelPositions: tri(), ModelIndices: [0, 1, 2] }] }),
    'a.rvwj',
  );
  assert.equal(ws.models.length, 1);
  const m = ws.models[0]!;
  assert.equal(m.name, 'part.stl');
  assert.equal(m.keepPosition, true);
  assert.deepEqual(Array.from(m.mesh.positions), [100, 100, 0, 120, 100, 0, 100, 120, 5]);
  assert.deepEqual(Array.from(m.mesh.indices), [0, 1, 2]);
  assert.deepEqual(ws.warnings, []);
});

test('lower-case keys (the interface text), no indices, no SlicingPriority (2019 files)', () => {
  const ws = readWorkspace(
    enc({ models: [{ MetaData: { name: 'old' }, modelPositions: tri().map((p) => ({ x: p.X, y: p.Y, z: p.Z })) }] }),
    'b.json',
  );
  assert.equal(ws.models[0]!.name, 'old');
  assert.deepEqual(Array.from(ws.models[0]!.mesh.indices), [0, 1, 2]);
});

test('modifiers and point-cloud modifiers are kept apart from the printed models', () => {
  const ws = readWorkspace(
    enc({
      Models: [
        { metaData: { Name: 'part' }, ModelPositions: tri() },
        { metaData: { Name: 'dense', SlicingPriority: 1, Modifier: { FillDensityFactor: 0.8 } }, ModelPositions: tri() },
        { metaData: { Name: 'soft', SlicingPriority: 2, Modifier: {}, FileReference: 'shore.bin' }, ModelPositions: tri() },
      ],
    }),
    'c.rvwj',
  );
  assert.deepEqual(ws.models.map((m) => m.name), ['part']);
  assert.deepEqual(
    ws.modifiers.map((m) => [m.name, m.priority, m.fillDensity, m.fileReference]),
    [
      ['dense', 1, 0.8, undefined],
      ['soft', 2, undefined, 'shore.bin'],
    ],
  );
  assert.deepEqual(ws.modifiers.map((m) => m.path), ['Models[1]', 'Models[2]']);
  assert.deepEqual(ws.warnings, []);
});

test('files that cannot be sliced fail with a message naming the problem', () => {
  const bad: Array<[unknown, RegExp]> = [
    ['{"Models": [', /not valid JSON/],
    [[1, 2], /must be a JSON object/],
    [{ Printer: {} }, /no models array/],
    [{ Models: [] }, /no model to print/],
    [{ Models: [{ metaData: { Name: 'm', SlicingPriority: 1, Modifier: {} }, ModelPositions: tri() }] }, /sets neither FillDensityFactor/],
    [{ Models: [{ metaData: { Name: 'm', SlicingPriority: 1, Modifier: { FillDensityFactor: 0.5 } }, ModelPositions: tri() }] }, /no model to print/],
    [{ Models: [{ metaData: { Name: 'm' } }] }, /^Models\[0\]\.ModelPositions is missing/],
    [{ Models: [{ metaData: { Name: 'm' }, ModelPositions: [{ X: 1, Y: 'a', Z: 0 }] }] }, /^Models\[0\]\.ModelPositions\[0\]\.Y must be a finite number/],
    [{ Models: [{ metaData: { Name: 'm' }, ModelPositions: tri(), ModelIndices: [0, 1, 7] }] }, /ModelIndices\[2\]/],
    [{ models: [{ metaData: { Name: 'm' }, modelPositions: [[0, 0, 0], [1, 0, null], [0, 1, 0]] }] }, /^models\[0\]\.modelPositions\[1\]\[2\] must be a finite number/],
    [{ Models: [{ MetaData: { Name: 'm', slicingpriority: 1.5 }, ModelPositions: tri() }] }, /^Models\[0\]\.MetaData\.slicingpriority must be a whole number/],
    [{ Models: [{ metaData: { Name: 'm' }, ModelPositions: tri(), ModelIndices: [0, 1] }] }, /not a multiple of 3/],
    [{ Models: [{ metaData: { Name: 'm' }, ModelPositions: [[0, 0, 0, 4], [1, 0, 0], [0, 1, 0]] }] }, /^Models\[0\]\.ModelPositions\[0\] must be three numbers \[x, y, z\], not 4/],
    ['{"Models":[{"ModelPositions":[{"X":1e309,"Y":0,"Z":0},{"X":1,"Y":0,"Z":0},{"X":0,"Y":1,"Z":0}]}]}', /^Models\[0\]\.ModelPositions\[0\]\.X must be a finite number, not Infinity/],
    [{ Models: [{ metaData: { Name: 'm' }, ModelPositions: [...tri(), { X: 1, Y: 1, Z: 0 }], ModelIndices: [] }] }, /^Models\[0\]\.ModelPositions holds 4 entries, not a multiple of 3/],
    [{ Models: [{ metaData: { Name: 'm' }, ModelPositions: [], ModelIndices: [0, 1, 2] }] }, /^Models\[0\]\.ModelIndices\[0\] is 0: not an index into ModelPositions which holds no point/],
    // a name is one line: it goes into the G-code's ;MESH: comments
    [{ Models: [{ metaData: { Name: 'a\nM104 S300\n;' }, ModelPositions: tri() }] }, /^Models\[0\]\.metaData\.Name must be one line without control characters/],
    [{ Models: [{ metaData: { Name: 'a\u2028b' }, ModelPositions: tri() }] }, /metaData\.Name must be one line/],
    [{ Models: [{ metaData: { Name: 'x'.repeat(256) }, ModelPositions: tri() }] }, /metaData\.Name must be at most 255 characters, not 256/],
  ];
  for (const [input, message] of bad) {
    assert.throws(() => readWorkspace(enc(input), 'w.rvwj'), (err: Error) => err instanceof WorkspaceError && message.test(err.message));
  }
});

test('the worker checks point-cloud modifiers as the task start does (workspaces too large to check there met no check)', async () => {
  const { loadWorkspace } = await import('../src/service/workspace/load-workspace.js');
  const box = (x0: number, y0: number, z0: number, x1: number, y1: number, z1: number) =>
    [0, 1, 2, 3, 4, 5, 6, 7].map((k) => ({ X: k & 1 ? x1 : x0, Y: k & 2 ? y1 : y0, Z: k & 4 ? z1 : z0 }));
  const faces = [0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4, 3, 2, 6, 3, 6, 7, 2, 0, 4, 2, 4, 6, 1, 3, 7, 1, 7, 5];
  const cube = { metaData: { Name: 'cube' }, ModelPositions: box(100, 100, 0, 120, 120, 20), ModelIndices: faces };
  const cloud = { fileName: 'soft.pcsv', blobKey: 'files/soft', arrayDimensions: [2, 1, 1] as [number, number, number], filament: 'Generic_TPU95A' };
  const read = async () => new Uint8Array(new Float64Array([70, 80]).buffer);
  const ws = (modifierBox: ReturnType<typeof box>, extra: object[] = []) =>
    enc({ Models: [cube, { metaData: { Name: 'soft', SlicingPriority: 1, Modifier: {}, FileReference: 'soft.pcsv' }, ModelPositions: modifierBox, ModelIndices: faces }, ...extra] });
  // a modifier cut short at x 110 does not enclose the cube: refused, naming both
  await assert.rejects(
    loadWorkspace(ws(box(99, 99, -1, 110, 121, 21)), 'big.json', [cloud], undefined, read),
    (e: Error) => e.name === 'WorkspaceError' && /point-cloud modifier 'soft' .* does not enclose model 'cube'/.test(e.message),
  );
  // one that encloses it slices; a density modifier far from every model is said to change nothing
  const far = { metaData: { Name: 'far', SlicingPriority: 2, Modifier: { FillDensityFactor: 0.5 } }, ModelPositions: box(0, 0, 0, 5, 5, 5), ModelIndices: faces };
  const ok = await loadWorkspace(ws(box(99, 99, -1, 121, 121, 21), [far]), 'big.json', [cloud], undefined, read);
  assert.equal(ok.models.filter((m) => m.role !== 'modifier').length, 1);
  assert.ok(ok.warnings.some((w) => /^modifier 'far' .* touches no model and changes nothing$/.test(w)), ok.warnings.join('; '));
});

test('a FileReference longer than any file name is refused without being echoed; Fliped* true warns; SlicingPriority names its range', () => {
  const long = 'x'.repeat(100_000);
  assert.throws(
    () => readWorkspace(enc({ Models: [{ metaData: { Name: 'part' }, ModelPositions: tri() }, { metaData: { Name: 'soft', SlicingPriority: 1, Modifier: {}, FileReference: long }, ModelPositions: tri() }] }), 'r.json'),
    (e: Error) => e.name === 'WorkspaceError' && /FileReference is 100000 bytes long: it names an uploaded PC_SV file, and file names are at most 255 bytes/.test(e.message) && e.message.length < 300,
  );
  const flipped = readWorkspace(enc({ Models: [{ metaData: { Name: 'part' }, ModelPositions: tri(), FlipedX: true, FlipedZ: false }] }), 'f.json');
  assert.deepEqual(flipped.warnings, ["model 'part': Models[0].FlipedX is ignored (vertices are already placed)"]);
  // one key in two casings: lookups ignore case, so one of the two was taken without a word
  assert.throws(() => readWorkspace(enc({ Models: [{ metaData: { Name: 'a' }, ModelPositions: tri() }], models: [] }), 'twin.json'), /workspace 'twin.json' has both 'Models' and 'models': one key in two casings/);
  assert.throws(() => readWorkspace(enc({ Models: [{ metaData: { Name: 'a', name: 'b' }, ModelPositions: tri() }] }), 't.json'), /Models\[0\]\.metaData has both 'Name' and 'name'/);
  assert.throws(() => readWorkspace(enc({ Models: [{ metaData: { Name: 'a' }, ModelPositions: tri(), modelPositions: tri() }] }), 't.json'), /Models\[0\] has both 'ModelPositions' and 'modelPositions'/);
  assert.throws(
    () => readWorkspace(enc({ Models: [{ metaData: { Name: 'a' }, ModelPositions: tri() }, { metaData: { Name: 'm', Modifier: { FillDensityFactor: 1, fillDensityFactor: 2 } }, ModelPositions: tri() }] }), 't.json'),
    /Models\[1\]\.metaData\.Modifier has both 'FillDensityFactor' and 'fillDensityFactor'/,
  );
  // other keys may come twice in any casing: nothing reads them
  assert.equal(readWorkspace(enc({ Models: [{ metaData: { Name: 'a' }, ModelPositions: tri(), note: 1, Note: 2 }] }), 'n.json').models.length, 1);
  // a scale is a factor, a position millimetres: each out-of-range error says which
  assert.throws(() => readWorkspace(enc({ Models: [{ metaData: { Name: 'part' }, ModelPositions: tri(), scale: { X: 1e308, Y: 1, Z: 1 } }] }), 's.json'), (e: Error) => /Models\[0\]\.scale\.X is 1e\+308, beyond ±100000$/.test(e.message));
  assert.throws(() => readWorkspace(enc({ Models: [{ metaData: { Name: 'part' }, ModelPositions: tri(), position: [0, 2e5, 0] }] }), 'p.json'), /Models\[0\]\.position\[1\] is 200000 mm, beyond ±100000 mm/);
  assert.throws(
    () => readWorkspace(enc({ Models: [{ metaData: { Name: 'part', SlicingPriority: 99999999 }, ModelPositions: tri() }] }), 'p.json'),
    /SlicingPriority must be a whole number from 0 to 1000000, not 99999999/,
  );
});

test('a FileReference matching two point clouds only ignoring case is refused; an exact match or a single other-case match is taken', async () => {
  const { checkWorkspace } = await import('../src/service/workspace/check-workspace.js');
  const sq = [[100, 100, 0], [120, 100, 0], [100, 120, 0], [100, 100, 20]];
  const faces = [0, 2, 1, 0, 1, 3, 1, 2, 3, 0, 3, 2];
  const big = [[99, 99, -1], [121, 99, -1], [99, 121, -1], [121, 121, 50]];
  const ws = (ref: string) =>
    readWorkspace(
      enc({ Models: [{ metaData: { Name: 'part' }, ModelPositions: sq, ModelIndices: faces }, { metaData: { Name: 'soft', SlicingPriority: 1, Modifier: {}, FileReference: ref }, ModelPositions: big, ModelIndices: faces }] }),
      'c.json',
    );
  const cloud = (fileName: string) => ({ fileName, arrayDimensions: [1, 1, 1] as [number, number, number], filamentName: 'Generic_TPU95A' });
  const two = [cloud('a.pcsv'), cloud('A.pcsv')];
  assert.throws(() => checkWorkspace(ws('a.PCSV'), two, undefined), /names 'a\.PCSV', which matches the task's PC_SV files 'a\.pcsv' and 'A\.pcsv' only ignoring letter case: name one exactly/);
  assert.deepEqual(checkWorkspace(ws('A.pcsv'), two, undefined).warnings, ["point cloud 'a.pcsv' is referenced by no modifier and takes no part in slicing"]);
  assert.deepEqual(checkWorkspace(ws('SOFT.PCSV'), [cloud('soft.pcsv')], undefined).warnings, []);
});

test('a workspace written with a byte-order mark (UTF-8, UTF-16 LE or BE, as .NET writes them) reads like one without', () => {
  const json = JSON.stringify({ Models: [{ metaData: { Name: 'pièce' }, ModelPositions: tri() }] });
  const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(json, 'utf16le')]);
  const be = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(json, 'utf16le').swap16()]);
  for (const bytes of [Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(json)]), le, be]) {
    const ws = readWorkspace(bytes, 'bom.json');
    assert.equal(ws.models[0]!.name, 'pièce');
  }
});

test('an unreferenced point cloud with an unknown filamentName is refused like a referenced one', async () => {
  const { checkWorkspace } = await import('../src/service/workspace/check-workspace.js');
  const ws = readWorkspace(enc({ Models: [{ metaData: { Name: 'part' }, ModelPositions: tri() }] }), 'u.json');
  assert.throws(
    () => checkWorkspace(ws, [{ fileName: 'spare.pcsv', arrayDimensions: [1, 1, 1], filamentName: 'No_Such_Filament' }], undefined),
    (e: Error & { code?: string }) => e.name === 'ProfileError' && /No_Such_Filament/.test(e.message),
  );
});
