import { afterEach, describe, expect, it } from 'vitest';
import { migrateDatabase } from '../../../../../electron/runtime/store/migrate.js';
import { PostgresDatabase } from '../../../../../electron/runtime/store/sql/postgresAdapter.js';
import type { SqlSession } from '../../../../../electron/runtime/store/sql/sqlPort.js';
import { TaskQueueRepo } from '../../../../../electron/runtime/store/taskQueueRepo.js';
import { createTestDatabase } from '../../../../support/postgres.js';
import { missing } from '../../../../support/requirements.js';
import { createPlaybookTask, type TestRuntime } from '../../../../support/runtime.js';
import { openStoreTestRuntime } from '../../../../support/storeKinds.js';

// On PostgreSQL a statement the server parses and plans afresh costs it as much as running it.
// The adapter keeps statements prepared on each connection, in batches too, and that must hold
// through what a batch and a rolling upgrade do to a connection: a batch that fails part-way
// (a PREPARE outlives the rollback), and a column a newer version's migration adds.

const noPostgres = missing('postgres');

interface Prepared {
  name: string;
  statement: string;
  from_sql: boolean;
  generic_plans: number;
  custom_plans: number;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A fresh database with a notes table, through a pool of one connection: every statement shares it. */
async function openNotes(): Promise<PostgresDatabase> {
  const database = await createTestDatabase();
  cleanups.push(() => database.drop());
  const db = new PostgresDatabase({ url: database.url, max: 1 });
  cleanups.push(() => db.close());
  await db.exec('CREATE TABLE notes (id BIGINT PRIMARY KEY, body TEXT NOT NULL, size BIGINT)');
  return db;
}

const prepared = (db: PostgresDatabase) =>
  db.all<Prepared>('SELECT name, statement, from_sql, generic_plans, custom_plans FROM pg_prepared_statements');

const INSERT = 'INSERT INTO notes (id, body, size) VALUES (?, ?, ?)';

describe.skipIf(noPostgres !== undefined)('prepared statements on PostgreSQL', () => {
  it('a write deferred in transactions is prepared once on its connection and then runs on a kept plan', async () => {
    const db = await openNotes();
    for (let id = 1; id <= 10; id++) {
      await db.transaction(async (tx) => {
        await tx.defer(INSERT, [id, `it's note ${id}`, id * 10]); // a quote and a number, as literals
        await tx.defer('UPDATE notes SET size = size + 1 WHERE id = ?', [id]);
      });
    }
    const insert = (await prepared(db)).find((p) => p.from_sql && p.statement.includes('INSERT INTO notes'));
    expect(insert, 'the deferred insert went as EXECUTE of a prepared statement').toBeDefined();
    expect(insert!.generic_plans + insert!.custom_plans).toBe(10);
    expect(insert!.generic_plans, 'after a few custom plans the server keeps one').toBeGreaterThan(0);
    const rows = await db.all<{ id: number; body: string; size: number }>('SELECT id, body, size FROM notes ORDER BY id');
    expect(rows).toHaveLength(10);
    expect(rows[9]).toEqual({ id: 10, body: "it's note 10", size: 101 });
  });

  it('a statement sent alone is prepared through the protocol; one whose result is `*` is not', async () => {
    const db = await openNotes();
    await db.run(INSERT, [1, 'one', null]);
    for (let i = 0; i < 8; i++) {
      expect(await db.get('SELECT body FROM notes WHERE id = ?', [1])).toEqual({ body: 'one' });
      expect(await db.get('SELECT * FROM notes WHERE id = ?', [1])).toEqual({ id: 1, body: 'one', size: null });
    }
    const statements = await prepared(db);
    const named = statements.find((p) => p.statement === 'SELECT body FROM notes WHERE id = $1');
    expect(named).toMatchObject({ from_sql: false });
    expect(named!.generic_plans + named!.custom_plans).toBe(8);
    expect(statements.some((p) => p.statement.includes('SELECT *'))).toBe(false);
  });

  const REUSED = 'INSERT INTO notes (id, body) VALUES (?, ?)';
  // The reused insert is PREPAREd in the failing batch: after the duplicate (it ran, and the
  // rollback keeps it), or before it (it never ran).
  it.each([
    {
      where: 'after',
      failing: async (tx: SqlSession) => {
        await tx.defer(REUSED, [2, 'two']);
        await tx.run('INSERT INTO notes (id, body) VALUES (?, ?) RETURNING id', [1, 'again']);
      },
    },
    {
      where: 'before',
      failing: async (tx: SqlSession) => {
        await tx.defer('INSERT INTO notes (id, body, size) VALUES (?, ?, 0)', [1, 'again']);
        await tx.defer(REUSED, [2, 'two']);
      },
    },
  ])('a batch that fails $where its PREPARE leaves the next transaction able to use the statement', async ({ failing }) => {
    const db = await openNotes();
    await db.run(INSERT, [1, 'taken', null]);
    await expect(db.transaction(failing)).rejects.toThrow(/duplicate key/);
    await db.transaction(async (tx) => tx.defer(REUSED, [2, 'two']));
    expect(await db.get('SELECT body FROM notes WHERE id = ?', [2])).toEqual({ body: 'two' });
  });
});

describe.skipIf(noPostgres !== undefined)('the queue’s ready read on PostgreSQL', () => {
  it('keeps its plan from fill to fill: its page size is in the text, not a parameter estimated at a tenth of the table', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const db = new PostgresDatabase({ url: database.url, max: 1 });
    cleanups.push(() => db.close());
    await migrateDatabase(db);
    await db.exec(`INSERT INTO tasks (id, title, state, plan, inputs, workspace, budget, usage, checks, created_at, updated_at)
      SELECT 't' || i, 'queued', 'queued', '{}', '{}', 'w', '{}', '{}', '[]', '2026-12-06', '2026-12-06' FROM generate_series(1, 3000) i;
      INSERT INTO task_queue (task_id, state, enqueued_at)
      SELECT 't' || i, CASE WHEN i <= 2000 THEN 'done' ELSE 'pending' END, '2026-12-06' FROM generate_series(1, 3000) i;
      ANALYZE task_queue`);
    const queue = new TaskQueueRepo(db);
    for (let fill = 0; fill < 10; fill++) expect((await queue.ready(6, 1)).map((e) => e.taskId)[0]).toBe('t2001');
    const ready = (await prepared(db)).filter((p) => p.statement.includes('FROM task_queue q'));
    expect(ready).toHaveLength(1);
    expect(ready[0]!.generic_plans + ready[0]!.custom_plans).toBe(10);
    expect(ready[0]!.generic_plans, 'the server planned it anew on every fill').toBeGreaterThan(0);
  });
});

