import { rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CommitQueue } from '../../../../electron/runtime/engine/commitQueue.js';
import { Store } from '../../../../electron/runtime/store/store.js';
import { ManualClock, tempDir } from '../../../support/runtime.js';

let home: string;
let store: Store;
let reader: Database.Database;
let clock: ManualClock;
let queue: CommitQueue;

beforeEach(() => {
  home = tempDir();
  const file = path.join(home, 'agent-desk.db');
  store = Store.open(file);
  store.db.exec('CREATE TABLE notes (n INTEGER)');
  reader = new Database(file, { readonly: true }); // another connection sees only what was committed
  clock = new ManualClock();
  queue = new CommitQueue(clock, (fn) => store.transaction(fn));
});

afterEach(() => {
  vi.useRealTimers();
  reader.close();
  store.close();
  rmSync(home, { recursive: true, force: true });
});

const insert = (n: number) => () => void store.db.prepare('INSERT INTO notes VALUES (?)').run(n);
const committed = () => (reader.prepare('SELECT n FROM notes ORDER BY rowid').pluck().all() as number[]).join(',');

describe("a run's commit queue", () => {
  it('a lazy write waits for the next write, and both land in one commit, in order', () => {
    queue.write(insert(1), true);
    queue.write(insert(2), true);
    expect(committed()).toBe('');
    queue.write(insert(3));
    expect(committed()).toBe('1,2,3');
  });

  it('lazy writes commit on their own once 64 are queued', () => {
    for (let i = 1; i <= 63; i++) queue.write(insert(i), true);
    expect(committed()).toBe('');
    queue.write(insert(64), true);
    expect(committed().split(',')).toHaveLength(64);
  });

  it('a lazy write older than the batch window goes with the next lazy write', () => {
    queue.write(insert(1), true);
    clock.advance(50);
    queue.write(insert(2), true);
    expect(committed()).toBe('1,2');
  });

  it('with no later write, the timer commits what waits', () => {
    vi.useFakeTimers();
    queue.write(insert(1), true);
    expect(committed()).toBe('');
    vi.advanceTimersByTime(50);
    expect(committed()).toBe('1');
  });

  it("a timer's failed commit is reported by the next write, and nothing of that batch lands", () => {
    vi.useFakeTimers();
    queue.write(insert(1), true);
    queue.write(() => void store.db.prepare('INSERT INTO missing VALUES (1)').run(), true);
    vi.advanceTimersByTime(50);
    expect(() => queue.write(insert(2))).toThrow(/no such table: missing/);
    expect(committed()).toBe('');
    queue.write(insert(3));
    expect(committed()).toBe('3');
  });

  it('a write queued while a batch commits joins that transaction', () => {
    queue.write(() => {
      insert(1)();
      queue.write(insert(2));
      expect(store.db.inTransaction).toBe(true);
    });
    expect(committed()).toBe('1,2');
  });
});
