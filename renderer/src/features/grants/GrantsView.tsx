import { useApp, useT } from '../useApp.js';
import { ActionError } from '../ActionError.js';
import { RemoteGate } from '../RemoteGate.js';
import { useClientAction, useRemote } from '../useRemote.js';

/** Remembered approvals ("this task", "always"): what the gate allows without asking, and revoking each. */
export function GrantsView() {
  const t = useT();
  const locale = useApp((s) => s.locale);
  const tasks = useApp((s) => s.tasks);
  const grants = useRemote((c) => c.call('grants.list', {}));
  const revoke = useClientAction();

  return (
    <section data-testid="grants-view">
      <h1>{t('grants.heading')}</h1>
      <p className="muted">{t('grants.hint')}</p>
      <ActionError error={revoke.error} />
      <RemoteGate remote={grants} isEmpty={(d) => d.grants.length === 0} empty={t('grants.empty')} testId="grants">
        {(data) => (
          <table className="table">
            <thead>
              <tr>
                <th>{t('grants.col.tool')}</th>
                <th>{t('grants.col.subject')}</th>
                <th>{t('grants.col.scope')}</th>
                <th>{t('grants.col.created')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {data.grants.map((g) => (
                <tr key={g.id} data-grant-id={g.id}>
                  <td>
                    <code>{g.tool}</code>
                  </td>
                  <td className="wrap" data-label={t('grants.col.subject')}>
                    <code>{g.subject}</code>
                  </td>
                  <td data-label={t('grants.col.scope')}>
                    {g.scope === 'always' ? (
                      t('remember.always')
                    ) : (
                      <a href={`#/task/${g.taskId ?? ''}`}>
                        {t('grants.inTask', { title: (g.taskId && tasks[g.taskId]?.title) || g.taskId || '' })}
                      </a>
                    )}
                  </td>
                  <td data-label={t('grants.col.created')}>{new Date(g.createdAt).toLocaleString(locale)}</td>
                  <td>
                    <button
                      type="button"
                      className="deny"
                      disabled={revoke.busy}
                      aria-label={t('grants.revokeOne', { tool: g.tool })}
                      onClick={() => void revoke.withClient((c) => c.call('grants.revoke', { id: g.id })).then(() => grants.reload())}
                    >
                      {t('grants.revoke')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </RemoteGate>
    </section>
  );
}