const ECHO = `
name: echo-once
steps:
  - { id: echo, tool: echo, args: { value: hello } }
`;

let h: TestRuntime | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

describe.skipIf(noPostgres !== undefined)('a rolling upgrade on PostgreSQL', () => {
  it('a column a newer version adds to the task tables leaves this version’s prepared task path running', async () => {
    h = await openStoreTestRuntime('postgres');
    const first = await createPlaybookTask(h.rt, ECHO);
    expect((await h.rt.engine.run(first.id)).state).toBe('succeeded');

    // What a newer version's migration does while this worker runs (from whichever connection):
    // every table of a task's path gains a column.
    for (const table of ['tasks', 'steps', 'trace_events', 'task_events', 'task_queue', 'planner_states'])
      await h.rt.store.sql.exec(`ALTER TABLE ${table} ADD COLUMN later_version TEXT`);

    const second = await createPlaybookTask(h.rt, ECHO);
    expect((await h.rt.engine.run(second.id)).state).toBe('succeeded');
    expect((await h.rt.store.tasks.get(first.id))?.state).toBe('succeeded');
    const { events } = await h.rt.trace.page(second.id, 0, 100);
    expect(events.filter((e) => e.type === 'task.transition').map((e) => e.data.to)).toEqual(['planning', 'running', 'succeeded']);
  });
});
