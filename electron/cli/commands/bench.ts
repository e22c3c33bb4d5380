import { postgresUrl } from '../../runtime/store/sql/openSqlDatabase.js';
import type { Command } from 'commander';
import { z } from 'zod';
import { AgentDeskError } from '../../runtime/errors.js';
import { WRITE_BATCH } from '../../runtime/engine/commitQueue.js';
import type { AnyTool } from '../../runtime/tools/types.js';
import { printJson, reportError } from '../output.js';
import { registerBenchBrowser } from './benchBrowser.js';
import { registerBenchContext } from './benchContext.js';
import { registerBenchGrounding } from './benchGrounding.js';
import { registerBenchQueue } from './benchQueue.js';
import { registerBenchSandbox } from './benchSandbox.js';
import { registerBenchUi } from './benchUi.js';
import { registerBenchWatch } from './benchWatch.js';
import { benchStoreKind, withBenchStore } from './benchStore.js';
import { benchModelSteps } from './benchStepModel.js';
import { openBenchRuntime, benchMachine } from './benchRuntime.js';
import { median, round } from './benchStats.js';

/** A playbook of `n` calls of `tool`, each with distinct arguments (so no loop is detected). */
function playbookOf(tool: string, n: number): string {
  const steps = Array.from({ length: n }, (_, i) => `  - tool: ${tool}\n    args: { value: ${i} }`).join('\n');
  return `name: bench-step\nbudget: { maxSteps: ${n + 10} }\nsteps:\n${steps}\n`;
}

/**
 * A side-effecting no-op (risk write, idempotent, allowed inside the workspace): it measures the
 * exactly-once protocol — `started` committed before the call, `completed` after — not any I/O.
 */
const noopWrite: AnyTool = {
  name: 'bench.noop_write',
  title: 'No-op write (benchmark)',
  description: 'Does nothing, recorded as a side effect.',
  tier: 'api',
  capabilities: ['bench.noop_write'],
  risk: 'write',
  readOnly: false,
  idempotent: true,
  input: z.object({ value: z.number() }).strict(),
  classify: () => ({
    risks: ['write'],
    subject: '',
    readOnly: false,
    idempotent: true,
    insideWorkspace: true,
    preview: { summary: 'no-op' },
  }),
  availability: () => ({ available: true }),
  execute: async (args: { value: number }) => args,
};

/** One timed run of `n` steps of `tool` in a fresh data folder (its SQLite file, or AGENT_DESK_DATABASE_URL's database); µs per step. */
async function timeSteps(tool: string, n: number): Promise<number> {
  const { rt, home, dispose } = await openBenchRuntime('step', { tools: [noopWrite] });
  try {
    const { task } = await rt.tasks.create({
      source: { kind: 'playbook', source: playbookOf(tool, n), baseDir: home },
      requester: { kind: 'local' },
      title: 'bench',
    });
    const started = process.hrtime.bigint();
    const done = await rt.engine.run(task.id);
    const elapsedUs = Number(process.hrtime.bigint() - started) / 1000;
    const persisted = (await rt.store.steps.forTask(task.id)).filter((s) => s.status === 'completed').length;
    if (done.state !== 'succeeded' || persisted !== n)
      throw new Error(`bench task ended ${done.state} with ${persisted}/${n} steps persisted`);
    return elapsedUs / n;
  } finally {
    await dispose();
  }
}

/**
 * Durable step overhead: median over `runs` runs (after one warm-up) of a playbook of `n` no-op
 * API calls, every step persisted in SQLite before the task ends; plus the same for side effects.
 */
export async function benchStep(n: number, runs = 5): Promise<Record<string, unknown>> {
  await timeSteps('echo', Math.min(n, 200)); // warm-up: JIT and page cache
  const readOnly: number[] = [];
  const sideEffect: number[] = [];
  for (let i = 0; i < runs; i++) {
    readOnly.push(await timeSteps('echo', n));
    sideEffect.push(await timeSteps('bench.noop_write', n));
  }
  return {
    steps: n,
    overheadUsPerStep: round(median(readOnly)),
    durable: true,
    sideEffectOverheadUsPerStep: round(median(sideEffect)),
    runs,
    commits: {
      sideEffectStep: 'started before the call + completed after',
      readOnlyStep: `completed, batched with other lazy writes, up to ${WRITE_BATCH} writes per commit`,
    },
    // A bench's data folder has no config.json: the store is AGENT_DESK_DATABASE_URL's, else SQLite.
    store: postgresUrl({ kind: 'sqlite' }) ? { kind: 'postgres' } : { kind: 'sqlite', journal: 'wal', synchronous: 'NORMAL' },
    machine: benchMachine(),
  };
}

/** `agent-desk bench <what> --json`. */
export function registerBench(program: Command): void {
  const bench = program.command('bench').description('measure the runtime (prints JSON figures)');
  registerBenchBrowser(bench);
  registerBenchContext(bench);
  registerBenchGrounding(bench);
  registerBenchQueue(bench);
  registerBenchSandbox(bench);
  registerBenchUi(bench);
  registerBenchWatch(bench);
  bench
    .command('step')
    .description('runtime cost per step: a playbook of no-op API calls, or (--planner model) a model-planned goal task')
    .option('--planner <kind>', 'playbook, or model: a goal task through the LLM planner with an in-process model', 'playbook')
    .option('--steps <n>', 'number of steps (model: comma-separated sizes)', '')
    .option('--runs <n>', 'timed runs (the median is reported): of the playbook, or (model) of each size; default 5, model 1')
    .option(
      '--store <kind>',
      'sqlite (a fresh file), or postgres (a fresh database on the server AGENT_DESK_DATABASE_URL names); default: postgres when that is set',
    )
    .option('--json', 'print JSON (the default)')
    .action(async (opts: { planner: string; steps: string; runs?: string; store?: string; json?: boolean }) => {
      try {
        if (opts.planner !== 'playbook' && opts.planner !== 'model') {
          throw new AgentDeskError('invalid_params', `--planner must be playbook or model, not "${opts.planner}"`);
        }
        const store = benchStoreKind(opts.store ?? (postgresUrl({ kind: 'sqlite' }) ? 'postgres' : 'sqlite'));
        const figures = await withBenchStore(store, () =>
          opts.planner === 'model'
            ? benchModelSteps((opts.steps || '1000,10000').split(',').map(Number), Number(opts.runs ?? '1'))
            : benchStep(Number(opts.steps || '1000'), Number(opts.runs ?? '5')),
        );
        if (opts.json) printJson(figures);
        else console.log(JSON.stringify(figures));
      } catch (error) {
        process.exitCode = reportError(error, Boolean(opts.json));
      }
    });
}
