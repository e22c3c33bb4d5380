import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GatewayClient } from '../../../electron/capabilities/transports/wsClient.js';
import type { Approval, EventFrame, Task, TraceEvent } from '../../../electron/contract/index.js';
import { CliSandbox, examplePlaybook, explain, REPO_ROOT } from '../../support/cliSandbox.js';
import { pollUntil } from '../../support/poll.js';
import { startServe, waitForTaskState } from '../../support/serveProcess.js';

const CLEANUP_SOURCE = readFileSync(examplePlaybook('cleanup-old-logs.yaml'), 'utf8');
const PLAYBOOKS_DIR = path.join(REPO_ROOT, 'examples', 'playbooks');

let cli: CliSandbox;
let clients: GatewayClient[] = [];
beforeEach(() => {
  cli = new CliSandbox();
});
afterEach(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  clients = [];
  await cli.cleanup();
});

async function connect(serve: { connect(): Promise<GatewayClient> }): Promise<GatewayClient> {
  const client = await serve.connect();
  clients.push(client);
  return client;
}

const createCleanupTask = (client: GatewayClient): Promise<Task> =>
  client.call('tasks.create', { playbook: { source: CLEANUP_SOURCE, baseDir: PLAYBOOKS_DIR } });

/** The pending approval of a task, once the gateway lists it. */
const pendingApprovalOf = (client: GatewayClient, taskId: string): Promise<Approval> =>
  pollUntil(
    `a pending approval of ${taskId}`,
    async () => (await client.call('approvals.list', { status: 'pending', taskId })).approvals[0],
  );

/** Every page of a task's trace, `limit` events at a time. */
async function wholeTrace(client: GatewayClient, taskId: string, limit: number): Promise<{ events: TraceEvent[]; pages: number }> {
  const events: TraceEvent[] = [];
  let afterSeq = 0;
  for (let pages = 1; ; pages++) {
    const page = await client.call('traces.get', { taskId, afterSeq, limit });
    expect(page.events.length).toBeLessThanOrEqual(limit);
    events.push(...page.events);
    if (page.nextSeq === undefined) return { events, pages };
    afterSeq = page.nextSeq;
  }
}

describe('agent-desk serve (real processes)', () => {
  it('a task waiting for approval survives a SIGKILL of serve and finishes after an RPC approval', async () => {
    const first = await startServe(cli);
    const client = await connect(first);
    const events: EventFrame[] = [];
    client.onEvent((frame) => void events.push(frame));
    await client.call('events.subscribe', {});

    const created = await createCleanupTask(client);
    await pollUntil('an approval.requested event for the task', () =>
      events.find((e) => e.event === 'approval.requested' && (e.data as Approval).taskId === created.id),
    );
    const waiting = await waitForTaskState(client, created.id, ['waiting_approval']);
    expect(waiting.stateReason).toContain('Delete logs/app-2026-10.log');

    await first.child.kill('SIGKILL');
    expect(first.child.running).toBe(false);

    const second = await startServe(cli);
    expect(second.info.pid).not.toBe(first.info.pid);
    expect(second.info.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/rpc$/);
    const again = await connect(second);
    const pending = (await again.call('approvals.list', { status: 'pending' })).approvals;
    expect(pending).toEqual([expect.objectContaining({ taskId: created.id, tool: 'fs.delete', status: 'pending' })]);

    const decided = await again.call('approvals.decide', { approvalId: pending[0]!.id, decision: 'approve' });
    expect(decided.status).toBe('approved');
    const done = await waitForTaskState(again, created.id, ['succeeded', 'failed', 'cancelled']);
    expect(done.state, done.stateReason).toBe('succeeded');
    expect(existsSync(path.join(done.workspace, 'logs/app-2026-10.log'))).toBe(false);
    expect(existsSync(path.join(done.workspace, 'logs/app-2026-11.log'))).toBe(true);

    // A decision made by another process (the CLI) reaches the runner inside serve through the database.
    const next = await createCleanupTask(again);
    const approval = await pendingApprovalOf(again, next.id);
    await waitForTaskState(again, next.id, ['waiting_approval']);
    const approved = await cli.run(['approvals', 'approve', approval.id]);
    expect(approved.code, explain(approved)).toBe(0);
    const nextDone = await waitForTaskState(again, next.id, ['succeeded', 'failed', 'cancelled']);
    expect(nextDone.state, nextDone.stateReason).toBe('succeeded');
    expect(existsSync(path.join(nextDone.workspace, 'logs/app-2026-10.log'))).toBe(false);
    expect(second.child.running).toBe(true);
  }, 120_000);

  it('traces.get pages a finished task with afterSeq: seqs 1..N without gaps, transitions ending in succeeded', async () => {
    const serve = await startServe(cli);
    const client = await connect(serve);
    const created = await createCleanupTask(client);
    const approval = await pendingApprovalOf(client, created.id);
    await client.call('approvals.decide', { approvalId: approval.id, decision: 'approve', reason: 'rotated logs may go' });
    const done = await waitForTaskState(client, created.id, ['succeeded', 'failed', 'cancelled']);
    expect(done.state, done.stateReason).toBe('succeeded');

    const { events, pages } = await wholeTrace(client, created.id, 3);
    expect(events.length).toBeGreaterThan(6);
    expect(pages).toBeGreaterThanOrEqual(Math.ceil(events.length / 3));
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events.every((e) => e.taskId === created.id)).toBe(true);

    const transitions = events.filter((e) => e.type === 'task.transition').map((e) => e.data.to);
    expect(transitions).toContain('waiting_approval');
    expect(transitions.at(-1)).toBe('succeeded');
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'approval.resolved',
        data: expect.objectContaining({ approvalId: approval.id, status: 'approved', reason: 'rotated logs may go' }),
      }),
    );

    // The pages are the same events as one big read.
    const whole = await client.call('traces.get', { taskId: created.id, afterSeq: 0, limit: 1000 });
    expect(whole.events).toEqual(events);
    expect(whole.nextSeq).toBeUndefined();
  }, 120_000);
});
