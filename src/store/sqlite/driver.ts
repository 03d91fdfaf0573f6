// Which build of better-sqlite3 this Node loads.
//
// 13 (Node-API, prebuilt in the package, nothing to compile) is the one for Node 22 and later. Up to
// 12 the module aborts the whole process on Node 24 and later whenever the garbage collector frees a
// statement at a moment Node has no environment at hand (`Assertion failed: (env) != nullptr` in
// Statement::~Statement): seen here in two test files on Node 24.21, and reported by others on
// services that went down several times an hour. 13 in turn needs Node 22: on Node 20 it crashes on
// first use. So Node 20 loads 12, installed (and compiled by npm ci) as the optional dependency
// better-sqlite3-node20. The API is the same; the types are better-sqlite3's.
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

export type SqliteDatabase = BetterSqlite3.Database;
export type SqliteConstructor = typeof BetterSqlite3;

/** the package this Node runs: better-sqlite3 (13) from Node 22, better-sqlite3-node20 (12) before */
export function sqlitePackageFor(nodeVersion = process.versions.node): string {
  return Number(nodeVersion.split('.')[0]) >= 22 ? 'better-sqlite3' : 'better-sqlite3-node20';
}

/** The SQLite module cannot be loaded: a problem of the installation, not of the data directory. */
export class SqliteModuleMissing extends Error {
  override name = 'SqliteModuleMissing';
}

let loaded: SqliteConstructor | null = null;

/** better-sqlite3's Database class, loaded on first use (the slicing commands never need it). */
export function sqlite(): SqliteConstructor {
  loaded ??= loadSqlite(sqlitePackageFor());
  return loaded;
}

/** Loads the package `name`; one that is not installed is said plainly, with what to do. */
export function loadSqlite(name: string): SqliteConstructor {
  try {
    return createRequire(import.meta.url)(name) as SqliteConstructor;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw err;
    throw new SqliteModuleMissing(
      `the SQLite module for Node ${process.versions.node} (${name}) is not installed; ` +
        (name === 'better-sqlite3-node20'
          ? 'on Node 20 npm ci compiles it (it needs python3, make and g++), or use Node 22 or later'
          : 'run npm ci'),
    );
  }
}
