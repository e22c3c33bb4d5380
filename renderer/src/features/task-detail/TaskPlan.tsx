import type { Task } from '../../../../electron/contract/index.js';
import { useT } from '../useApp.js';

/** Where the task's plan comes from (goal or playbook) and the options it runs with. */
export function TaskPlan({ task }: { task: Task }) {
  const t = useT();
  const plan = task.plan;
  const options: [string, string | undefined][] = [
    [t('new.model'), plan.kind === 'goal' ? plan.model : undefined],
    [t('new.agent'), task.agent],
    [t('new.sandbox'), task.sandbox && t(`sandboxMode.${task.sandbox}`)],
    [t('new.policyProfile'), task.policyProfile],
  ];
  return (
    <section className="plan" data-testid="task-plan" data-plan-kind={plan.kind}>
      <h2>{t('detail.plan')}</h2>
      {plan.kind === 'goal' ? (
        <>
          <p className="goal">{plan.goal}</p>
          {plan.acceptance && plan.acceptance.length > 0 && (
            <ul className="planned-checks" data-testid="planned-checks">
              {plan.acceptance.map((c, i) => (
                <li key={i}>
                  {t(`checkType.${c.type}`)}: <code>{c.name ?? ('path' in c ? c.path : 'url' in c ? c.url : c.type)}</code>
                </li>
              ))}
            </ul>
          )}
        </>
      ) : (
        <details>
          <summary>{t('new.mode.playbook')}</summary>
          <pre className="json">{plan.source}</pre>
        </details>
      )}
      <dl className="options">
        {options
          .filter(([, value]) => value)
          .map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
      </dl>
    </section>
  );
}
