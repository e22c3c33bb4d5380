import { writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { CliSandbox, explain, fixturePlaybook } from '../../support/cliSandbox.js';
import { EffectsServer } from '../../support/effectsServer.js';
import { SOAK_SIZES, soakSize } from '../../support/sizes.js';

const TASKS = soakSize(SOAK_SIZES.queueTasks);
let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

describe('background queue across kill -9', () => {
  it(`${TASKS} queued tasks complete with concurrency 4, none lost or run twice, though the worker is killed midway`, async () => {
    const server = new EffectsServer();
    const api = await server.start();
    const sandbox = new CliSandbox();
    cleanups.push(
      () => server.stop(),
      () => sandbox.cleanup(),
    );
    writeFileSync(
      path.join(sandbox.home, 'config.json'),
      JSON.stringify({ policy: { rules: { allow: ['http.request(domain:127.0.0.1)'] }, networkAllow: ['127.0.0.1:*'] } }),
    );
    const add = await sandbox.run(
      ['queue', 'add', fixturePlaybook('queue-effect.yaml'), '-i', `api=${api}`, '-i', 'n={n}', '--count', String(TASKS), '--json'],
      { timeoutMs: 120_000 },
    );
    expect(add.code, explain(add)).toBe(0);
    expect(add.json<{ queued: number }>().queued).toBe(TASKS);

    // First worker: killed with SIGKILL while requests are in flight, about a third of the way.
    const first = sandbox.spawn(['queue', 'work', '--concurrency', '4', '--json']);
    first.child.stdin?.end();
    server.onRequest = (count) => {
      if (count === Math.floor(TASKS / 3)) first.child.kill('SIGKILL');
    };
    const killed = await first.finished(120_000);
    server.onRequest = () => undefined;
    expect(killed.signal, explain(killed)).toBe('SIGKILL');
    const effectsBeforeRestart = server.effects.length;
    expect(effectsBeforeRestart).toBeLessThan(TASKS);

    // Second worker: takes over the orphaned entries and finishes the rest.
    const second = await sandbox.run(['queue', 'work', '--concurrency', '4', '--json'], { timeoutMs: 240_000 });
    expect(second.code, explain(second)).toBe(0);
    expect(second.json()).toEqual({ pending: 0, running: 0, done: TASKS });

    // Every task's effect was applied exactly once (replays are retries the idempotency key absorbed).
    const names = server.effects.map((e) => e.name);
    expect(new Set(names).size).toBe(TASKS);
    expect(names.length).toBe(TASKS);

    const db = new Database(path.join(sandbox.home, 'agent-desk.db'), { readonly: true });
    cleanups.push(() => void db.close());
    const states = db.prepare('SELECT state, COUNT(*) AS n FROM tasks GROUP BY state').all();
    expect(states).toEqual([{ state: 'succeeded', n: TASKS }]);
    // Only entries in flight at the kill (at most the concurrency) were started a second time.
    const restarted = db.prepare('SELECT COUNT(*) AS n FROM task_queue WHERE starts > 1').get() as { n: number };
    expect(restarted.n).toBeLessThanOrEqual(4);
    const doubleDone = db
      .prepare(
        "SELECT COUNT(*) AS n FROM (SELECT task_id, idx FROM steps WHERE status = 'completed' GROUP BY task_id, idx HAVING COUNT(*) > 1)",
      )
      .get() as { n: number };
    expect(doubleDone.n).toBe(0);
  }, 600_000);
});
