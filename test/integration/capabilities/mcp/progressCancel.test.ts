import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EventFrame, Step } from '../../../../electron/contract/index.js';
import { REPO_ROOT } from '../../../support/cliSandbox.js';
import { pollUntil } from '../../../support/poll.js';
import { createPlaybookTask, waitForState } from '../../../support/runtime.js';
import { referenceServer, useMcpRuntime } from './referenceServers.js';

const mcp = useMcpRuntime();

const longRun = (duration: number, steps: number) => `name: long
steps:
  - tool: mcp__everything__trigger-long-running-operation
    args: { duration: ${duration}, steps: ${steps} }
`;

/** server-everything over stdio behind a tee that logs what the client sent it. */
async function everythingWithLog(): Promise<string> {
  const { harness, manager } = mcp.open();
  const log = path.join(harness.home, 'client-to-server.jsonl');
  writeFileSync(log, '');
  const tee = path.join(REPO_ROOT, 'test', 'fixtures', 'mcp', 'teeStdio.mjs');
  const status = await manager.add('everything', {
    transport: 'stdio',
    command: process.execPath,
    args: [tee, log, process.execPath, referenceServer('everything')],
    env: {},
    timeoutMs: 30_000,
    capabilities: {},
    enabled: true,
  });
  expect(status.state, status.reason).toBe('connected');
  return log;
}

const sent = (log: string): { method?: string; id?: number; params?: Record<string, unknown> }[] =>
  readFileSync(log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { method?: string });

describe('MCP progress and cancellation', () => {
  it('progress notifications during a call become tool.progress trace events and live task.step progress', async () => {
    await everythingWithLog();
    const rt = mcp.harness.rt;
    const live: Step[] = [];
    const off = rt.bus.on({ events: ['task.step'] }, (frame: EventFrame) => void live.push(frame.data as Step));
    const task = await createPlaybookTask(rt, longRun(1, 4));
    const done = await rt.engine.run(task.id);
    off();
    expect(done.state, done.stateReason).toBe('succeeded');

    const events = (await rt.trace.page(task.id, 0, 500)).events;
    const progress = events.filter((e) => e.type === 'tool.progress');
    // The SDK may drop the last notification when the result overtakes it: 1..3 always arrive (250 ms apart).
    const seen = progress.map((e) => e.data as { progress: number });
    expect(seen.slice(0, 3)).toEqual(
      [1, 2, 3].map((n) => ({ index: 0, tool: 'mcp__everything__trigger-long-running-operation', progress: n, total: 4 })),
    );
    // The step's start is traced before its progress, its completion after.
    const order = events.filter((e) => e.stepId === progress[0]!.stepId).map((e) => e.type);
    expect(order[0]).toBe('step.started');
    expect(order.slice(1, -1).every((t) => t === 'tool.progress')).toBe(true);
    expect(order.at(-1)).toBe('step.completed');
    expect(live.filter((s) => s.progress).map((s) => [s.status, s.progress])).toEqual(
      seen.map((p) => ['started', { progress: p.progress, total: 4 }]),
    );
  });

  it('cancelling the task mid-call forwards the cancellation to the server; the call is aborted and the task cancelled cleanly', async () => {
    const log = await everythingWithLog();
    const rt = mcp.harness.rt;
    const task = await createPlaybookTask(rt, longRun(60, 60));
    const run = rt.engine.run(task.id);
    await pollUntil('the first progress notification', async () =>
      (await rt.trace.page(task.id, 0, 500)).events.some((e) => e.type === 'tool.progress') ? true : undefined,
    );
    await rt.engine.cancel(task.id);
    await run;
    const done = await waitForState(rt, task.id, ['cancelled', 'failed', 'succeeded']);
    expect(done.state, done.stateReason).toBe('cancelled');
    const [step] = await rt.engine.steps(task.id);
    // The tool is read-only, so an aborted call is simply failed (not uncertain).
    expect(step).toMatchObject({ status: 'failed', error: 'aborted: the task was cancelled' });

    const call = sent(log).find((m) => m.method === 'tools/call');
    await pollUntil('notifications/cancelled to reach the server', () =>
      sent(log).find((m) => m.method === 'notifications/cancelled' && m.params?.requestId === call?.id) ? true : undefined,
    );
    // The server stays usable: the connection was not torn down by the cancel.
    expect(mcp.manager.connection('everything')?.state).toBe('connected');
    const again = await rt.engine.run((await createPlaybookTask(rt, longRun(0, 1))).id);
    expect(again.state, again.stateReason).toBe('succeeded');
  });
});
