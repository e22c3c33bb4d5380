import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Actor, Task } from '../../../electron/contract/index.js';
import { isoAt } from '../../../electron/runtime/clock.js';
import { SpendRepo, toMicros } from '../../../electron/runtime/store/spendRepo.js';
import { TaskQueueRepo } from '../../../electron/runtime/store/taskQueueRepo.js';
import { CliSandbox, useLocalModel } from '../../support/cliSandbox.js';
import { ModelServer } from '../../support/modelServer.js';
import { pollUntil } from '../../support/poll.js';
import { openTestRuntime, type TestRuntime } from '../../support/runtime.js';

// Three `agent-desk worker` processes on one store run 100 goal tasks of three people; each task
// is one model turn priced by the config's table ($0.002, 1,500 tokens). Alice's 50 tasks need
// $0.10 but her day allows $0.05: her tasks stop and ask; one raise by an approver lets them all
// go on. Bob's and Carol's 25 tasks spend exactly the $0.05 and never ask: the check before each
// call sees at most $0.048 charged, whatever the order and pace of the workers (with 30, Bob
// asked or not by how many of his were still running when his 26th started). At the end the
// ledger holds, per person, exactly the sum of their tasks' spend.

const KEY = 'sk-budget-e2e-0123456789';
const PEOPLE: [Actor, number][] = [
  [{ subject: 'alice', name: 'Alice' }, 50],
  [{ subject: 'bob', name: 'Bob' }, 25],
  [{ subject: 'carol', name: 'Carol' }, 25],
];
const TERMINAL = ['succeeded', 'failed', 'cancelled'];
let cli: CliSandbox;
let server: ModelServer;
let h: TestRuntime | undefined;
afterEach(async () => {
  await h?.cleanup().catch(() => undefined);
  await cli?.cleanup();
  await server?.close();
});

describe('budgets across three worker processes', () => {
  it('100 tasks of three people: the one over her daily budget asks, is raised once, and every person’s spend is exact', async () => {
    server = await new ModelServer().start();
    for (let n = 0; n < 140; n++) server.script('chat', { text: 'done', usage: { input: 1000, output: 500 } });
    cli = new CliSandbox();
    await useLocalModel(cli, server.url, KEY);
    const file = path.join(cli.home, 'config.json');
    const config = { ...JSON.parse(readFileSync(file, 'utf8')), budgets: { perPersonDaily: { usd: 0.05 } } };
    writeFileSync(file, JSON.stringify(config));
    // The test's own process only records tasks and answers questions: it runs none (as `serve --no-worker`).
    h = openTestRuntime({ home: cli.home, runsTasks: false, config });
    const rt = h.rt;
    const checks = [{ type: 'file_exists' as const, path: 'never-written.txt', exists: false }];
    const ids: string[] = [];
    for (const [owner, count] of PEOPLE) {
      for (let n = 0; n < count; n++) {
        const built = await rt.tasks.build({
          source: { kind: 'goal', goal: `task ${n}`, checks },
          requester: { kind: 'local' },
          inputs: {},
          owner,
        });
        const task = await rt.store.transaction(async (tx) => {
          const created = await rt.tasks.createBuilt(built.spec, tx);
          await new TaskQueueRepo(tx.sql).handOff(created.id, isoAt(Date.now()));
          return created;
        });
        ids.push(task.id);
      }
    }
    const workers = [0, 1, 2].map(() => {
      const w = cli.spawn(['worker', '--concurrency', '4']);
      w.child.stdin?.end();
      return w;
    });
    const tasks = async () => Promise.all(ids.map(async (id) => (await rt.store.tasks.get(id))!));
    const asked = await pollUntil(
      'Alice’s tasks to stop at her day’s limit, the rest to end',
      async () => {
        const all = await tasks();
        const open = all.filter((t) => !TERMINAL.includes(t.state));
        return open.length > 0 && open.every((t) => t.state === 'waiting_user') ? open : undefined;
      },
      { timeoutMs: 150_000, intervalMs: 250 },
    );
    expect(new Set(asked.map((t) => t.owner?.subject))).toEqual(new Set(['alice']));
    expect(asked[0]!.stateReason).toMatch(/^Alice has spent \$0\.0\d of \$0\.05 today; raise by \$0\.02\?$/);

    const raised = await rt.dispatcher.dispatch(
      { id: 1, method: 'budgets.raise', params: { taskId: asked[0]!.id, by: 1 } },
      { scopes: ['operator.read', 'operator.approvals'], clientId: 'approver' },
    );
    expect(raised).toMatchObject({ result: { hold: { outcome: 'raised', raised: 1 } } });
    const ended: Task[] = await pollUntil(
      'every task to end',
      async () => {
        const all = await tasks();
        return all.every((t) => TERMINAL.includes(t.state)) ? all : undefined;
      },
      { timeoutMs: 150_000, intervalMs: 250 },
    );
    expect(
      ended.filter((t) => t.state !== 'succeeded').map((t) => [t.id, t.state, t.stateReason]),
      workers.map((w) => w.describe()).join('\n'),
    ).toEqual([]);

    const day = isoAt(Date.now()).slice(0, 10);
    const ledger = new Map((await new SpendRepo(rt.store.sql).people(day)).map((p) => [p.subject, p]));
    for (const [owner, count] of PEOPLE) {
      const theirs = ended.filter((t) => t.owner?.subject === owner.subject);
      expect(theirs).toHaveLength(count);
      const micros = theirs.reduce((sum, t) => sum + toMicros(t.usage.costUsd), 0);
      const tokens = theirs.reduce((sum, t) => sum + t.usage.tokensIn + t.usage.tokensOut, 0);
      expect(toMicros(ledger.get(owner.subject)!.usd), owner.name).toBe(micros);
      expect(ledger.get(owner.subject)!.tokens, owner.name).toBe(tokens);
      // One model turn per task at the price table's $0.002: a stop never repeated a call or lost one.
      expect(micros, owner.name).toBe(count * 2000);
    }
  }, 300_000);
});
