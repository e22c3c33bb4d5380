import type { Command } from 'commander';
import { withControlRuntime } from '../openRuntime.js';
import { printJson, row } from '../output.js';

/** `agent-desk agents list|create|delete`. */
export function registerAgents(program: Command): void {
  const agents = program.command('agents').description('agent definitions for sub-agents, cron jobs and the queue');
  agents
    .command('list')
    .option('--json', 'print JSON')
    .action((opts: { json?: boolean }) =>
      withControlRuntime(opts.json, async (rt) => {
        const list = await rt.agents.list();
        if (opts.json) return printJson({ agents: list });
        for (const a of list)
          console.log(row([a.name, a.model ?? '-', a.tools.join(','), String(a.maxConcurrent), a.description], [20, 24, 20, 3, 0]));
      }),
    );
  agents
    .command('create <name>')
    .option('--model <model>', 'model for goal tasks')
    .option('--tools <patterns>', 'comma-separated tool allowlist (default *)')
    .option('--workspace <dir>', 'fixed workspace')
    .option('--policy-profile <name>', 'policy profile from config.json policy.profiles (default: policy.rules)')
    .option('--max-concurrent <n>', 'background tasks at once')
    .option('--description <text>', 'what the agent is for')
    .option('--json', 'print JSON')
    .action(
      (
        name: string,
        opts: {
          model?: string;
          tools?: string;
          workspace?: string;
          policyProfile?: string;
          maxConcurrent?: string;
          description?: string;
          json?: boolean;
        },
      ) =>
        withControlRuntime(opts.json, async (rt) => {
          const agent = await rt.agents.create({
            name,
            ...(opts.model && { model: opts.model }),
            ...(opts.tools && { tools: opts.tools.split(',') }),
            ...(opts.workspace && { workspace: opts.workspace }),
            ...(opts.policyProfile && { policyProfile: opts.policyProfile }),
            ...(opts.maxConcurrent && { maxConcurrent: Number(opts.maxConcurrent) }),
            ...(opts.description && { description: opts.description }),
          });
          if (opts.json) return printJson(agent);
          console.log(`created agent ${agent.name}`);
        }),
    );
  agents
    .command('delete <name>')
    .option('--json', 'print JSON')
    .action((name: string, opts: { json?: boolean }) =>
      withControlRuntime(opts.json, async (rt) => {
        const deleted = await rt.agents.remove(name);
        if (opts.json) return printJson({ deleted });
        console.log(deleted ? `deleted ${name}` : `no agent ${name}`);
      }),
    );
}
