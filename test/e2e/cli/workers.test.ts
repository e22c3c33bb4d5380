import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { GatewayClient } from '../../../electron/capabilities/transports/wsClient.js';
import type { Approval, Task } from '../../../electron/contract/index.js';
import { AgentDeskError } from '../../../electron/runtime/errors.js';
import { CliSandbox, fixturePlaybook } from '../../support/cliSandbox.js';
import { EffectsServer } from '../../support/effectsServer.js';
import { pollUntil } from '../../support/poll.js';
import type { ChildHandle } from '../../support/processes.js';
import { startServe, waitForTaskState } from '../../support/serveProcess.js';

// Past one process on one store: a gateway that runs no tasks (`serve --no-worker`) and two
// `agent-desk worker` processes share the SQLite file. Tasks and approvals go through the
// gateway; the workers run them; one worker is killed with SIGKILL midway and the other takes
// its tasks over. Every effect lands once (the effects server's own records), every approval is
// decided once, and nothing is left behind.

const PLAIN = 12;
const GATED = 8;
let cli: CliSandbox;
let server: EffectsServer;
afterEach(async () => {
  await cli?.cleanup();
  await server?.stop();
});

function startWorker(): ChildHandle {
  const worker = cli.spawn(['worker', '--concurrency', '3']);
  worker.child.stdin?.end();
  return worker;
}

async function create(client: GatewayClient, playbook: string, inputs: Record<string, string>): Promise<Task> {
  const source = readFileSync(fixturePlaybook(playbook), 'utf8');
  return client.call('tasks.create', { playbook: { source, baseDir: cli.home }, inputs, start: true });
}

/** Approves, on the gateway, every approval that is pending now; returns the ones it decided. */
async function approvePending(client: GatewayClient): Promise<Approval[]> {
  const { approvals } = await client.call('approvals.list', { status: 'pending' });
  for (const a of approvals) await client.call('approvals.decide', { approvalId: a.id, decision: 'approve', remember: 'once' });
  return approvals;
}

/** The effects server, and a data folder whose tasks may reach it; returns its address. */
async function setUp(): Promise<string> {
  server = new EffectsServer();
  const api = await server.start();
  cli = new CliSandbox();
  const config = { policy: { rules: { allow: ['http.request(domain:127.0.0.1)'] }, networkAllow: ['127.0.0.1:*'] } };
  writeFileSync(path.join(cli.home, 'config.json'), JSON.stringify(config));
  return api;
}

