// The PostgreSQL schema as numbered migrations, applied in order (see migrate.ts). Append only:
// never edit a migration that has shipped, add the next number.
import * as m001 from './001-initial.js';
import * as m002 from './002-download-claims.js';
import * as m003 from './003-fair-queue.js';
import * as m004 from './004-deployment.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, ...m001 },
  { version: 2, ...m002 },
  { version: 3, ...m003 },
  { version: 4, ...m004 },
];
