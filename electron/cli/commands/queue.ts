import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { ProductRuntime } from '../../capabilities/composition/openRuntime.js';
import type { TaskSpec } from '../../runtime/engine/taskEngine.js';
import { TaskQueueRepo } from '../../runtime/store/taskQueueRepo.js';
import { withRuntime } from '../openRuntime.js';
import { parsePairs, printJson } from '../output.js';

interface AddOptions {
  input: string[];
  count: string;
  agent?: string;
  json?: boolean;
}

/** Entries at once after which the queue's statistics are refreshed (autovacuum's own threshold is 50 rows). */
const BULK_ENTRIES = 50;

/**
 * Creates the tasks and their queue entries in one transaction (all of them land, or none), the
 * specs built before it (building reads the store); after many, the queue's statistics are
 * refreshed (PostgreSQL), so a fill reads the first pending entries by index. Returns the task ids.
 */
export async function createQueued(
  rt: Pick<ProductRuntime, 'store' | 'tasks' | 'scheduler'>,
  specs: readonly TaskSpec[],
  opts: { agentId?: string } = {},
): Promise<string[]> {
  const ids = await rt.store.transaction(async (tx) => {
    const entries = new TaskQueueRepo(tx.sql);
    const created: string[] = [];
    for (const spec of specs) {
      const task = await rt.tasks.createBuilt(spec, tx); // an unknown agent or profile is refused here
      await rt.scheduler.queue.add(task.id, opts, entries);
      created.push(task.id);
    }
    return created;
  });
  if (ids.length >= BULK_ENTRIES) await new TaskQueueRepo(rt.store.sql).refreshStatistics();
  return ids;
}

/** `agent-desk queue add|work|status`: the background queue. */
export function registerQueue(program: Command): void {
  const queue = program.command('queue').description('background tasks, run with a concurrency limit');
  queue
    .command('add <playbook>')
    .description('queue tasks from a playbook; `{n}` in an input value becomes the copy number')
    .option('-i, --input <key=value>', 'an input value (repeatable)', (v: string, all: string[]) => [...all, v], [])
    .option('--count <n>', 'how many copies', '1')
    .option('--agent <name>', 'run as this agent (its concurrency limit applies)')
    .option('--json', 'print JSON')
    .action((file: string, opts: AddOptions) =>
      withRuntime(opts.json, async (rt) => {
        const absolute = path.resolve(file);
        const source = readFileSync(absolute, 'utf8');
        const given = parsePairs(opts.input);
        const parsed = rt.tasks.parsePlaybook(source, file); // once for all the tasks
        const specs: TaskSpec[] = [];
        for (let n = 0; n < Number(opts.count); n++) {
          const built = await rt.tasks.build({
            source: { kind: 'playbook', source, baseDir: path.dirname(absolute), file, parsed },
            requester: { kind: 'local' },
            unattended: 'a queued task',
            inputs: Object.fromEntries(Object.entries(given).map(([k, v]) => [k, v.replaceAll('{n}', String(n))])),
            ...(opts.agent && { agent: opts.agent }),
          });
          specs.push(built.spec);
        }
        const ids = await createQueued(rt, specs, { ...(opts.agent && { agentId: opts.agent }) });
        if (opts.json) return printJson({ queued: ids.length, taskIds: ids });
        console.log(`queued ${ids.length} task(s)`);
      }),
    );
  queue
    .command('work')
    .description('run queued tasks until none is left (taking over those a dead worker left)')
    .option('--concurrency <n>', 'tasks at once (default: scheduler.concurrency in config.json, else 4)')
    .option('--json', 'print JSON')
    .action((opts: { concurrency?: string; json?: boolean }) =>
      withRuntime(
        opts.json,
        async (rt) => {
          const scheduler = rt.scheduler;
          scheduler.queue.start();
          await scheduler.queue.drain();
          const counts = await scheduler.queue.counts();
          if (opts.json) return printJson(counts);
          console.log(`queue: ${counts.done} done, ${counts.pending} pending, ${counts.running} running elsewhere`);
        },
        'full',
        opts.concurrency === undefined ? {} : { scheduler: { concurrency: Number(opts.concurrency) } },
      ),
    );
  queue
    .command('status')
    .option('--json', 'print JSON')
    .action((opts: { json?: boolean }) =>
      withRuntime(opts.json, async (rt) => {
        const counts = await rt.scheduler.queue.counts();
        if (opts.json) return printJson(counts);
        console.log(`queue: ${counts.pending} pending, ${counts.running} running, ${counts.done} done`);
      }),
    );
}
