import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Approval, Task } from '../../../electron/contract/index.js';
import { CliSandbox, explain } from '../../support/cliSandbox.js';
import { missing } from '../../support/requirements.js';
import { pollUntil } from '../../support/poll.js';
import { type GatewayClient } from '../../../electron/capabilities/transports/wsClient.js';
import { startServe, waitForTaskState } from '../../support/serveProcess.js';

// A browser task that waits for an approval in one process and is approved and resumed in
// another: the approved click must land on the page the approval showed — with the address the
// agent typed — not on a blank page.

const skip = missing('chromium');
const PAGES = path.resolve(import.meta.dirname, '../../fixtures/pages/server.mjs');
const ADDRESS = '12 Quay Street, 上海';

const playbook = (origin: string) => `name: order-after-approval
steps:
  - tool: browser.navigate
    args: { url: "${origin}/order-form.html" }
  - tool: browser.fill
    args: { role: textbox, name: Address, value: "${ADDRESS}" }
  - tool: browser.click
    args: { role: button, name: Place order }
  - tool: browser.wait_for
    args: { text: "Order placed #1" }
acceptance:
  - { type: json_path, url: "${origin}/orders", path: "$.orders[0].address", equals: "${ADDRESS}" }
`;

let cli: CliSandbox;
afterEach(async () => cli?.cleanup());

/** Starts the pages site (its own records count the orders) and writes the config that lets tasks reach it. */
async function setUp(): Promise<string> {
  cli = new CliSandbox();
  const site = cli.pool.spawn({ command: process.execPath, args: [PAGES], cwd: path.dirname(PAGES), env: { ...process.env, PORT: '0' } });
  const [, port] = await site.waitForOutput(/pages on http:\/\/127\.0\.0\.1:(\d+)/);
  const origin = `http://127.0.0.1:${port}`;
  writeFileSync(path.join(cli.home, 'config.json'), JSON.stringify({ policy: { networkAllow: [`127.0.0.1:${port}`] } }));
  writeFileSync(path.join(cli.home, 'order.yaml'), playbook(origin));
  return origin;
}

/** The task once it ended or waits on an approval other than the ones just decided. */
function settledAfter(client: GatewayClient, taskId: string, decided: string[]): Promise<Task> {
  return pollUntil(
    `task ${taskId} to end or ask again`,
    async () => {
      const { task } = await client.call('tasks.get', { taskId });
      if (task.state === 'succeeded' || task.state === 'failed') return task;
      const pending = (await client.call('approvals.list', { taskId, status: 'pending' })).approvals;
      return task.state === 'waiting_approval' && pending.some((a) => !decided.includes(a.id)) ? task : undefined;
    },
    { timeoutMs: 60_000 },
  );
}

async function orders(origin: string): Promise<{ count: number; orders: { address?: string }[] }> {
  return (await fetch(`${origin}/orders`)).json() as Promise<{ count: number; orders: { address?: string }[] }>;
}

describe.skipIf(skip)(`a browser approval across processes${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('run exits 3 at the order, approvals approve, run --resume places exactly one order with what was typed', async () => {
    const origin = await setUp();
    const first = await cli.run(['run', path.join(cli.home, 'order.yaml'), '--json'], { timeoutMs: 120_000 });
    expect(first.code, explain(first)).toBe(3);
    const taskId = first.json<{ task: { id: string } }>().task.id;
    let last = first;
    // The order may ask twice (the click, then the request it sends); each is approved in a new process.
    for (let round = 0; round < 3 && last.code === 3; round++) {
      const pending = (await cli.run(['approvals', 'list', '--json'])).json<{ approvals: Approval[] }>().approvals;
      expect(pending.length, explain(last)).toBeGreaterThan(0);
      for (const a of pending) expect((await cli.run(['approvals', 'approve', a.id])).code).toBe(0);
      last = await cli.run(['run', '--resume', taskId, '--json'], { timeoutMs: 120_000 });
    }
    expect(last.code, explain(last)).toBe(0);
    expect(await orders(origin)).toEqual({ count: 1, orders: [{ item: 'widget', address: ADDRESS }] });
  });

  it('serve stopped while the order waits: the next serve places it on the restored page once approved', async () => {
    const origin = await setUp();
    const first = await startServe(cli);
    const client = await first.connect();
    const source = playbook(origin);
    const task = await client.call('tasks.create', { playbook: { source, baseDir: cli.home }, inputs: {}, start: true });
    await waitForTaskState(client, task.id, ['waiting_approval'], 60_000);
    await client.close();
    await first.child.kill('SIGTERM');

    const second = await startServe(cli);
    const again = await second.connect();
    let done = await again.call('tasks.get', { taskId: task.id });
    for (let round = 0; round < 3 && done.task.state !== 'succeeded' && done.task.state !== 'failed'; round++) {
      const pending = (await again.call('approvals.list', { taskId: task.id, status: 'pending' })).approvals;
      for (const a of pending) await again.call('approvals.decide', { approvalId: a.id, decision: 'approve', remember: 'once' });
      done = {
        ...done,
        task: await settledAfter(
          again,
          task.id,
          pending.map((a) => a.id),
        ),
      };
    }
    await again.close();
    expect(done.task.state, done.task.stateReason).toBe('succeeded');
    expect(await orders(origin)).toEqual({ count: 1, orders: [{ item: 'widget', address: ADDRESS }] });
  });
});
