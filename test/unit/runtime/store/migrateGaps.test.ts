import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../../../../electron/runtime/store/migrate.js';
import { MIGRATIONS } from '../../../../electron/runtime/store/migrations/index.js';
import { tempDir } from '../../../support/runtime.js';

const open: Database.Database[] = [];
afterEach(() => open.splice(0).forEach((db) => db.close()));

const columns = (db: Database.Database, table: string) =>
  (db.prepare(`SELECT name FROM pragma_table_info('${table}')`).all() as { name: string }[]).map((c) => c.name);

describe('migrations numbered on parallel branches', () => {
  it('a database that has 9 but not 8 (a build without 8) gets 8 on the next open, once', () => {
    const db = new Database(path.join(tempDir(), 'agent-desk.db'));
    open.push(db);
    migrate(
      db,
      MIGRATIONS.filter((m) => m.version !== 8),
    );
    expect(columns(db, 'tasks')).not.toContain('state_reason_text');

    expect(migrate(db)).toBe(MIGRATIONS.at(-1)!.version);
    expect(columns(db, 'tasks')).toContain('state_reason_text');
    expect(columns(db, 'steps')).toContain('error_text');
    expect(columns(db, 'cron_runs')).toContain('reason_text');
    const versions = (db.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as { version: number }[]).map(
      (r) => r.version,
    );
    expect(versions).toEqual(MIGRATIONS.map((m) => m.version));
    expect(() => migrate(db)).not.toThrow(); // nothing runs twice (ALTER TABLE ADD COLUMN would fail)
  });
});
