import type { Command } from 'commander';
import { AgentDeskError } from '../../runtime/errors.js';
import { printJson, reportError } from '../output.js';
import { benchMachine, openBenchRuntime } from './benchRuntime.js';
import { queueBacklog } from './benchQueueBacklog.js';
import { benchQueueWorkers } from './benchQueueWorkers.js';
import { benchStoreKind, withBenchStore, type BenchStoreKind } from './benchStore.js';

/**
 * Queues `n` tasks in a fresh store and runs them with `concurrency` runs at once in this process;
 * reports throughput and the process's peak resident memory.
 */
export function benchQueue(n: number, concurrency: number, store: BenchStoreKind = 'sqlite'): Promise<Record<string, unknown>> {
  return withBenchStore(store, async () => ({ ...(await drainHere(n, concurrency)), store }));
}

async function drainHere(n: number, concurrency: number): Promise<Record<string, unknown>> {
  const { rt, home, dispose } = await openBenchRuntime('queue', { config: { scheduler: { concurrency } } });
  try {
    const scheduler = rt.scheduler;
    const enqueueStart = process.hrtime.bigint();
    await queueBacklog(rt, home, n);
    const enqueueMs = Number(process.hrtime.bigint() - enqueueStart) / 1e6;
    const started = process.hrtime.bigint();
    scheduler.queue.start();
    await scheduler.queue.drain();
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const succeeded = (await rt.store.tasks.list({ state: 'succeeded', limit: n + 1 })).length;
    const counts = await scheduler.queue.counts();
    if (succeeded !== n || counts.done !== n)
      throw new Error(`bench queue: ${succeeded}/${n} tasks succeeded, ${counts.done} entries done`);
    return {
      tasks: n,
      concurrency,
      stepsPerTask: 2,
      tasksPerSecond: Math.round((n / seconds) * 10) / 10,
      seconds: Math.round(seconds * 100) / 100,
      enqueueMs: Math.round(enqueueMs),
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      succeeded,
      machine: benchMachine(),
    };
  } finally {
    await dispose();
  }
}

/** Registers `bench queue` on the `bench` command. */
export function registerBenchQueue(bench: Command): void {
  bench
    .command('queue')
    .description('background queue throughput: queued playbook tasks run with a concurrency limit')
    .option('--tasks <n>', 'number of tasks', '1000')
    .option('--concurrency <n>', 'tasks at once (per worker with --workers)', '4')
    .option('--workers <counts>', 'drain the backlog with separate `agent-desk worker` processes instead, once per count (e.g. 1,2,4)')
    .option('--store <kind>', 'sqlite (a fresh file) or postgres (a fresh database on the server AGENT_DESK_DATABASE_URL names)', 'sqlite')
    .option('--json', 'print JSON (the default)')
    .action(async (opts: { tasks: string; concurrency: string; workers?: string; store?: string; json?: boolean }) => {
      try {
        const store = benchStoreKind(opts.store);
        if (opts.workers === undefined) return printJson(await benchQueue(Number(opts.tasks), Number(opts.concurrency), store));
        printJson(await benchQueueWorkers(Number(opts.tasks), workerCounts(opts.workers), Number(opts.concurrency), store));
      } catch (error) {
        process.exitCode = reportError(error, Boolean(opts.json));
      }
    });
}

/** `--workers 1,2,4` as counts; anything else is a usage error. */
function workerCounts(text: string): number[] {
  const counts = text.split(',').map((part) => Number(part.trim()));
  if (counts.length === 0 || counts.some((c) => !Number.isInteger(c) || c < 1 || c > 16)) {
    throw new AgentDeskError('invalid_params', `--workers takes counts from 1 to 16 separated by commas (e.g. 1,2,4), not "${text}"`);
  }
  return counts;
}
