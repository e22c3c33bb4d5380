import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../../../../electron/runtime/store/migrate.js';
import { MIGRATIONS } from '../../../../electron/runtime/store/migrations/index.js';
import { tempDir } from '../../../support/runtime.js';

const open: Database.Database[] = [];
afterEach(() => open.splice(0).forEach((db) => db.close()));

describe('migration 11 (worker leases)', () => {
  it('turns the pid owners of an older database into owners with no worker row, which any worker may take over', () => {
    const db = new Database(path.join(tempDir(), 'agent-desk.db'));
    open.push(db);
    migrate(
      db,
      MIGRATIONS.filter((m) => m.version < 11),
    );
    const at = '2026-01-01T00:00:00.000Z';
    db.prepare(
      `INSERT INTO tasks (id, title, state, plan, inputs, workspace, budget, usage, checks, created_at, updated_at, owner_pid)
       VALUES ('t1', 't', 'running', '{}', '{}', '/w', '{}', '{}', '[]', ?, ?, 4242), ('t2', 't', 'succeeded', '{}', '{}', '/w', '{}', '{}', '[]', ?, ?, NULL)`,
    ).run(at, at, at, at);
    db.prepare("INSERT INTO task_queue (task_id, state, enqueued_at, owner_pid) VALUES ('t1', 'running', ?, 4242)").run(at);

    migrate(db);
    expect(db.prepare('SELECT id, owner FROM tasks ORDER BY id').all()).toEqual([
      { id: 't1', owner: 'pid-4242' },
      { id: 't2', owner: null },
    ]);
    expect(db.prepare('SELECT task_id, owner FROM task_queue').all()).toEqual([{ task_id: 't1', owner: 'pid-4242' }]);
    expect(db.prepare('SELECT COUNT(*) AS n FROM workers').get()).toEqual({ n: 0 });
    const columns = (db.prepare("SELECT name FROM pragma_table_info('tasks')").all() as { name: string }[]).map((c) => c.name);
    expect(columns).not.toContain('owner_pid');
  });
});
