import type { AgentRuntime } from '../agentRuntime.js';
import { AgentDeskError } from '../errors.js';
import { hasScope } from '../policy/scopes.js';
import { assertChecksPermitted } from '../verify/checkAdmission.js';
import { buildCronTarget } from '../scheduler/cronTarget.js';
import { schedulerFor } from '../scheduler/index.js';
import type { CallContext, Handlers } from './handlers.js';

/** Playbooks with services and command checks run local processes: over RPC only an admin may schedule them. */
function requireAdminForServices(rt: AgentRuntime, target: Parameters<typeof buildCronTarget>[1], ctx: CallContext): void {
  if (hasScope(ctx.scopes, 'operator.admin')) return;
  const built = buildCronTarget(rt, target, undefined);
  if (built.startsServices) {
    throw new AgentDeskError('forbidden', 'playbooks with services start local processes and need operator.admin');
  }
  assertChecksPermitted(built.checks, ctx.scopes, 'cron job');
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
