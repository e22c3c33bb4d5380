import type { SpendLimit } from '../../../../electron/contract/index.js';
import { formatCost } from '../../i18n/index.js';
import { useRemote } from '../useRemote.js';
import { useApp, useT } from '../useApp.js';

/** What each person spent today and the team this month, against the limits (config `budgets`). */
export function SpendSummaryView() {
  const t = useT();
  const tasks = useApp((s) => s.tasks);
  const summary = useRemote((c) => c.call('spend.summary', {}), [tasks]);
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
            {t('spend.person', { name: p.name, spent: amount(p.usd, p.limit), tokens: p.tokens })}
          </li>
        ))}
        <li data-subject="team">{t('spend.team', { spent: amount(data.team.usd, data.team.limit), tokens: data.team.tokens })}</li>
      </ul>
    </section>
  );
}
