import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../../electron/runtime/store/database.js';
import { migrateDatabase } from '../../../../../electron/runtime/store/migrate.js';
import { MIGRATIONS } from '../../../../../electron/runtime/store/migrations/index.js';
import { PostgresDatabase } from '../../../../../electron/runtime/store/sql/postgresAdapter.js';
import { numberedLog, upsertRows } from '../../../../../electron/runtime/store/sql/rowBatch.js';
import { redactingSql } from '../../../../../electron/runtime/store/sql/redactingSql.js';
import { SqliteDatabase } from '../../../../../electron/runtime/store/sql/sqliteAdapter.js';
import type { LaterRow, SqlDatabase } from '../../../../../electron/runtime/store/sql/sqlPort.js';
import { Redactor } from '../../../../../electron/runtime/trace/redactor.js';
import { createTestDatabase, type TestDatabase } from '../../../../support/postgres.js';
import { missing } from '../../../../support/requirements.js';
import { countQueries } from '../../../../support/queryCount.js';

// The store port's contract, on both adapters: the same statements, transactions and migration
// history on the embedded SQLite file and on a real PostgreSQL server.

const noPostgres = missing('postgres');

interface Opened {
  open(): Promise<SqlDatabase>;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A fresh empty SQLite file per test; every `open()` is another connection to it (another process). */
async function sqliteTarget(): Promise<Opened> {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'ad-port-')), 'agent-desk.db');
  return {
    async open() {
      const db = new SqliteDatabase(openDatabase(file));
      cleanups.push(() => db.close());
      return db;
    },
  };
}

/** A fresh PostgreSQL database per test; every `open()` is another pool on it. */
async function postgresTarget(): Promise<Opened> {
  const database: TestDatabase = await createTestDatabase();
  cleanups.push(() => database.drop());
  return {
    async open() {
      const db = new PostgresDatabase({ url: database.url, max: 4 });
      cleanups.push(() => db.close());
      return db;
    },
  };
}

/** Task rows the logs below belong to (their foreign keys). */
async function insertTasks(db: SqlDatabase, ids: readonly string[]): Promise<void> {
  for (const id of ids) {
    await db.run(
      `INSERT INTO tasks (id, title, state, plan, inputs, workspace, budget, usage, created_at, updated_at)
       VALUES (?, 'a task', 'queued', '{}', '{}', '/ws', '{}', '{}', 'now', 'now')`,
      [id],
    );
  }
}

const adapters = [
  { name: 'SQLite', skip: undefined, target: sqliteTarget },
  { name: 'PostgreSQL', skip: noPostgres, target: postgresTarget },
];

