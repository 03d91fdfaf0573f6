// `mkdir -p`, written out: Node 20's `mkdir(dir, { recursive: true })` never returns where the file
// system answers ENOENT for a directory whose parent does exist (it retries the parent, which
// exists, then the directory again): under /proc, `stratum serve` with that data directory hung
// at start, spinning a core. Here each missing level is made once, and any error ends it.
import { mkdirSync, statSync, type Stats } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

function code(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | null)?.code;
}

function notADirectory(path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${path}'`), { code: 'ENOTDIR', path });
}

/** The directory and its missing ancestors, outermost last; throws if one on the way is a file. */
function missingLevels(dir: string, statOf: (p: string) => Stats | null): string[] {
  const missing: string[] = [];
  for (let cur = resolve(dir); ; cur = dirname(cur)) {
    const st = statOf(cur);
    if (st) {
      if (!st.isDirectory()) throw notADirectory(cur);
      return missing;
    }
    missing.push(cur);
    if (dirname(cur) === cur) return missing;
  }
}

function statOrNullSync(path: string): Stats | null {
  try {
    return statSync(path);
  } catch (err) {
    // ENOTDIR: a level above is a file, which the walk up then finds and names
    if (code(err) === 'ENOENT' || code(err) === 'ENOTDIR') return null;
    throw err;
  }
}

export function makeDirectorySync(dir: string): void {
  for (const level of missingLevels(dir, statOrNullSync).reverse()) {
    try {
      mkdirSync(level);
    } catch (err) {
      // made meanwhile by another process: fine if it is a directory
      if (code(err) !== 'EEXIST' || !statSync(level).isDirectory()) throw err;
    }
  }
}

export async function makeDirectory(dir: string): Promise<void> {
  // the levels are found synchronously (a few stat calls); only the making waits
  for (const level of missingLevels(dir, statOrNullSync).reverse()) {
    try {
      await mkdir(level);
    } catch (err) {
      if (code(err) !== 'EEXIST' || !(await stat(level)).isDirectory()) throw err;
    }
  }
}
