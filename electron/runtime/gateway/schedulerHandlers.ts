import type { RuntimeCore } from '../core/runtimeCore.js';
import { buildCronTarget } from '../scheduler/cronTarget.js';
import type { Scheduler } from '../scheduler/scheduler.js';
import type { CallContext, Handlers } from './handlers.js';

type TargetCore = Parameters<typeof buildCronTarget>[0];

/** Playbooks with services and command checks run local processes: over RPC only an admin may schedule them. */
function requireAdminForServices(core: TargetCore, target: Parameters<typeof buildCronTarget>[1], ctx: CallContext): void {
  buildCronTarget(core, target, undefined, { kind: 'client', scopes: ctx.scopes, method: 'cron job' });
}

/** `cron.*`: cron jobs and their runs. */
export function schedulerHandlers(core: Pick<RuntimeCore, 'home' | 'tasks'>, scheduler: Scheduler): Handlers {
  return {
    'cron.add': (p, ctx) => {
      requireAdminForServices(core, p, ctx);
      return scheduler.add(p);
    },
    'cron.list': () => ({ jobs: scheduler.list() }),
    'cron.update': (p, ctx) => {
      if (p.patch.target) requireAdminForServices(core, { ...scheduler.get(p.jobId), target: p.patch.target }, ctx);
      return scheduler.update(p.jobId, p.patch);
    },
    'cron.remove': (p) => ({ removed: scheduler.remove(p.jobId) }),
    'cron.run': (p) => scheduler.runNow(p.jobId),
    'cron.runs': (p) => ({ runs: scheduler.runs(p.jobId, p.limit) }),
  };
}
