import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../../electron/runtime/store/database.js';
import { migrateDatabase } from '../../../../../electron/runtime/store/migrate.js';
import { MIGRATIONS } from '../../../../../electron/runtime/store/migrations/index.js';
import { PostgresDatabase } from '../../../../../electron/runtime/store/sql/postgresAdapter.js';
import { redactingSql } from '../../../../../electron/runtime/store/sql/redactingSql.js';
import { SqliteDatabase } from '../../../../../electron/runtime/store/sql/sqliteAdapter.js';
import type { SqlDatabase } from '../../../../../electron/runtime/store/sql/sqlPort.js';
import { Redactor } from '../../../../../electron/runtime/trace/redactor.js';
import { createTestDatabase, type TestDatabase } from '../../../../support/postgres.js';
import { missing } from '../../../../support/requirements.js';

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
