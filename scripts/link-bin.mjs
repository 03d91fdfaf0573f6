// Links node_modules/.bin/stratum to this package's own launcher, so `npm exec stratum` and tools
// that look in node_modules/.bin find the CLI in a plain checkout (npm links only dependencies' bins).
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
const dir = new URL('../node_modules/.bin/', import.meta.url);
try {
  mkdirSync(dir, { recursive: true });
  rmSync(new URL('stratum', dir), { force: true });
  symlinkSync('../../bin/stratum', new URL('stratum', dir));
} catch (err) {
  console.warn(`link-bin: could not link node_modules/.bin/stratum (${err.message}); use npx stratum`);
}
