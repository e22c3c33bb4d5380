import type { AgentRuntime } from '../agentRuntime.js';
import { buildCronTarget } from '../scheduler/cronTarget.js';
import { schedulerFor } from '../scheduler/index.js';
import type { CallContext, Handlers } from './handlers.js';

/** Playbooks with services and command checks run local processes: over RPC only an admin may schedule them. */
function requireAdminForServices(rt: AgentRuntime, target: Parameters<typeof buildCronTarget>[1], ctx: CallContext): void {
  buildCronTarget(rt, target, undefined, { kind: 'client', scopes: ctx.scopes, method: 'cron job' });
}

/** `cron.*`: cron jobs and their runs. */
export function schedulerHandlers(rt: AgentRuntime): Handlers {
  const scheduler = schedulerFor(rt);
  return {
    'cron.add': (p, ctx) => {
      requireAdminForServices(rt, p, ctx);
      return scheduler.add(p);
    },
    'cron.list': () => ({ jobs: scheduler.list() }),
    'cron.update': (p, ctx) => {
      if (p.patch.target) requireAdminForServices(rt, { ...scheduler.get(p.jobId), target: p.patch.target }, ctx);
      return scheduler.update(p.jobId, p.patch);
    },
    'cron.remove': (p) => ({ removed: scheduler.remove(p.jobId) }),
    'cron.run': (p) => scheduler.runNow(p.jobId),
    'cron.runs': (p) => ({ runs: scheduler.runs(p.jobId, p.limit) }),
  };
}
