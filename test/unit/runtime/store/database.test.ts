import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../electron/runtime/store/database.js';
import { migrate } from '../../../../electron/runtime/store/migrate.js';
import { MIGRATIONS } from '../../../../electron/runtime/store/migrations/index.js';
import { SqliteDatabase } from '../../../../electron/runtime/store/sql/sqliteAdapter.js';
import { Store } from '../../../../electron/runtime/store/store.js';
import { tempDir } from '../../../support/runtime.js';

const open: Database.Database[] = [];
afterEach(() => open.splice(0).forEach((db) => db.close()));
const track = (db: Database.Database) => (open.push(db), db);

describe('SQLite store', () => {
  it('opens in WAL mode with foreign keys and every migration applied once', () => {
    const file = path.join(tempDir(), 'nested', 'agent-desk.db');
    const db = track(openDatabase(file));
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    const applied = db.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as { version: number }[];
    expect(applied.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(migrate(db)).toBe(MIGRATIONS.at(-1)!.version);
    expect(db.prepare('SELECT COUNT(*) AS n FROM schema_migrations').get()).toEqual({ n: MIGRATIONS.length });
  });

  it('applies a new numbered migration on the next open and keeps existing rows', () => {
    const file = path.join(tempDir(), 'agent-desk.db');
    track(openDatabase(file)).close();
    const db = track(new Database(file));
    const next = [...MIGRATIONS, { version: 99, name: 'add_notes', sql: 'ALTER TABLE tasks ADD COLUMN note TEXT' }];
    expect(migrate(db, next)).toBe(99);
    expect(db.prepare("SELECT name FROM pragma_table_info('tasks') WHERE name = 'note'").get()).toEqual({ name: 'note' });
  });

  it('refuses a database written by a newer build instead of corrupting it', () => {
    const file = path.join(tempDir(), 'agent-desk.db');
    const db = track(openDatabase(file));
    db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (500, 'future', 'now')").run();
    expect(() => migrate(db)).toThrow(/schema v500 is newer than this build/);
  });

  it('two connections appending to one trace never reuse a sequence number', async () => {
    const file = path.join(tempDir(), 'agent-desk.db');
    const a = new Store(new SqliteDatabase(track(openDatabase(file))));
    const b = new Store(new SqliteDatabase(track(openDatabase(file))));
    for (let i = 0; i < 50; i++) {
      await a.trace.append('t1', 'user.message', { from: 'a', i }, new Date().toISOString());
      await b.trace.append('t1', 'user.message', { from: 'b', i }, new Date().toISOString());
    }
    const seqs = (await a.trace.page('t1', 0, 1000)).map((e) => e.seq);
    expect(seqs).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect((await a.trace.page('t1', 98, 10)).map((e) => e.data)).toEqual([
      { from: 'a', i: 49 },
      { from: 'b', i: 49 },
    ]);
  });

  it('a transaction that throws leaves nothing behind', async () => {
    const store = new Store(new SqliteDatabase(track(openDatabase(path.join(tempDir(), 'agent-desk.db')))));
    await expect(
      store.transaction(async (tx) => {
        await tx.trace.append('t2', 'user.message', {}, 'now');
        throw new Error('disk full');
      }),
    ).rejects.toThrow('disk full');
    expect(await store.trace.page('t2', 0, 10)).toEqual([]);
  });
});
