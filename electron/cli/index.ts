import { Command, CommanderError } from 'commander';
import { registerApprovals } from './commands/approvals.js';
import { registerBench } from './commands/bench.js';
import { registerRun } from './commands/run.js';
import { registerServe } from './commands/serve.js';
import { registerTasks } from './commands/tasks.js';
import { packageVersion } from './openRuntime.js';
import { EXIT } from './output.js';

/** The `agent-desk` command; returns the process exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const program = new Command('agent-desk')
    .description('Agent Desk: a desktop agent runtime (headless gateway and CLI)')
    .version(packageVersion())
    .exitOverride()
    .showHelpAfterError();
  registerServe(program);
  registerRun(program);
  registerTasks(program);
  registerApprovals(program);
  registerBench(program);
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    throw error;
  }
  return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
}
