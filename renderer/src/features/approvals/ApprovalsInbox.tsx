import { useEffect, useMemo } from 'react';
import { StateView } from '../../components/StateView.js';
import { pendingApprovals } from '../../stores/approvalsSlice.js';
import { useApp, useServerText, useT } from '../useApp.js';
import { NotificationSwitch } from './NotificationSwitch.js';

/** Pending approvals; each opens the modal. With `openId` (a notification's link), that one opens at once. */
export function ApprovalsInbox({ openId }: { openId?: string }) {
  const t = useT();
  const serverText = useServerText();
  const approvals = useApp((s) => s.approvals);
  const tasks = useApp((s) => s.tasks);
  const status = useApp((s) => s.approvalsStatus);
  const reload = useApp((s) => s.loadApprovals);
  const open = useApp((s) => s.openApproval);
  // An approvals-only connection cannot open a task: its id is shown, not linked.
  const canReadTasks = useApp((s) => s.listErrorCode !== 'forbidden');
  const pending = useMemo(() => pendingApprovals(approvals), [approvals]);
  const linked = openId ? approvals[openId] : undefined;

  useEffect(() => {
    if (linked?.status === 'pending') open(linked.id);
    else if (openId && !linked) void reload(); // raised before this page loaded its list
  }, [openId, linked, open, reload]);

  if (status === 'loading' && pending.length === 0) return <StateView kind="loading" message={t('state.loading')} />;
  if (status === 'error')
    return (
      <StateView
        kind="error"
        message={t('state.error', { message: '' })}
        action={{ label: t('state.retry'), onClick: () => void reload() }}
      />
    );
  return (
    <section data-testid="approvals-inbox">
      <h1>{t('approvals.heading')}</h1>
      <NotificationSwitch />
      {pending.length === 0 ? (
        <StateView kind="empty" message={t('approvals.empty')} />
      ) : (
        <ul className="inbox">
          {pending.map((a) => (
            <li key={a.id}>
              <strong>{a.tool}</strong> — {serverText(a.preview.summaryText, a.preview.summary)}{' '}
              {canReadTasks ? <a href={`#/task/${a.taskId}`}>{tasks[a.taskId]?.title ?? a.taskId}</a> : <code>{a.taskId}</code>}{' '}
              <button type="button" onClick={() => open(a.id)}>
                {t('approvals.review')}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
