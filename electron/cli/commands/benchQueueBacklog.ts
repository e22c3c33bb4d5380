import type { ProductRuntime } from '../../capabilities/composition/openRuntime.js';

/** A small background task: a read, then a durable write in its workspace, checked at the end. */
export const BENCH_QUEUE_PLAYBOOK = `name: bench-queue
inputs:
  n: { type: number, required: true }
steps:
  - id: compute
    tool: echo
    args: { value: "\${inputs.n}" }
  - id: write
    tool: fs.write
    args: { path: out.txt, content: "task \${inputs.n}\\n" }
acceptance:
  - { type: file_exists, path: out.txt }
`;

/** Creates `n` tasks of the playbook and queues them, in one transaction (parsed once, as `queue add` does). */
export function queueBacklog(rt: ProductRuntime, home: string, n: number): void {
  const parsed = rt.tasks.parsePlaybook(BENCH_QUEUE_PLAYBOOK);
  rt.store.transaction(() => {
    for (let i = 0; i < n; i++) {
      const { task } = rt.tasks.create({
        source: { kind: 'playbook', source: BENCH_QUEUE_PLAYBOOK, baseDir: home, parsed },
        requester: { kind: 'local' },
        title: 'bench',
        inputs: { n: i },
      });
      rt.scheduler.queue.add(task.id);
    }
  });
}
