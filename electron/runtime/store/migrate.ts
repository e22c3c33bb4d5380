import type Database from 'better-sqlite3';
import { AgentDeskError } from '../errors.js';
import { MIGRATIONS, postgresSql, type Migration } from './migrations/index.js';
import type { SqlDatabase } from './sql/sqlPort.js';

const CREATE_HISTORY =
  'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)';
const RECORD = 'INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)';
/** Any number, the same in every process: migrating processes of one PostgreSQL database take turns. */
const MIGRATION_LOCK = 7_010_019;

/** What migrating did: the schema version now, and the versions applied just now. */
export interface MigrationReport {
  schema: number;
  applied: number[];
}

/**
 * The migrations still to run, by the versions recorded rather than the highest: numbers taken on
 * parallel branches may land after a higher one has been applied (8 after 9), and must still run
 * once. A database recorded past this build's last migration was written by a newer version: refused.
 */
export function pendingMigrations(applied: readonly number[], migrations: readonly Migration[] = MIGRATIONS): Migration[] {
  const current = Math.max(0, ...applied);
  const latest = migrations.at(-1)?.version ?? 0;
  if (current > latest) {
    throw new AgentDeskError('conflict', `database schema v${current} is newer than this build (v${latest}); upgrade agent-desk`);
  }
  const done = new Set(applied);
  return migrations.filter((m) => !done.has(m.version));
}

/** Brings a SQLite file up to date, each migration in its own transaction; returns the schema version. */
export function migrate(db: Database.Database, migrations: readonly Migration[] = MIGRATIONS): number {
  db.exec(CREATE_HISTORY);
  const applied = (db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version);
  const record = db.prepare(RECORD);
  for (const m of pendingMigrations(applied, migrations)) {
    db.transaction(() => {
      db.exec(m.sql);
      record.run(m.version, m.name, new Date().toISOString());
    })();
  }
  return migrations.at(-1)?.version ?? 0;
}

/**
 * Brings a database behind the store port up to date — the same history on SQLite and
 * PostgreSQL — in one transaction: processes starting together take turns, and a failed
 * migration leaves the schema as it was.
 */
export async function migrateDatabase(db: SqlDatabase, migrations: readonly Migration[] = MIGRATIONS): Promise<MigrationReport> {
  return db.transaction(async (tx) => {
    if (tx.dialect === 'postgres') await tx.get('SELECT pg_advisory_xact_lock(?)', [MIGRATION_LOCK]);
    await tx.exec(CREATE_HISTORY);
    const applied = (await tx.all<{ version: number }>('SELECT version FROM schema_migrations')).map((r) => r.version);
    const pending = pendingMigrations(applied, migrations);
    for (const m of pending) {
      await tx.exec(tx.dialect === 'postgres' ? postgresSql(m) : m.sql);
      await tx.run(RECORD, [m.version, m.name, new Date().toISOString()]);
    }
    return { schema: Math.max(migrations.at(-1)?.version ?? 0, ...applied), applied: pending.map((m) => m.version) };
  });
}
