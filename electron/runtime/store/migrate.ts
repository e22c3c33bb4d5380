import type Database from 'better-sqlite3';
import { AgentDeskError } from '../errors.js';
import { MIGRATIONS, type Migration } from './migrations/index.js';

/** Applies every migration not yet recorded, each in its own transaction; refuses a database from a newer build. */
export function migrate(db: Database.Database, migrations: readonly Migration[] = MIGRATIONS): number {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
  const row = db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null };
  const current = row.v ?? 0;
  const latest = migrations.at(-1)?.version ?? 0;
  if (current > latest) {
    throw new AgentDeskError('conflict', `database schema v${current} is newer than this build (v${latest}); upgrade agent-desk`);
  }
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  // By the versions recorded, not the highest: numbers taken on parallel branches may land after a
  // higher one has been applied (8 after 9), and must still run once.
  const applied = new Set((db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version));
  for (const m of migrations.filter((m) => !applied.has(m.version))) {
    db.transaction(() => {
      db.exec(m.sql);
      record.run(m.version, m.name, new Date().toISOString());
    })();
  }
  return latest;
}
