import type { Command } from 'commander';
import { openRuntime } from '../../capabilities/composition/openRuntime.js';
import { printJson, reportError } from '../output.js';
import { benchMachine, openBenchRuntime } from './benchRuntime.js';
import { percentile, round } from './benchStats.js';
import { benchStoreKind, withBenchStore, type BenchStoreKind } from './benchStore.js';

const PLAYBOOK = 'name: bench-watch\nsteps:\n  - tool: echo\n    args: { value: 1 }\n';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * How long a gateway takes to hear of a task another process created: a gateway runtime as
 * `serve` opens it (its store watch on) and a second runtime on the same store (a CLI `run`),
 * which creates `n` tasks one after another at uneven gaps; the clock runs from the task's
 * creation stamp (taken just before its commit) to the gateway's `task.updated` for it, in
 * whole milliseconds. SQLite: the watch's look; PostgreSQL: its notice.
 */
export async function benchWatch(n: number, store: BenchStoreKind): Promise<Record<string, unknown>> {
  return withBenchStore(store, async () => {
    const gateway = await openBenchRuntime('watch', { watchStore: true });
    const cli = await openRuntime('full', { home: gateway.home });
    // When each task's first news reached the gateway (wall clock, as the task's own stamp is).
    const arrivals = new Map<string, number>();
    const waiting = new Map<string, () => void>();
    gateway.rt.bus.on(
      { events: ['task.updated'] },
      (frame) => {
        const id = (frame.data as { id: string }).id;
        if (!arrivals.has(id)) arrivals.set(id, Date.now());
        waiting.get(id)?.();
      },
      { elsewhere: true },
    );
    try {
      await sleep(300); // the watch has begun (and, on PostgreSQL, listens)
      const parsed = cli.tasks.parsePlaybook(PLAYBOOK);
      const latencies: number[] = [];
      for (let i = 0; i < n; i++) {
        await sleep(Math.random() * 250); // gaps spread over a whole look interval: no phase lock with the watch
        const { spec } = await cli.tasks.build({
          source: { kind: 'playbook', source: PLAYBOOK, baseDir: gateway.home, parsed },
          requester: { kind: 'local' },
          title: `watch ${i}`,
          inputs: {},
        });
        const task = await cli.tasks.createBuilt(spec);
        const heard = new Promise<void>((resolve) => {
          waiting.set(task.id, resolve);
          if (arrivals.has(task.id)) resolve();
        });
        await Promise.race([heard, sleep(10_000)]);
        waiting.delete(task.id);
        const at = arrivals.get(task.id);
        // From the writer's stamp on the row (taken just before its commit) to the gateway's event.
        if (at !== undefined) latencies.push(at - Date.parse(task.createdAt));
      }
      const measured = latencies.sort((a, b) => a - b);
      return {
        store,
        tasks: n,
        heard: measured.length,
        createdElsewhereToGatewayEventMs: {
          p50: round(percentile(measured, 0.5)),
          p99: round(percentile(measured, 0.99)),
          max: round(measured.at(-1) ?? 0),
        },
        machine: benchMachine(),
      };
    } finally {
      await cli.close();
      await gateway.dispose();
    }
  });
}

/** Registers `bench watch` on the `bench` command. */
export function registerBenchWatch(bench: Command): void {
  bench
    .command('watch')
    .description("how soon a gateway hears of a task another process created on the same store (the web UI's live list)")
    .option('--tasks <n>', 'tasks created, one after another', '100')
    .option('--store <kind>', 'sqlite (a fresh file) or postgres (a fresh database on the server AGENT_DESK_DATABASE_URL names)', 'sqlite')
    .option('--json', 'print JSON (the default)')
    .action(async (opts: { tasks: string; store?: string; json?: boolean }) => {
      try {
        printJson(await benchWatch(Number(opts.tasks), benchStoreKind(opts.store)));
      } catch (error) {
        process.exitCode = reportError(error, Boolean(opts.json));
      }
    });
}
