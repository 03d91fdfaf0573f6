// Writes docs/settings.md from the settings schema and the catalogue.
// Run after `tsc -p .`: node dist/scripts/gen-settings-doc.js [OUT]
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderSettingsDoc } from '../src/profiles/settings-doc.js';

// dist/scripts/ → the repository root is two levels up.
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const out = resolve(process.argv[2] ?? resolve(root, 'docs', 'settings.md'));
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, renderSettingsDoc() + '\n');
console.log(`wrote ${out}`);