describe.each(adapters)('the store port on $name', ({ name, skip, target }) => {
  const run = skip ? it.skip : it;
  if (skip) it(`(PostgreSQL cases skipped: ${skip})`, () => undefined);

  run('migrates an empty database to the last migration once; a second process finds nothing to do', async () => {
    const t = await target();
    const db = await t.open();
    // SQLite's file was migrated when it opened (the sync path); the port's runner agrees with it.
    const first = await migrateDatabase(db);
    expect(first.schema).toBe(MIGRATIONS.at(-1)!.version);
    if (name === 'PostgreSQL') expect(first.applied).toEqual(MIGRATIONS.map((m) => m.version));
    expect((await migrateDatabase(await t.open())).applied).toEqual([]);
    const tables = ['tasks', 'steps', 'approvals', 'grants', 'trace_events', 'rpc_idempotency', 'cron_jobs', 'cron_runs', 'task_queue'];
    for (const table of [...tables, 'memory_notes', 'agents', 'planner_states', 'task_events', 'gateway_tokens']) {
      expect(await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`), table).toEqual({ n: 0 });
    }
  });

  run('processes that start together migrate the history once between them', async () => {
    if (name === 'SQLite') return; // one file opens migrated; PostgreSQL workers race on an empty database
    const t = await target();
    const reports = await Promise.all([1, 2, 3].map(async () => migrateDatabase(await t.open())));
    expect(reports.flatMap((r) => r.applied).sort((a, b) => a - b)).toEqual(MIGRATIONS.map((m) => m.version));
  });

  run('refuses a database written by a newer version, with the line to act on', async () => {
    const db = await (await target()).open();
    await migrateDatabase(db);
    await db.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [500, 'from the future', 'now']);
    await expect(migrateDatabase(db)).rejects.toThrow(
      `database schema v500 is newer than this build (v${MIGRATIONS.at(-1)!.version}); upgrade agent-desk`,
    );
  });

  run('reads, writes and counts what changed; 64-bit integers and 8-byte floats come back as numbers', async () => {
    const db = await (await target()).open();
    await migrateDatabase(db);
    await db.run(
      `INSERT INTO tasks (id, title, state, plan, inputs, workspace, budget, usage, created_at, updated_at)
       VALUES (?, ?, 'queued', '{}', '{}', '/ws', '{}', '{}', ?, ?)`,
      ['t1', 'Pay the invoice? yes', '2026-12-02T00:00:00Z', '2026-12-02T00:00:00Z'],
    );
    expect(await db.get('SELECT title FROM tasks WHERE id = ?', ['t1'])).toEqual({ title: 'Pay the invoice? yes' });
    expect((await db.run("UPDATE tasks SET state = 'running' WHERE state = ?", ['queued'])).changes).toBe(1);
    expect((await db.run("UPDATE tasks SET state = 'running' WHERE state = ?", ['queued'])).changes).toBe(0);
    await db.run(
      `INSERT INTO steps (id, task_id, idx, attempt, tool, args, status, idempotency_key, read_only, idempotent, tokens, cost_usd, started_at)
       VALUES ('s1', 't1', 0, 1, 'echo', '{}', 'done', 'k', 1, 1, ?, ?, 'now')`,
      [2 ** 40, 0.123456789012],
    );
    expect(await db.get('SELECT tokens, cost_usd FROM steps')).toEqual({ tokens: 2 ** 40, cost_usd: 0.123456789012 });
  });

  run(
    'a deferred row goes with the commit (one round trip on PostgreSQL) and is read after it, in order with the writes around it',
    async () => {
      const db = await (await target()).open();
      await migrateDatabase(db);
      await insertTasks(db, ['t1']);
      const trips = countQueries();
      let later: LaterRow<{ state: string; title: string }> | undefined;
      try {
        await db.transaction(async (tx) => {
          await tx.defer("UPDATE tasks SET title = 'renamed' WHERE id = ?", ['t1']);
          later = await tx.deferGet<{ state: string; title: string }>('UPDATE tasks SET state = ? WHERE id = ? RETURNING state, title', [
            'planning',
            't1',
          ]);
          await tx.defer("UPDATE tasks SET state = 'running' WHERE id = ?", ['t1']);
          if (name === 'PostgreSQL') expect(() => later!.row).toThrow(/before its transaction committed/);
        });
      } finally {
        trips.stop();
      }
      expect(later!.row).toEqual({ state: 'planning', title: 'renamed' }); // as the statement saw it, not as the commit left it
      expect(await db.get('SELECT state FROM tasks WHERE id = ?', ['t1'])).toEqual({ state: 'running' });
      if (name === 'PostgreSQL') expect(trips.count, 'BEGIN, the writes, the deferred row and COMMIT in one query').toBe(1);
      const none = await db.transaction((tx) =>
        tx.deferGet('UPDATE tasks SET state = ? WHERE id = ? RETURNING state', ['x', 'no-such-task']),
      );
      expect(none.row).toBeUndefined();
    },
  );

  run('a transaction lands whole or not at all', async () => {
    const db = await (await target()).open();
    await migrateDatabase(db);
    const insert = "INSERT INTO agents (name, spec, created_at, updated_at) VALUES (?, '{}', 'now', 'now')";
    await db.transaction(async (tx) => {
      await tx.run(insert, ['kept']);
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.run(insert, ['lost']);
        await tx.run(insert, ['kept']); // the primary key: the whole transaction rolls back
      }),
    ).rejects.toThrow();
    expect(await db.all('SELECT name FROM agents ORDER BY name')).toEqual([{ name: 'kept' }]);
  });

  run('a statement from outside never joins a transaction that is waiting on something else', async () => {
    const db = await (await target()).open();
    await migrateDatabase(db);
    const insert = "INSERT INTO agents (name, spec, created_at, updated_at) VALUES (?, '{}', 'now', 'now')";
    let inside!: () => void;
    const entered = new Promise<void>((resolve) => (inside = resolve));
    let finish!: () => void;
    const held = new Promise<void>((resolve) => (finish = resolve));
    const failing = db.transaction(async (tx) => {
      await tx.run(insert, ['inside']);
      inside();
      await held;
      throw new Error('rolled back');
    });
    await entered;
    const outside = db.run(insert, ['outside']);
    finish();
    await expect(failing).rejects.toThrow('rolled back');
    await outside;
    expect(await db.all('SELECT name FROM agents')).toEqual([{ name: 'outside' }]);
  });

  run('deferred writes land in order with the transaction, values exactly as given, and are read back inside it', async () => {
    const db = await (await target()).open();
    await migrateDatabase(db);
    const insert = "INSERT INTO agents (name, spec, created_at, updated_at) VALUES (?, ?, 'now', 'now')";
    const tricky = ["it's", 'back\\slash \\x00 $1 ?', '价格 ¥12', "'; DROP TABLE agents; --", '-5', ''];
    const read = await db.transaction(async (tx) => {
      for (const [i, text] of tricky.entries()) await tx.defer(insert, [`a${i}`, text]);
      await tx.defer('UPDATE agents SET updated_at = ? WHERE name = ?', ['later', 'a0']);
      return tx.all<{ name: string; spec: string }>('SELECT name, spec FROM agents ORDER BY name');
    });
    expect(read.map((r) => r.spec)).toEqual(tricky);
    expect(await db.all('SELECT name, spec, updated_at FROM agents ORDER BY name')).toEqual(
      tricky.map((spec, i) => ({ name: `a${i}`, spec, updated_at: i === 0 ? 'later' : 'now' })),
    );
  });

  run('a deferred write that fails fails its transaction: nothing of it lands', async () => {
    const db = await (await target()).open();
    await migrateDatabase(db);
    const insert = "INSERT INTO agents (name, spec, created_at, updated_at) VALUES (?, '{}', 'now', 'now')";
    await expect(
      db.transaction(async (tx) => {
        await tx.defer(insert, ['first']);
        await tx.defer(insert, ['first']); // the same key: refused by the table
      }),
    ).rejects.toThrow(/unique|UNIQUE/);
    expect(await db.all('SELECT name FROM agents')).toEqual([]);
    // The connection is clean for the next transaction.
    await db.transaction(async (tx) => tx.defer(insert, ['second']));
    expect(await db.all('SELECT name FROM agents')).toEqual([{ name: 'second' }]);
  });

  run("a task's log rows number themselves in order, across batches, reads and tasks, values exactly as given", async () => {
    const db = await (await target()).open();
    await migrateDatabase(db);
    await insertTasks(db, ['t1', 't2']);
    const log = numberedLog('trace_events', ['ts', 'type', 'step_id', 'data']);
    const tricky = ["it's", 'back\\slash \\x00 $1 ?', '价格 ¥12', "'; DROP TABLE trace_events; --", ''];
    await db.transaction(async (tx) => tx.deferRow(log.of('t1'), ['t1', 'now', 'first', null, '{}']));
    const seenInside = await db.transaction(async (tx) => {
      for (const [i, text] of tricky.entries()) {
        await tx.deferRow(log.of('t1'), ['t1', 'now', `e${i}`, i % 2 ? `s${i}` : null, text]);
        await tx.deferRow(log.of('t2'), ['t2', 'now', `e${i}`, null, text]); // another task numbers its own
      }
      const read = await tx.all<{ seq: number }>("SELECT seq FROM trace_events WHERE task_id = 't1' ORDER BY seq");
      await tx.deferRow(log.of('t1'), ['t1', 'now', 'after the read', null, '{}']);
      await tx.deferRow(log.of('t1'), ['t1', 'now', 'last', null, '{}']);
      return read.map((r) => r.seq);
    });
    expect(seenInside).toEqual([1, 2, 3, 4, 5, 6]);
    const rows = await db.all<{ task_id: string; seq: number; type: string; step_id: string | null; data: string }>(
      'SELECT task_id, seq, type, step_id, data FROM trace_events ORDER BY task_id, seq',
    );
    expect(rows.filter((r) => r.task_id === 't1').map((r) => [r.seq, r.type])).toEqual([
      [1, 'first'],
      ...tricky.map((_, i) => [i + 2, `e${i}`]),
      [7, 'after the read'],
      [8, 'last'],
    ]);
    expect(rows.filter((r) => r.task_id === 't2').map((r) => [r.seq, r.data])).toEqual(tricky.map((text, i) => [i + 1, text]));
    expect(rows.find((r) => r.type === 'e1' && r.task_id === 't1')?.step_id).toBe('s1');
  });

  run('upserted rows: the last of an id wins, every id lands, numbers stay numbers', async () => {
    const db = await (await target()).open();
    await migrateDatabase(db);
    await insertTasks(db, ['t1', 't2', 't3']);
    const states = upsertRows('planner_states', ['task_id', 'version', 'header', 'updated_at']);
    await db.transaction(async (tx) => {
      await tx.deferRow(states, ['t1', 1, '{"n":1}', 'a']);
      await tx.deferRow(states, ['t2', 1, '{"n":1}', 'a']);
      await tx.deferRow(states, ['t1', 2, '{"n":2}', 'b']);
      await tx.deferRow(states, ['t3', 7, "it's", 'c']);
    });
    await db.transaction(async (tx) => tx.deferRow(states, ['t2', 3, '{"n":3}', 'd']));
    expect(await db.all('SELECT task_id, version, header, updated_at FROM planner_states ORDER BY task_id')).toEqual([
      { task_id: 't1', version: 2, header: '{"n":2}', updated_at: 'b' },
      { task_id: 't2', version: 3, header: '{"n":3}', updated_at: 'd' },
      { task_id: 't3', version: 7, header: "it's", updated_at: 'c' },
    ]);
  });

  run("on PostgreSQL a transaction's rows of one kind are one statement the server runs", async () => {
    if (name === 'SQLite') return; // in-process: a prepared statement per row is what costs least
    const db = await (await target()).open();
    await migrateDatabase(db);
    await insertTasks(db, ['t1']);
    // A statement-level trigger counts the INSERT statements the server executed.
    await db.exec(`CREATE TABLE insert_statements (n INTEGER NOT NULL);
      CREATE FUNCTION count_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO insert_statements VALUES (1); RETURN NULL; END $$;
      CREATE TRIGGER count_trace AFTER INSERT ON trace_events FOR EACH STATEMENT EXECUTE FUNCTION count_insert();`);
    const log = numberedLog('trace_events', ['ts', 'type', 'step_id', 'data']);
    await db.transaction(async (tx) => {
      for (let i = 0; i < 10; i++) await tx.deferRow(log.of('t1'), ['t1', 'now', `e${i}`, null, '{}']);
    });
    expect(await db.get('SELECT COUNT(*) AS n FROM insert_statements')).toEqual({ n: 1 });
    expect(await db.get("SELECT COUNT(*) AS n, MAX(seq) AS top FROM trace_events WHERE task_id = 't1'")).toEqual({ n: 10, top: 10 });
  });

  run('keeps a known secret out of every row, and finds it by the same value', async () => {
    const redactor = new Redactor();
    redactor.add('provider-key', 'sk-live-4242424242');
    const db = redactingSql(await (await target()).open(), redactor);
    await migrateDatabase(db);
    await db.run("INSERT INTO agents (name, spec, created_at, updated_at) VALUES ('a', ?, 'now', 'now')", ['{"key":"sk-live-4242424242"}']);
    const row = await db.get<{ spec: string }>('SELECT spec FROM agents WHERE spec = ?', ['{"key":"sk-live-4242424242"}']);
    expect(row?.spec).toBeDefined();
    expect(row!.spec).not.toContain('sk-live-4242424242');
  });
});

describe('the SQLite adapter under AGENT_DESK_STRICT_STORE (the test suite sets it)', () => {
  it('refuses a statement on the database from inside its own transaction instead of waiting for it forever', async () => {
    expect(process.env.AGENT_DESK_STRICT_STORE).toBe('1');
    const db = await (await sqliteTarget()).open();
    await db.exec('CREATE TABLE notes (n INTEGER)');
    await expect(
      db.transaction(async (tx) => {
        await tx.run('INSERT INTO notes VALUES (1)');
        await db.get('SELECT COUNT(*) AS n FROM notes'); // the mistake: the database, not `tx`
      }),
    ).rejects.toThrow(/from inside its own transaction/);
    expect(await db.get('SELECT COUNT(*) AS n FROM notes')).toEqual({ n: 0 }); // rolled back
    // The same statement from another flow waits for the transaction and then runs.
    let release!: () => void;
    let inserted!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const insertedYet = new Promise<void>((r) => (inserted = r));
    const writing = db.transaction(async (tx) => {
      await tx.run('INSERT INTO notes VALUES (2)');
      inserted();
      await held;
    });
    await insertedYet;
    const reading = db.get('SELECT COUNT(*) AS n FROM notes');
    release();
    await writing;
    expect(await reading).toEqual({ n: 1 });
  });
});
