// mkdir -p without Node 20's recursive mkdir (which spins forever where the file system answers
// ENOENT for a directory whose parent exists, as /proc does).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeDirectory, makeDirectorySync } from '../src/store/make-directory.js';

test('makes every missing level, accepts what exists, and names a file in the way', async () => {
  const root = mkdtempSync(join(tmpdir(), 'stratum-mkdir-'));
  try {
    for (const [make, name] of [[makeDirectorySync, 'sync'], [makeDirectory, 'async']] as const) {
      const deep = join(root, name, 'a', 'b', 'c');
      await make(deep);
      assert.ok(statSync(deep).isDirectory());
      await make(deep); // again: nothing to do
      await make(root);
      const file = join(root, `${name}-file`);
      writeFileSync(file, 'x');
      for (const target of [file, join(file, 'below'), join(file, 'below', 'deeper')]) {
        await assert.rejects(async () => make(target), (err: NodeJS.ErrnoException) => err.code === 'ENOTDIR' && err.path === file, target);
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a directory the file system will not make fails at once instead of spinning (/proc)', { skip: !existsSync('/proc/self') }, async () => {
  const started = Date.now();
  assert.throws(() => makeDirectorySync('/proc/stratum-nope/data'), (err: NodeJS.ErrnoException) => err.code === 'ENOENT');
  await assert.rejects(makeDirectory('/proc/stratum-nope'), (err: NodeJS.ErrnoException) => err.code === 'ENOENT');
  assert.ok(Date.now() - started < 5000);
});
