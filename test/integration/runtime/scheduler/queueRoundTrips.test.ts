import { afterEach, describe, expect, it } from 'vitest';
import { openStoreTestRuntime, storeMissing } from '../../../support/storeKinds.js';
import { countQueries } from '../../../support/queryCount.js';
import type { TestRuntime } from '../../../support/runtime.js';

// On PostgreSQL every statement sent alone is a round trip to the server, and a queued task's
// round trips bound what one worker can run (docs/benchmarks.md). This counts them for the
// bench's own task shape (a read, a durable write, a file check), so a change that adds one per
// task shows here.

const PLAYBOOK = `
name: two-steps
inputs:
  n: { type: number, required: true }
steps:
  - { id: compute, tool: echo, args: { value: "\${inputs.n}" } }
  - { id: write, tool: fs.write, args: { path: out.txt, content: "task \${inputs.n}" } }
acceptance:
  - { type: file_exists, path: out.txt }
`;
const TASKS = 30;
/**
 * Queries a queued task of this shape costs: the queue's ready read and claim, the task's lease,
 * three commits of state and steps, each one query (queued → planning → running is one of them,
 * a state's new row comes back with the COMMIT: `deferGet`, and the check results land with the
 * last state), then the lease's release with the entry's finish in one commit — 8.2 measured (the
 * rest is the drain's own polling); 10.2 when the check results were a commit of their own and the
 * entry was finished after the release, 14.1 when a state's row came back before the COMMIT, 15.3
 * when the start was two commits, 18.3 before the queue stopped counting agents' running tasks
 * when no agent has a limit and a run of a never-run task stopped reading its (absent) steps and
 * its final row back.
 */
const MAX_PER_TASK = 9;

let h: TestRuntime | undefined;
afterEach(async () => {
  await h?.rt.scheduler.stop();
  await h?.cleanup();
  h = undefined;
});

describe('a queued task on PostgreSQL', () => {
  const absent = storeMissing('postgres');
  it.skipIf(absent !== undefined)(`costs a worker at most ${MAX_PER_TASK} round trips to the server`, async () => {
    h = await openStoreTestRuntime('postgres');
    const rt = h.rt;
    for (let n = 0; n < TASKS; n++) {
      const { task } = await rt.tasks.create({
        source: { kind: 'playbook', source: PLAYBOOK, baseDir: h.home },
        requester: { kind: 'local' },
        inputs: { n },
      });
      await rt.scheduler.queue.add(task.id);
    }
    const queries = countQueries();
    try {
      rt.scheduler.queue.start();
      await rt.scheduler.queue.drain();
    } finally {
      queries.stop();
    }
    const tasks = await rt.store.tasks.list({ limit: TASKS + 1 });
    expect(tasks.map((t) => t.state)).toEqual(Array(TASKS).fill('succeeded'));
    expect(queries.count / TASKS).toBeLessThanOrEqual(MAX_PER_TASK);
  });
});
