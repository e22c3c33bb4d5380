import type { BudgetHold, Task } from '../../../../electron/contract/index.js';
import { translate } from '../../i18n/index.js';
import { ActionError } from '../ActionError.js';
import { useApp, useT } from '../useApp.js';
import { useClientAction, useRemote } from '../useRemote.js';

/** True when the task waits on a budget question (its reason is one of the budget asks). */
export const waitsForBudget = (task: Task): boolean =>
  task.state === 'waiting_user' && (task.stateReasonText?.code.startsWith('state.budgetAsk') ?? false);

/** A raise as the person reads it: `$1.00`, `500 tokens`… in their language. */
function raiseText(locale: Parameters<typeof translate>[0], hold: BudgetHold): string {
  const n = hold.metric === 'usd' ? hold.raiseBy.toFixed(2) : hold.metric === 'wallMs' ? Math.round(hold.raiseBy / 1000) : hold.raiseBy;
  return translate(locale, `amount.${hold.metric}`, { n });
}

/**
 * The budget a task stopped at: raise it by the suggested amount and the task goes on, or stop
 * the task. Only someone who may approve sees the buttons; the server checks it again.
 */
export function BudgetQuestion({ task }: { task: Task }) {
  const t = useT();
  const locale = useApp((s) => s.locale);
  const me = useApp((s) => s.me);
  const asked = useRemote((c) => c.call('budgets.hold', { taskId: task.id }), [task.id, task.updatedAt]);
  const action = useClientAction();
  const hold = asked.data?.hold;
  if (!hold || hold.decidedAt) return null;
  const mayRaise = !me || me.roles.includes('approver') || me.roles.includes('admin');
  return (
    <div className="budget-question" data-testid="budget-question">
      <ActionError error={action.error} />
      {mayRaise ? (
        <div className="actions">
          <button
            type="button"
            className="approve"
            disabled={action.busy}
            onClick={() => void action.withClient((c) => c.call('budgets.raise', { taskId: task.id }))}
            data-testid="budget-raise"
          >
            {hold.limit === 'loop' ? t('budget.goOn') : t('budget.raise', { amount: raiseText(locale, hold) })}
          </button>
          <button
            type="button"
            className="deny"
            disabled={action.busy}
            onClick={() => void action.withClient((c) => c.call('budgets.decline', { taskId: task.id }))}
            data-testid="budget-decline"
          >
            {t('budget.decline')}
          </button>
        </div>
      ) : (
        <p className="muted">{t('budget.askAnApprover')}</p>
      )}
    </div>
  );
}
