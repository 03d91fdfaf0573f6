// The bench's service turnaround: a real `stratum serve` process, real uploads, tasks followed by
// their server-sent events to the downloaded output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tinyCubeStl } from '../bench/floor.js';
import { measureTurnaround } from '../bench/turnaround.js';

test('bench turnaround: times each task to its downloaded output; a model the service rejects is an error, not a figure', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'stratum-turnaround-test-'));
  try {
    const cube = join(dir, 'tiny_cube.stl');
    writeFileSync(cube, tinyCubeStl());
    const broken = join(dir, 'broken.stl');
    writeFileSync(broken, 'solid x\n  facet normal 0 0 0\n    outer loop\n      vertex 0 0 nan\n');
    const figures = await measureTurnaround([cube, broken], 2);
    const ok = figures['tiny_cube.stl'];
    assert.ok(ok && !('error' in ok), JSON.stringify(ok));
    assert.equal(ok.runsS.length, 2);
    assert.ok(ok.firstS > 0 && ok.warmS !== null && ok.warmS > 0);
    assert.ok(ok.outputBytes > 1000, `G-code of ${ok.outputBytes} bytes`);
    const bad = figures['broken.stl'];
    assert.ok(bad && 'error' in bad && /failed/.test(bad.error), JSON.stringify(bad));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
