import type { SpendLimit } from '../../../../electron/contract/index.js';
import { formatCost } from '../../i18n/index.js';
import { useRemote } from '../useRemote.js';
import { useApp, usePersonName, useT } from '../useApp.js';

/** Dollars and tokens of every task, as one comparable value. */
function totalSpend(tasks: Record<string, { usage: { costUsd: number; tokensIn: number; tokensOut: number } }>): string {
  let usd = 0;
  let tokens = 0;
  for (const id in tasks) {
    const usage = tasks[id]!.usage;
    usd += usage.costUsd;
    tokens += usage.tokensIn + usage.tokensOut;
  }
  return `${usd.toFixed(6)}:${tokens}`;
}

/** What each person spent today and the team this month, against the limits (config `budgets`). */
export function SpendSummaryView() {
  const t = useT();
  const personName = usePersonName();
  // Read again when what the tasks spent changes (a number, not the task map: every task event
  // replaced the map, and hundreds of tasks on the move reloaded it in a loop React stops).
  const spent = useApp((s) => totalSpend(s.tasks));
  const summary = useRemote((c) => c.call('spend.summary', {}), [spent]);
  const data = summary.data;
  if (!data || (data.people.length === 0 && data.team.usd === 0)) return null;
  const amount = (usd: number, limit?: SpendLimit) =>
    limit?.usd !== undefined ? t('spend.ofLimit', { spent: formatCost(usd), limit: formatCost(limit.usd) }) : formatCost(usd);
  return (
    <section aria-label={t('spend.title')} data-testid="spend-summary">
      <h2>{t('spend.title')}</h2>
      <ul>
        {data.people.map((p) => (
          <li key={p.subject} data-subject={p.subject}>
            {t('spend.person', { name: personName(p), spent: amount(p.usd, p.limit), tokens: p.tokens })}
          </li>
        ))}
        <li data-subject="team">{t('spend.team', { spent: amount(data.team.usd, data.team.limit), tokens: data.team.tokens })}</li>
      </ul>
    </section>
  );
}
