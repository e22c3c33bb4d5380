import type { Command } from 'commander';
import type { Grant } from '../../contract/index.js';
import { withControlRuntime } from '../openRuntime.js';
import { printJson, row } from '../output.js';
import { callLocal } from './secrets.js';

/** `agent-desk grants list|revoke`: remembered approvals ("this task", "always") and forgetting them. */
export function registerGrants(program: Command): void {
  const grants = program.command('grants').description('remembered approvals: list them, revoke one so the next call asks again');
  grants
    .command('list')
    .option('--task <taskId>', "only this task's grants")
    .option('--json', 'print JSON')
    .action((opts: { task?: string; json?: boolean }) =>
      withControlRuntime(opts.json, async (rt) => {
        const result = (await callLocal(rt, 'grants.list', opts.task ? { taskId: opts.task } : {})) as { grants: Grant[] };
        if (opts.json) return printJson(result);
        if (result.grants.length === 0) return console.log('No remembered approvals.');
        for (const g of result.grants) {
          console.log(row([g.id, g.scope === 'always' ? 'always' : `task ${g.taskId ?? ''}`, g.tool, g.subject], [32, 36, 20, 0]));
        }
      }),
    );
  grants
    .command('revoke <id>')
    .option('--json', 'print JSON')
    .action((id: string, opts: { json?: boolean }) =>
      withControlRuntime(opts.json, async (rt) => {
        const grant = (await callLocal(rt, 'grants.revoke', { id })) as Grant;
        if (opts.json) printJson(grant);
        else console.log(`revoked ${grant.id} (${grant.tool} ${grant.subject}); the next such call asks again`);
      }),
    );
}
