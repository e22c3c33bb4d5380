import { Command, CommanderError } from 'commander';
import { registerApprovals } from './commands/approvals.js';
import { registerBench } from './commands/bench.js';
import { registerMcp } from './commands/mcp.js';
import { registerEval } from './commands/eval.js';
import { registerAgents } from './commands/agents.js';
import { registerConfig } from './commands/config.js';
import { registerCron } from './commands/cron.js';
import { registerDb } from './commands/db.js';
import { registerMemory } from './commands/memory.js';
import { registerQueue } from './commands/queue.js';
import { registerRun } from './commands/run.js';
import { registerSandbox } from './commands/sandbox.js';
import { registerSecrets } from './commands/secrets.js';
import { registerServe } from './commands/serve.js';
import { registerLogin } from './commands/login.js';
import { registerWorker } from './commands/worker.js';
import { registerSkills } from './commands/skills.js';
import { registerTasks } from './commands/tasks.js';
import { registerTokens } from './commands/tokens.js';
import { registerGrants } from './commands/grants.js';
import { packageVersion } from './openRuntime.js';
import { EXIT, reportError } from './output.js';

/** The `agent-desk` command; returns the process exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const program = new Command('agent-desk')
    .description('Agent Desk: a desktop agent runtime (headless gateway and CLI)')
    .version(packageVersion())
    .exitOverride()
    .showHelpAfterError();
  registerServe(program);
  registerLogin(program);
  registerWorker(program);
  registerRun(program);
  registerTasks(program);
  registerApprovals(program);
  registerBench(program);
  registerMcp(program);
  registerEval(program);
  registerCron(program);
  registerQueue(program);
  registerMemory(program);
  registerAgents(program);
  registerSandbox(program);
  registerSecrets(program);
  registerTokens(program);
  registerGrants(program);
  registerConfig(program);
  registerDb(program);
  registerSkills(program);
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    // Whatever a command did not handle (a broken database at open, say) is one line, never a stack trace.
    return reportError(error, argv.includes('--json'));
  }
  return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
}
