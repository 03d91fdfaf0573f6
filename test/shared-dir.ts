// Where the shared material (models, peers, quality tool) is: STRATUM_SHARED if set, else `shared`
// beside this repository, else `shared` beside the repository this one was cloned from (a clone in a
// temporary folder, as CI makes, still finds the corpus). null when none of them exists.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

function originPath(): string | null {
  try {
    const url = execFileSync('git', ['-C', REPO, 'remote', 'get-url', 'origin'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const local = url.startsWith('file://') ? fileURLToPath(url) : url;
    return isAbsolute(local) ? local : null;
  } catch {
    return null;
  }
}

function find(): string | null {
  if (process.env.STRATUM_SHARED) return resolve(process.env.STRATUM_SHARED);
  const beside = join(REPO, '..', 'shared');
  if (existsSync(join(beside, 'models'))) return resolve(beside);
  const origin = originPath();
  const besideOrigin = origin ? join(dirname(resolve(origin)), 'shared') : null;
  if (besideOrigin && existsSync(join(besideOrigin, 'models'))) return besideOrigin;
  return null;
}

/** The shared folder, or null when it cannot be found. */
export const SHARED_DIR: string | null = find();
/** Its models folder (a path that does not exist when the shared folder is missing, so tests fail loudly). */
export const MODELS = join(SHARED_DIR ?? join(REPO, '..', 'shared'), 'models');
