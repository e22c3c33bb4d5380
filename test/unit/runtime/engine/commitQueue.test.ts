import { rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CommitQueue, WRITE_BATCH, type Write } from '../../../../electron/runtime/engine/commitQueue.js';
import { Store } from '../../../../electron/runtime/store/store.js';
import { ManualClock, tempDir } from '../../../support/runtime.js';

let home: string;
let store: Store;
let reader: Database.Database;
let clock: ManualClock;
let queue: CommitQueue;

beforeEach(async () => {
  home = tempDir();
  const file = path.join(home, 'agent-desk.db');
  store = Store.open(file);
  await store.sql.exec('CREATE TABLE notes (n INTEGER)');
  reader = new Database(file, { readonly: true }); // another connection sees only what was committed
  clock = new ManualClock();
  queue = new CommitQueue(clock, (fn) => store.transaction(fn));
});

afterEach(async () => {
  vi.useRealTimers();
  reader.close();
  await store.close();
  rmSync(home, { recursive: true, force: true });
});

const insert =
  (n: number): Write =>
  (tx) =>
    tx.sql.run('INSERT INTO notes VALUES (?)', [n]);
const committed = () => (reader.prepare('SELECT n FROM notes ORDER BY rowid').pluck().all() as number[]).join(',');

describe("a run's commit queue", () => {
  it('a lazy write waits for the next write, and both land in one commit, in order', async () => {
    await queue.write(insert(1), true);
    await queue.write(insert(2), true);
    expect(committed()).toBe('');
    await queue.write(insert(3));
    expect(committed()).toBe('1,2,3');
  });

  it('lazy writes commit on their own once a batch is queued, without holding the writer for it', async () => {
    for (let i = 1; i < WRITE_BATCH; i++) await queue.write(insert(i), true);
    expect(committed()).toBe('');
    await queue.write(insert(WRITE_BATCH), true);
    await vi.waitFor(() => expect(committed().split(',')).toHaveLength(WRITE_BATCH));
  });

  it('a lazy write older than the batch window goes with the next lazy write', async () => {
    await queue.write(insert(1), true);
    clock.advance(50);
    await queue.write(insert(2), true);
    await vi.waitFor(() => expect(committed()).toBe('1,2'));
  });

  it('a full lazy batch waits for the one before it: at most one commit in flight behind the writer', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await queue.write(async (tx) => (await held, insert(0)(tx)), true); // the first batch's commit hangs on it
    for (let i = 1; i < WRITE_BATCH; i++) await queue.write(insert(i), true); // the batch's last write sets it off, and returns
    for (let i = WRITE_BATCH; i < 2 * WRITE_BATCH - 1; i++) await queue.write(insert(i), true);
    let secondReturned = false;
    const second = queue.write(insert(2 * WRITE_BATCH - 1), true).then(() => (secondReturned = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(secondReturned).toBe(false); // the second full batch waits for the first
    release();
    await second;
    await queue.flush();
    expect(committed().split(',')).toHaveLength(2 * WRITE_BATCH);
  });

  it('while a commit is on its way, lazy writes let the event loop turn: it lands beside a run that never waits for I/O', async () => {
    // This commit's answer comes on a later turn of the event loop, as a database server's does.
    const answered = new CommitQueue(clock, async (fn) => {
      await new Promise((r) => setImmediate(r));
      await store.transaction(fn);
    });
    for (let i = 1; i <= WRITE_BATCH; i++) await answered.write(insert(i), true); // the last write sets the batch off
    // The run writes on (instant tools, an in-process model: nothing it awaits is I/O); the batch
    // lands long before the next one is full, not when the run next has to wait for it.
    for (let i = WRITE_BATCH + 1; i <= WRITE_BATCH + 8; i++) await answered.write(insert(i), true);
    expect(committed().split(',')).toHaveLength(WRITE_BATCH);
    await answered.flush();
    expect(committed().split(',')).toHaveLength(WRITE_BATCH + 8);
  });

  it('with no later write, the timer commits what waits', async () => {
    vi.useFakeTimers();
    await queue.write(insert(1), true);
    expect(committed()).toBe('');
    await vi.advanceTimersByTimeAsync(50);
    expect(committed()).toBe('1');
  });

  it("a timer's failed commit is reported by the next write, and nothing of that batch lands", async () => {
    vi.useFakeTimers();
    await queue.write(insert(1), true);
    await queue.write((tx) => tx.sql.run('INSERT INTO missing VALUES (1)'), true);
    await vi.advanceTimersByTimeAsync(50);
    await expect(queue.write(insert(2))).rejects.toThrow(/no such table: missing/);
    expect(committed()).toBe('');
    await queue.write(insert(3));
    expect(committed()).toBe('3');
  });

  it('commits land one after another, in the order they were asked for', async () => {
    const first = queue.write(insert(1));
    const second = queue.write(insert(2));
    await Promise.all([first, second]);
    expect(committed()).toBe('1,2');
  });

  it('a write queued while a commit is in flight lands in the next commit, not lost and not reordered', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const slow = queue.write(async (tx) => {
      await tx.sql.run('INSERT INTO notes VALUES (1)');
      await held;
    });
    const after = queue.write(insert(2));
    release();
    await Promise.all([slow, after]);
    expect(committed()).toBe('1,2');
  });

  it('a failed commit rejects its writer and nothing of it lands; the queue goes on', async () => {
    await expect(queue.write((tx) => tx.sql.run('INSERT INTO missing VALUES (1)'))).rejects.toThrow(/no such table/);
    await queue.write(insert(5));
    expect(committed()).toBe('5');
  });
});