describe('workers and a gateway that runs no tasks, on one store', () => {
  it('the gateway hands tasks to workers; a worker killed midway loses nothing and repeats nothing', async () => {
    const api = await setUp();
    const gateway = await startServe(cli, 30_000, ['--no-worker']);
    const client = await gateway.connect();

    // With no worker anywhere, the gateway only records: the task waits in the queue.
    const first = await create(client, 'queue-effect.yaml', { api, n: '0' });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await client.call('tasks.get', { taskId: first.id })).task.state).toBe('queued');
    expect(server.effects).toEqual([]);

    // A secret input's value lives only in the gateway's memory, so it cannot travel to a worker.
    const secret = client.call('tasks.create', {
      playbook: { source: readFileSync(fixturePlaybook('secret-input.yaml'), 'utf8'), baseDir: cli.home },
      inputs: { token: 'tok-123456789' },
      start: true,
    });
    await expect(secret).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringContaining('serve --no-worker') });

    const ids = [first.id];
    for (let n = 1; n < PLAIN; n++) ids.push((await create(client, 'queue-effect.yaml', { api, n: String(n) })).id);
    for (let n = 0; n < GATED; n++) ids.push((await create(client, 'worker-approval.yaml', { api, n: String(n) })).id);

    // The first worker dies (SIGKILL) with a request in flight, its fifth effect: what it ran stays claimed by a dead worker.
    const doomed = startWorker();
    server.onRequest = (count) => count === 5 && doomed.child.kill('SIGKILL');
    expect((await doomed.exited).signal, doomed.describe()).toBe('SIGKILL');
    server.onRequest = () => undefined;
    const db = new Database(path.join(cli.home, 'agent-desk.db'), { readonly: true });
    const sql = "SELECT q.task_id, q.starts FROM task_queue q JOIN workers w ON w.id = q.owner WHERE q.state = 'running' AND w.pid = ?";
    const interrupted = db.prepare(sql).all(doomed.pid) as {
      task_id: string;
      starts: number;
    }[];
    expect(interrupted.length, 'tasks the killed worker was running').toBeGreaterThan(0);

    // The second takes those over and runs the rest, while approvals are decided on the gateway.
    const survivor = startWorker();
    const decided: Approval[] = [];
    const tasks = await pollUntil(
      'every task to end',
      async () => {
        decided.push(...(await approvePending(client)));
        const all = await Promise.all(ids.map(async (taskId) => (await client.call('tasks.get', { taskId })).task));
        return all.every((t) => ['succeeded', 'failed', 'cancelled'].includes(t.state)) ? all : undefined;
      },
      { timeoutMs: 120_000, intervalMs: 200 },
    );
    await client.close();
    expect(
      tasks.filter((t) => t.state !== 'succeeded').map((t) => [t.id, t.state, t.stateReason]),
      survivor.describe(),
    ).toEqual([]);

    // The killed worker's runs went on in the other one: started again, finished once.
    for (const entry of interrupted) {
      const after = db.prepare('SELECT state, starts FROM task_queue WHERE task_id = ?').get(entry.task_id) as {
        state: string;
        starts: number;
      };
      expect(after.state).toBe('done');
      expect(after.starts).toBeGreaterThan(entry.starts);
    }
    db.close();
    const names = server.effects.map((e) => e.name).sort();
    const expected = [
      ...Array.from({ length: PLAIN }, (_, n) => `task-${n}`),
      ...Array.from({ length: GATED }, (_, n) => `approved-${n}`),
    ].sort();
    expect(names).toEqual(expected); // each once: none lost, none repeated
    expect(new Set(decided.map((a) => a.id)).size).toBe(decided.length); // each approval decided once
    expect(decided.length).toBe(GATED);
  }, 180_000);

  it('a cron job fires once per fire time, though two workers watch the clock', async () => {
    const api = await setUp();
    const gateway = await startServe(cli, 30_000, ['--no-worker']);
    const client = await gateway.connect();
    const workers = [startWorker(), startWorker()];
    // Every second: the two workers' loops (each looks at least once a second) meet on most fire times.
    const job = await client.call('cron.add', {
      name: 'every second',
      schedule: '* * * * * *',
      overlap: 'queue',
      target: { kind: 'playbook', path: fixturePlaybook('cron-effect.yaml'), inputs: { api } },
    });
    await pollUntil(
      'eight fire times',
      async () => ((await client.call('cron.runs', { jobId: job.id })).runs.length >= 8 ? true : undefined),
      {
        timeoutMs: 60_000,
        intervalMs: 250,
      },
    );
    await client.call('cron.update', { jobId: job.id, patch: { enabled: false } });
    const all = (await client.call('cron.runs', { jobId: job.id, limit: 500 })).runs;
    // A loop a second late (a loaded machine) records the second it missed as skipped, as after a restart.
    expect(all.filter((r) => r.outcome !== 'queued' && r.outcome !== 'skipped_missed')).toEqual([]);
    const runs = all.filter((r) => r.outcome === 'queued');
    let seen: Task[] = [];
    const ended = await pollUntil(
      'the fired tasks to end',
      async () => {
        seen = await Promise.all(runs.map(async (r) => (await client.call('tasks.get', { taskId: r.taskId! })).task));
        return seen.every((t) => ['succeeded', 'failed', 'cancelled'].includes(t.state)) ? seen : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 250, lastSeen: () => seen.map((t) => [t.state, t.stateReason]) },
    );
    expect(ended.map((t) => [t.state, t.stateReason]).filter(([state]) => state !== 'succeeded')).toEqual([]);
    await client.close();
    expect(
      workers.every((w) => w.running),
      workers.map((w) => w.describe()).join('\n'),
    ).toBe(true);
    const times = all.map((r) => r.scheduledFor);
    expect(new Set(times).size, times.join(', ')).toBe(times.length); // no fire time twice
    expect(runs.every((r) => r.taskId !== undefined)).toBe(true);
    expect(new Set(ended.map((t) => t.id)).size).toBe(runs.length); // one task per fire time
    expect(server.effects.map((e) => e.name).sort()).toEqual(ended.map((t) => t.id).sort()); // and one effect each
    // The worker that lost a race read the other's commit and moved on: no scheduler errors.
    expect(workers.map((w) => w.stderr.match(/agent-desk scheduler:.*/g) ?? []).flat()).toEqual([]);
  }, 180_000);

  it('one idempotency key, two gateways: the same task whichever answers, run once by a worker', async () => {
    const api = await setUp();
    const gateways = [await startServe(cli, 30_000, ['--no-worker']), await startServe(cli, 30_000, ['--no-worker'])];
    const clients = await Promise.all(gateways.map((g) => g.connect()));
    const source = readFileSync(fixturePlaybook('queue-effect.yaml'), 'utf8');
    const params = { playbook: { source, baseDir: cli.home }, inputs: { api, n: '42' }, start: true };
    // A client retrying through whichever gateway the proxy picks: both requests at once, and once more later.
    const [a, b] = clients as [GatewayClient, GatewayClient];
    // One of two requests at once may be told the key is in use by the other, and to retry: it then gets the same answer.
    const create = async (client: GatewayClient): Promise<Task> => {
      for (;;) {
        try {
          return await client.call('tasks.create', params, { idempotencyKey: 'order-42' });
        } catch (error) {
          if (!(error instanceof AgentDeskError && error.code === 'conflict' && /retry/.test(error.message))) throw error;
        }
      }
    };
    const [viaA, viaB] = await Promise.all([create(a), create(b)]);
    const again = await create(b);
    expect(viaB!.id).toBe(viaA!.id);
    const taskId = viaA!.id;
    expect(again.id).toBe(taskId);
    expect((await a.call('tasks.list', {})).tasks.map((t) => t.id)).toEqual([taskId]);

    startWorker();
    const done = await waitForTaskState(b, taskId, ['succeeded', 'failed', 'cancelled'], 60_000);
    expect(done.state, done.stateReason).toBe('succeeded');
    expect(server.effects.map((e) => e.name)).toEqual(['task-42']);
    await Promise.all(clients.map((c) => c.close()));
  }, 120_000);
});
