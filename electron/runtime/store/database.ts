import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from './migrate.js';

/** Durability level: NORMAL survives a killed process in WAL mode; FULL also survives power loss. */
export type Durability = 'NORMAL' | 'FULL';

/** Opens (creating if needed) a SQLite file in WAL mode and brings its schema up to date. */
export function openDatabase(file: string, durability: Durability = 'NORMAL'): Database.Database {
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${durability}`);
  db.pragma('foreign_keys = ON');
  // Several processes (serve, CLI) may share one file; wait for the writer instead of failing.
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}
