import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from './migrate.js';
import { badStateError } from './openErrors.js';
import { assertNotTruncated } from './truncation.js';

/** Durability level: NORMAL survives a killed process in WAL mode; FULL also survives power loss. */
export type Durability = 'NORMAL' | 'FULL';

/** The data folder holds keys, tokens and traces: only its owner may enter it. */
export const DATA_FOLDER_MODE = 0o700;
/** The database file (and the WAL and shared-memory files SQLite derives from it). */
export const DATABASE_FILE_MODE = 0o600;

/**
 * Opens (creating if needed) a SQLite file in WAL mode and brings its schema up to date. A data
 * folder it creates is 0700 and a database file it creates 0600. A broken state — a corrupt or
 * truncated file, a read-only one, a full disk, a data folder that is a file — throws `bad_state`.
 */
export function openDatabase(file: string, durability: Durability = 'NORMAL'): Database.Database {
  if (file === ':memory:') return configure(new Database(file), durability);
  const home = path.dirname(file);
  let db: Database.Database | undefined;
  try {
    mkdirSync(home, { recursive: true, mode: DATA_FOLDER_MODE });
    createPrivately(file);
    assertNotTruncated(file);
    db = new Database(file);
    return configure(db, durability);
  } catch (error) {
    db?.close();
    throw badStateError(error, file, home);
  }
}

function configure(db: Database.Database, durability: Durability): Database.Database {
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${durability}`);
  db.pragma('foreign_keys = ON');
  // Several processes (serve, CLI) may share one file; wait for the writer instead of failing.
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}

// SQLite gives the -wal and -shm files the database file's mode, so 0600 here covers all three.
function createPrivately(file: string): void {
  if (existsSync(file)) return;
  closeSync(openSync(file, 'a', DATABASE_FILE_MODE));
  chmodSync(file, DATABASE_FILE_MODE); // the umask may have narrowed it; state it exactly
}
