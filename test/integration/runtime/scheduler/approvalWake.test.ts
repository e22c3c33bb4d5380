import { afterEach, describe, expect, it } from 'vitest';
import { createPlaybookTask } from '../../../support/runtime.js';
import { cronRuntime } from './cronFixtures.js';

/** A playbook whose delete waits for an approval. */
const DELETE_PLAYBOOK = `
name: cleanup
steps:
  - id: write
    tool: fs.write
    args: { path: old.log, content: "old\\n" }
  - id: delete
    tool: fs.delete
    args: { path: old.log }
acceptance:
  - { type: file_exists, path: old.log, exists: false }
`;

let h: Awaited<ReturnType<typeof cronRuntime>>;
afterEach(async () => {
  await h.scheduler().stop();
  await h.cleanup();
});

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('a cron-started task waiting for an approval', () => {
  it.each(['approve', 'deny'] as const)(
    'goes on when the approval is decided (%s) in another client, without a restart',
    async (decision) => {
      h = await cronRuntime();
      const scheduler = h.scheduler();
      scheduler.start();
      const job = await scheduler.add({ name: 'cleanup', schedule: '0 * * * *', target: { kind: 'playbook', source: DELETE_PLAYBOOK } });
      const run = await scheduler.runNow(job.id);
      await scheduler.queue.drain();
      expect((await h.rt.engine.get(run.taskId!)).state).toBe('waiting_approval');

      const [approval] = await h.rt.approvals.list({ status: 'pending', taskId: run.taskId! });
      await h.rt.approvals.decide(approval!.id, { decision, remember: 'once' }, 'ui:alice');

      const task = await until(
        () => h.rt.engine.get(run.taskId!),
        (t) => t.state !== 'waiting_approval' && t.state !== 'running' && !h.rt.engine.isRunningHere(t.id),
      );
      expect(task.state).toBe(decision === 'approve' ? 'succeeded' : 'failed');
    },
  );

  it('a task whose run detached and ended elsewhere (run --no-interactive) goes on when approved here', async () => {
    h = await cronRuntime();
    h.scheduler().start();
    const task = await createPlaybookTask(h.rt, DELETE_PLAYBOOK);
    expect((await h.rt.engine.run(task.id, { detachOnApproval: true })).state).toBe('waiting_approval');
    const [approval] = await h.rt.approvals.list({ status: 'pending', taskId: task.id });
    await h.rt.approvals.decide(approval!.id, { decision: 'approve', remember: 'once' }, 'ui:alice');
    const done = await until(
      () => h.rt.engine.get(task.id),
      (t) => t.state === 'succeeded' || t.state === 'failed',
    );
    expect(done.state).toBe('succeeded');
  });
});
