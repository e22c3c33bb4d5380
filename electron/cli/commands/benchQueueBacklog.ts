import type { ProductRuntime } from '../../capabilities/composition/openRuntime.js';
import type { TaskSpec } from '../../runtime/engine/taskEngine.js';
import { createQueued } from './queue.js';

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
export async function queueBacklog(rt: ProductRuntime, home: string, n: number): Promise<void> {
  const parsed = rt.tasks.parsePlaybook(BENCH_QUEUE_PLAYBOOK);
  const specs: TaskSpec[] = [];
  for (let i = 0; i < n; i++) {
    const built = await rt.tasks.build({
      source: { kind: 'playbook', source: BENCH_QUEUE_PLAYBOOK, baseDir: home, parsed },
      requester: { kind: 'local' },
      title: 'bench',
      inputs: { n: i },
    });
    specs.push(built.spec);
  }
  await createQueued(rt, specs);
}
