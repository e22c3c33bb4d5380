import type { Command } from 'commander';
import { benchContext } from '../../runtime/context/contextBench.js';
import { printJson, reportError } from '../output.js';

/** `agent-desk bench context`: prompt tokens of a scripted long task, against resending the whole history. */
export function registerBenchContext(bench: Command): void {
  bench
    .command('context')
    .description('prompt tokens of a scripted task with the context builder vs. resending the whole history')
    .option('--steps <n>', 'number of steps', '200')
    .option('--json', 'print JSON (the default)')
    .action((opts: { steps: string; json?: boolean }) => {
      try {
        const figures = benchContext(Number(opts.steps));
        if (opts.json) printJson(figures);
        else console.log(JSON.stringify(figures));
      } catch (error) {
        process.exitCode = reportError(error, Boolean(opts.json));
      }
    });
}
