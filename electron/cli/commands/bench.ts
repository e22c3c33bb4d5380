import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import { ConfigSchema } from '../../contract/index.js';
import { AgentRuntime } from '../../runtime/agentRuntime.js';
import { printJson, reportError } from '../output.js';

/** A playbook of `n` no-op API tool calls, each with distinct arguments (so no loop is detected). */
function noopPlaybook(n: number): string {
  const steps = Array.from({ length: n }, (_, i) => `  - tool: echo\n    args: { value: ${i} }`).join('\n');
  return `name: bench-step\nbudget: { maxSteps: ${n + 10} }\nsteps:\n${steps}\n`;
}

/** Runs the durable step loop over `n` no-op steps in a fresh SQLite file; µs of overhead per step. */
export async function benchStep(n: number): Promise<Record<string, unknown>> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'agent-desk-bench-'));
  const rt = new AgentRuntime({ home, config: ConfigSchema.parse({}) });
  try {
    const task = rt.engine.create({ title: 'bench', plan: { kind: 'playbook', source: noopPlaybook(n), baseDir: home }, inputs: {}, budget: { maxSteps: n + 10 } });
    const started = process.hrtime.bigint();
    const done = await rt.engine.run(task.id);
    const elapsedUs = Number(process.hrtime.bigint() - started) / 1000;
    const persisted = rt.store.steps.forTask(task.id).filter((s) => s.status === 'completed').length;
    if (done.state !== 'succeeded' || persisted !== n) throw new Error(`bench task ended ${done.state} with ${persisted}/${n} steps persisted`);
    const journal = rt.store.db.pragma('journal_mode', { simple: true });
    const synchronous = rt.store.db.pragma('synchronous', { simple: true });
    return {
      steps: n,
      overheadUsPerStep: Math.round((elapsedUs / n) * 10) / 10,
      durable: true,
      sqlite: { journal, synchronous: synchronous === 1 ? 'NORMAL' : synchronous === 2 ? 'FULL' : synchronous },
      machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model ?? 'unknown', node: process.version },
    };
  } finally {
    await rt.close();
    rmSync(home, { recursive: true, force: true });
  }
}

/** `agent-desk bench <what> --json`. */
export function registerBench(program: Command): void {
  const bench = program.command('bench').description('measure the runtime (prints JSON figures)');
  bench
    .command('step')
    .description('durable overhead per step over a playbook of no-op API calls')
    .option('--steps <n>', 'number of steps', '1000')
    .option('--json', 'print JSON (the default)')
    .action(async (opts: { steps: string; json?: boolean }) => {
      try {
        const figures = await benchStep(Number(opts.steps));
        if (opts.json) printJson(figures);
        else console.log(JSON.stringify(figures));
      } catch (error) {
        process.exitCode = reportError(error, Boolean(opts.json));
      }
    });
}
