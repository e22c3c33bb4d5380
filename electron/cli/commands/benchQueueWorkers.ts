import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { TaskQueueRepo } from '../../runtime/store/taskQueueRepo.js';
import { benchMachine, openBenchRuntime } from './benchRuntime.js';
import { queueBacklog } from './benchQueueBacklog.js';
import { percentile } from './benchStats.js';
import { withBenchStore, type BenchStoreKind } from './benchStore.js';

// `bench queue --workers 1,2,4`: the queue worked by separate `agent-desk worker` processes on one
// store, as `serve --no-worker` deployments run it — not the in-process queue of `bench queue`.

/** How often the bench looks whether the backlog is done (the figure does not depend on it). */
const POLL_MS = 250;

/** One measurement: `workers` processes draining the same backlog. */
export interface WorkersRun {
  workers: number;
  tasksPerSecond: number;
  seconds: number;
  /** From the commit that queued an entry to a worker's claim of it (a backlog waits in line). */
  waitToClaimMs: { p50: number; p99: number };
  /** Each worker's peak resident memory (Linux VmHWM), MB. */
  peakRssMbPerWorker: (number | null)[];
}

/** Runs the backlog once per worker count, each in a fresh data folder and a fresh store. */
export async function benchQueueWorkers(
  n: number,
  workerCounts: readonly number[],
  concurrency: number,
  store: BenchStoreKind = 'sqlite',
): Promise<Record<string, unknown>> {
  const runs: WorkersRun[] = [];
  for (const workers of workerCounts) runs.push(await withBenchStore(store, (env) => drainWith(n, workers, concurrency, env)));
  return { tasks: n, concurrencyPerWorker: concurrency, stepsPerTask: 2, store, runs, machine: benchMachine() };
}

async function drainWith(n: number, workers: number, concurrency: number, env: Record<string, string>): Promise<WorkersRun> {
  const { rt, home, dispose } = await openBenchRuntime('queue-workers', { config: { scheduler: { concurrency } } });
  const children: ChildProcess[] = [];
  try {
    for (let i = 0; i < workers; i++) children.push(await startWorker(home, concurrency, env));
    await queueBacklog(rt, home, n);
    const started = Date.now();
    const entries = new TaskQueueRepo(rt.store.sql);
    // The end is the last entry's own finish stamp, so the poll can be slow: a count every 10 ms
    // was the bench's own load on the cores the workers and the database share.
    while ((await entries.counts()).done < n) {
      if (children.some((c) => c.exitCode !== null)) throw new Error('bench queue: a worker exited before the backlog was done');
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    const last = await rt.store.sql.get<{ at: string }>('SELECT MAX(finished_at) AS at FROM task_queue');
    const seconds = (Date.parse(last!.at) - started) / 1000;
    const succeeded = (await rt.store.tasks.list({ state: 'succeeded', limit: n + 1 })).length;
    if (succeeded !== n) throw new Error(`bench queue: ${succeeded}/${n} tasks succeeded`);
    const waits = (await rt.store.sql.all<{ started_at: string; enqueued_at: string }>('SELECT started_at, enqueued_at FROM task_queue'))
      .map((r) => Date.parse(r.started_at) - Date.parse(r.enqueued_at))
      .sort((a, b) => a - b);
    return {
      workers,
      tasksPerSecond: Math.round((n / seconds) * 10) / 10,
      seconds: Math.round(seconds * 100) / 100,
      waitToClaimMs: { p50: percentile(waits, 0.5), p99: percentile(waits, 0.99) },
      peakRssMbPerWorker: children.map((c) => peakRssMb(c.pid)),
    };
  } finally {
    await Promise.all(children.map(stop));
    await dispose();
  }
}

/** Starts `agent-desk worker` on the folder (the CLI running this bench) and waits for its ready line. */
function startWorker(home: string, concurrency: number, store: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, [process.argv[1]!, 'worker', '--concurrency', String(concurrency)], {
    env: { ...process.env, ...store, AGENT_DESK_HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes('Agent Desk worker')) resolve(child);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('exit', (code) => reject(new Error(`bench queue: a worker exited (${code}) before it was ready: ${output.trim()}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** A process's peak resident set (VmHWM), MB; null where /proc does not say. */
function peakRssMb(pid: number | undefined): number | null {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? null : Math.round(Number(kb) / 1024);
  } catch {
    return null;
  }
}
