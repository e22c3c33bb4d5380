import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { Scope } from '../../../../electron/contract/index.js';
import { openTestRuntime, type TestRuntime } from '../../../support/runtime.js';

let h: TestRuntime | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

const ctx = { scopes: ['operator.admin'] as Scope[], clientId: 'test' };
const PLAYBOOK = 'name: one-write\nsteps:\n  - { tool: fs.write, args: { path: a.txt, content: a } }\n';

function create(rt: TestRuntime['rt'], idempotencyKey: string) {
  return rt.dispatcher.dispatch(
    { id: 1, method: 'tasks.create', params: { playbook: { source: PLAYBOOK } }, idempotencyKey },
    ctx,
  ) as Promise<{
    result?: { id: string };
    error?: { code: string; message: string };
  }>;
}

/** Another connection to the same file, as a second process would have. */
function sideConnection(home: string): Database.Database {
  return new Database(path.join(home, 'agent-desk.db'));
}

describe('tasks.create with an idempotency key', () => {
  it('records the key in the task’s own transaction: when that write fails nothing is created, and the retry creates exactly one task', async () => {
    h = openTestRuntime();
    const side = sideConnection(h.home);
    try {
      // The second write of the request fails, as a crash between the two writes would lose it.
      side.exec("CREATE TRIGGER lose_key BEFORE INSERT ON rpc_idempotency BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END;");
      const first = await create(h.rt, 'order-42');
      expect(first.error?.code).toBeDefined();
      expect(await h.rt.store.tasks.list({ limit: 10 })).toHaveLength(0);

      side.exec('DROP TRIGGER lose_key;');
      const retry = await create(h.rt, 'order-42');
      const again = await create(h.rt, 'order-42');
      expect(retry.result?.id).toBeDefined();
      expect(again.result?.id).toBe(retry.result?.id);
      expect((await h.rt.store.tasks.list({ limit: 10 })).map((t) => t.id)).toEqual([retry.result!.id]);
    } finally {
      side.close();
    }
  });

  it('a retry after a restart returns the first task, never a second one', async () => {
    h = openTestRuntime();
    const first = await create(h.rt, 'order-43');
    const rt = await h.reopen();
    const retry = await create(rt, 'order-43');
    expect(retry.result?.id).toBe(first.result?.id);
    expect(await rt.store.tasks.list({ limit: 10 })).toHaveLength(1);
  });

  it('a key already recorded by another process refuses to create a second task', async () => {
    h = openTestRuntime();
    const side = sideConnection(h.home);
    try {
      // The other process won the race: its answer is recorded, but this process's guard had not seen it yet.
      const engine = h.rt.engine;
      const spec = {
        title: 'raced',
        plan: { kind: 'playbook' as const, source: PLAYBOOK, baseDir: h.home },
        inputs: {},
        idempotency: { method: 'tasks.create', key: 'order-44', paramsDigest: 'd' },
      };
      const winner = await engine.create(spec);
      await expect(engine.create(spec)).rejects.toThrow(/was used by a concurrent tasks\.create/);
      expect((await h.rt.store.tasks.list({ limit: 10 })).map((t) => t.id)).toEqual([winner.id]);
      const row = side.prepare('SELECT COUNT(*) AS n FROM rpc_idempotency WHERE key = ?').get('order-44') as { n: number };
      expect(row.n).toBe(1);
    } finally {
      side.close();
    }
  });
});
