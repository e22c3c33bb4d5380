import os from 'node:os';
import type { Command } from 'commander';
import { RememberSchema } from '../../contract/index.js';
import { withControlRuntime } from '../openRuntime.js';
import { printJson, row } from '../output.js';
import { cliName } from '../cliName.js';
import { readSession } from '../session.js';
import { callAsSignedIn } from './login.js';

/** `agent-desk approvals list|approve|deny`: decisions land in the database any runner reads. */
export function registerApprovals(program: Command): void {
  const approvals = program.command('approvals').description('list and decide approvals');
  approvals
    .command('list')
    .option('--all', 'include decided approvals')
    .option('--task <taskId>', 'only this task')
    .option('--json', 'print JSON')
    .action((opts: { all?: boolean; task?: string; json?: boolean }) => {
      return withControlRuntime(opts.json, async (rt) => {
        const list = await rt.approvals.list({ ...(!opts.all && { status: 'pending' as const }), ...(opts.task && { taskId: opts.task }) });
        if (opts.json) return printJson({ approvals: list });
        for (const a of list) {
          console.log(row([a.id, a.status, a.tool, a.preview.summary], [30, 9, 14, 0]));
          if (a.preview.body) console.log(a.preview.body.replace(/^/gm, '    '));
        }
      });
    });
  for (const verb of ['approve', 'deny'] as const) {
    approvals
      .command(`${verb} <approvalId>`)
      .option('--remember <scope>', 'once | task | always', 'once')
      .option('--reason <text>', 'why (recorded in the trace)')
      .option('--json', 'print JSON')
      .action((id: string, opts: { remember: string; reason?: string; json?: boolean }) => {
        return withControlRuntime(opts.json, async (rt) => {
          const remember = RememberSchema.parse(opts.remember);
          // With sign-in on, a decision is a person's: it goes through the gateway as who signed in here.
          if (rt.config.startup.auth.oidc || readSession(rt.home)) {
            const params = { approvalId: id, decision: verb, remember, ...(opts.reason !== undefined && { reason: opts.reason }) };
            const decided = await callAsSignedIn(rt.home, 'approvals.decide', params);
            if (opts.json) return printJson(decided);
            return console.log(
              `${decided.id} ${decided.status}${decided.status === 'pending' ? ' (your agreement is recorded; more people must approve)' : ''}`,
            );
          }
          const by = `cli:${os.userInfo().username}`;
          const decided = await rt.approvals.decide(
            id,
            { decision: verb, remember, ...(opts.reason !== undefined && { reason: opts.reason }) },
            by,
          );
          if (opts.json) printJson(decided);
          // A `serve` or `worker` on this store hears the decision and goes on by itself; resuming by hand then only reports.
          else {
            const where = rt.store.dialect === 'postgres' ? 'on this database' : 'on this data folder';
            console.log(
              `${decided.id} ${decided.status}. A running serve or worker ${where} continues it; otherwise: ${cliName()} run --resume ${decided.taskId}`,
            );
          }
        });
      });
  }
}
