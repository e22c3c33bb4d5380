import type { RuntimeCore } from '../core/runtimeCore.js';
import { buildCronTarget } from '../scheduler/cronTarget.js';
import type { Scheduler } from '../scheduler/scheduler.js';
import type { CallContext, Handlers } from './handlers.js';

type TargetCore = Parameters<typeof buildCronTarget>[0];

/** Playbooks with services and command checks run local processes: over RPC only an admin may schedule them. */
async function requireAdminForServices(core: TargetCore, target: Parameters<typeof buildCronTarget>[1], ctx: CallContext): Promise<void> {
  await buildCronTarget(core, target, undefined, { kind: 'client', scopes: ctx.scopes, method: 'cron job' });
}

/** `cron.*`: cron jobs and their runs. */
export function schedulerHandlers(core: Pick<RuntimeCore, 'home' | 'tasks'>, scheduler: Scheduler): Handlers {
  return {
    'cron.add': async (p, ctx) => {
      await requireAdminForServices(core, p, ctx);
      return scheduler.add(p);
    },
    'cron.list': async () => ({ jobs: await scheduler.list() }),
    'cron.update': async (p, ctx) => {
      if (p.patch.target) await requireAdminForServices(core, { ...(await scheduler.get(p.jobId)), target: p.patch.target }, ctx);
      return scheduler.update(p.jobId, p.patch);
    },
    'cron.remove': async (p) => ({ removed: await scheduler.remove(p.jobId) }),
    'cron.run': (p) => scheduler.runNow(p.jobId),
    'cron.runs': async (p) => ({ runs: await scheduler.runs(p.jobId, p.limit) }),
  };
}
