import type { RuntimeCore } from '../core/runtimeCore.js';
import type { RuntimeModule } from '../core/runtimeModule.js';
import { SpendGuard } from '../engine/spendGuard.js';
import { callerOf } from '../gateway/caller.js';
import type { Handlers } from '../gateway/handlers.js';
import { BudgetService } from './budgetService.js';

/** The actor a decision records: a signed-in person, else the one local operator. */
const actorOf = (ctx: Parameters<typeof callerOf>[0]) => {
  const { subject, name } = callerOf(ctx);
  return { subject, name };
};

/** Budgets that pause and ask: `budgets.hold`/`raise`/`decline` and `spend.summary`. */
export function budgetsModule(
  core: Pick<RuntimeCore, 'store' | 'engine' | 'trace' | 'clock' | 'config'>,
): RuntimeModule & { service: BudgetService } {
  const service = new BudgetService(core, new SpendGuard(core.config.startup.budgets));
  const handlers: Handlers = {
    'budgets.hold': async (p) => {
      const hold = await service.hold(p.taskId);
      return hold ? { hold } : {};
    },
    'budgets.raise': async (p, ctx) => ({ hold: await service.raise(p.taskId, p.by, actorOf(ctx)) }),
    'budgets.decline': async (p, ctx) => ({ hold: await service.decline(p.taskId, p.reason, actorOf(ctx)) }),
    'spend.summary': (p) => service.summary(p.day),
  };
  return { name: 'budgets', service, handlers };
}
