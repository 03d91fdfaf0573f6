#!/usr/bin/env node
// Thin launcher: the CLI is compiled from src/cli by `npm ci` (prepare) or `npm run build`.
import('../dist/src/cli/main.js').catch((err) => {
  if (err && err.code === 'ERR_MODULE_NOT_FOUND') {
    console.error('stratum: not built yet; run `npm run build` first');
    process.exit(1);
  }
  throw err;
});
