import { cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createPlaybookTask, openTestRuntime, tempDir, waitForState, type TestRuntime } from '../../../support/runtime.js';
import { migrateDatabase } from '../../../../electron/runtime/store/migrate.js';
import { PostgresDatabase } from '../../../../electron/runtime/store/sql/postgresAdapter.js';
import { createTestDatabase } from '../../../support/postgres.js';
import { storeMissing } from '../../../support/storeKinds.js';

// A task's workspace lives in the data folder of the process that runs it, not at a path of the
// machine (or folder) that created it.

const WRITE = `name: note
steps:
  - { id: write, tool: fs.write, args: { path: note.txt, content: "here" } }
acceptance:
  - { type: file_exists, path: note.txt, exists: true }
`;

const opened: TestRuntime[] = [];
const extraHomes: string[] = [];
const dropLater: { drop(): Promise<void> }[] = [];
afterEach(async () => {
  for (const h of opened.splice(0).reverse()) await h.cleanup();
  for (const database of dropLater.splice(0)) await database.drop();
  for (const home of extraHomes.splice(0)) rmSync(home, { recursive: true, force: true });
});

describe('where a task works', () => {
  it('a data folder moved to another path: its queued task works in the new folder', async () => {
    const before = openTestRuntime();
    const task = await createPlaybookTask(before.rt, WRITE);
    expect(task.workspace).toBe(path.join(before.home, 'workspaces', task.id));
    await before.rt.close();
    const moved = tempDir();
    extraHomes.push(moved);
    cpSync(before.home, moved, { recursive: true });
    rmSync(before.home, { recursive: true, force: true });

    const after = openTestRuntime({ home: moved });
    opened.push(after);
    const done = await waitForState(after.rt, (await after.rt.engine.run(task.id)).id, ['succeeded', 'failed']);
    expect([done.state, done.workspace]).toEqual(['succeeded', path.join(moved, 'workspaces', task.id)]);
    expect(readFileSync(path.join(moved, 'workspaces', task.id, 'note.txt'), 'utf8')).toBe('here');
    expect(existsSync(before.home)).toBe(false);
  });

  const absent = storeMissing('postgres');
  it.skipIf(absent !== undefined)(`a worker with another data folder on the same PostgreSQL runs the task in its own${absent ? ` (needs postgres: ${absent})` : ''}`, async () => {
    const database = await createTestDatabase();
    dropLater.push(database);
    const db = new PostgresDatabase({ url: database.url });
    await migrateDatabase(db).finally(() => db.close());
    const storeTarget = { kind: 'postgres' as const, url: database.url };
    const gateway = openTestRuntime({ storeTarget });
    opened.push(gateway);
    const task = await createPlaybookTask(gateway.rt, WRITE);
    const workerHome = tempDir();
    extraHomes.push(workerHome);
    const worker = openTestRuntime({ home: workerHome, storeTarget });
    opened.push(worker);
    const done = await worker.rt.engine.run(task.id);
    expect(done.state).toBe('succeeded');
    expect(done.workspace).toBe(path.join(workerHome, 'workspaces', task.id));
    expect(readFileSync(path.join(workerHome, 'workspaces', task.id, 'note.txt'), 'utf8')).toBe('here');
    expect(existsSync(path.join(gateway.home, 'workspaces', task.id, 'note.txt'))).toBe(false);
    // Each process shows the task in its own folder.
    expect((await gateway.rt.engine.get(task.id)).workspace).toBe(path.join(gateway.home, 'workspaces', task.id));
  });
});
