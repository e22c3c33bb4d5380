import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { TraceEvent } from '../../../../electron/contract/index.js';
import { pollUntil } from '../../../support/poll.js';
import { createPlaybookTask, openTestRuntime, waitForState, type TestRuntime } from '../../../support/runtime.js';
import { testTool } from '../../../support/testTools.js';

let h: TestRuntime | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

/** A read-only step right before a delete: the read's commit is lazy, the delete asks. */
const READ_THEN_DELETE = `
name: read-then-delete
steps:
  - id: make
    tool: fs.write
    args: { path: old.log, content: "old\\n" }
  - id: look
    tool: fs.read
    args: { path: old.log }
  - id: remove
    tool: fs.delete
    args: { path: old.log }
`;

const events = async (rt: TestRuntime['rt'], taskId: string): Promise<TraceEvent[]> => (await rt.trace.page(taskId, 0, 500)).events;

/** Trace rows as `type` or `type:tool`/`type:to`, in seq order, from `fromType` on. */
function order(list: TraceEvent[]): string[] {
  return list.map((e) => {
    const d = e.data as { tool?: string; to?: string; status?: string };
    return [e.type, d.tool ?? d.to ?? d.status].filter(Boolean).join(':');
  });
}

describe('the trace tells the truth in order', () => {
  it('an approval request is traced after the read-only step that came before it, and its decision before the step runs', async () => {
    h = openTestRuntime();
    const task = await createPlaybookTask(h.rt, READ_THEN_DELETE);
    await h.rt.engine.start(task.id);
    await waitForState(h.rt, task.id, ['waiting_approval']);
    const [approval] = await h.rt.approvals.list({ status: 'pending' });
    await h.rt.approvals.decide(approval!.id, { decision: 'approve', remember: 'once' }, 'test');
    expect((await waitForState(h.rt, task.id, ['succeeded', 'failed'])).state).toBe('succeeded');

    const seen = order(await events(h.rt, task.id));
    const from = seen.indexOf('step.completed:fs.read');
    expect(from).toBeGreaterThan(0);
    expect(seen.slice(from)).toEqual([
      'step.completed:fs.read',
      'step.policy',
      'approval.requested:fs.delete',
      'task.transition:waiting_approval',
      'approval.voted', // who decided, as a row of its own (four-eyes rules count these)
      'approval.resolved:approved',
      'task.transition:running',
      'step.started:fs.delete',
      'step.completed:fs.delete',
      'task.transition:succeeded',
    ]);
  });

  it('cancelling a task that waits for approval traces the approval cancelled before the task', async () => {
    h = openTestRuntime();
    const task = await createPlaybookTask(h.rt, READ_THEN_DELETE);
    await h.rt.engine.start(task.id);
    await waitForState(h.rt, task.id, ['waiting_approval']);
    await h.rt.engine.cancel(task.id, 'not today');
    await waitForState(h.rt, task.id, ['cancelled']);
    await h.rt.engine.idle();
    const seen = order(await events(h.rt, task.id));
    expect(seen.slice(seen.indexOf('approval.requested:fs.delete'))).toEqual([
      'approval.requested:fs.delete',
      'task.transition:waiting_approval',
      'approval.resolved:cancelled',
      'task.transition:cancelled',
    ]);
  });

  it('a completed read-only step is committed within its bound by a timer, with no later write to carry it', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    // Read-only and hanging: its start is not written on its own, so nothing else commits meanwhile.
    const wait = testTool({ name: 'wait', risk: 'read', readOnly: true, idempotent: true, run: async () => (await released, 'ok') });
    h = openTestRuntime({ tools: [wait] });
    const task = await createPlaybookTask(
      h.rt,
      `name: read-then-wait\nsteps:\n  - { id: read, tool: echo, args: { value: 42 } }\n  - { id: wait, tool: wait, args: {} }\n`,
    );
    const run = h.rt.engine.run(task.id);
    // Another connection, as the CLI or a crash-restarted process would see the file.
    const reader = new Database(path.join(h.home, 'agent-desk.db'), { readonly: true });
    try {
      const committed = await pollUntil(
        'the echo step to be committed while the next step still runs',
        () => reader.prepare("SELECT status FROM steps WHERE task_id = ? AND idx = 0 AND status = 'completed'").get(task.id),
        { timeoutMs: 10_000, intervalMs: 20 },
      );
      expect(committed).toEqual({ status: 'completed' });
    } finally {
      reader.close();
      release();
      await run;
    }
  });
});
