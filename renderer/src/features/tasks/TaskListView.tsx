import { useMemo } from 'react';
import { StateView } from '../../components/StateView.js';
import { StatusBadge } from '../../components/StatusBadge.js';
import { formatCost } from '../../i18n/index.js';
import { sortedTasks } from '../../stores/tasksSlice.js';
import { taskCounters } from '../../stores/taskCounters.js';
import { useApp, usePersonName, useT } from '../useApp.js';
import { SpendSummaryView } from './SpendSummaryView.js';

/** Every task with its status, progress and cost. */
export function TaskListView() {
  const t = useT();
  const personName = usePersonName();
  const tasks = useApp((s) => s.tasks);
  const status = useApp((s) => s.listStatus);
  const error = useApp((s) => s.listError);
  const reload = useApp((s) => s.loadTasks);
  const locale = useApp((s) => s.locale);
  const steps = useApp((s) => s.steps);
  const list = useMemo(() => sortedTasks(tasks), [tasks]);

  if (status === 'loading' && list.length === 0) return <StateView kind="loading" message={t('state.loading')} />;
  if (status === 'error')
    return (
      <StateView
        kind="error"
        message={t('state.error', { message: error ?? '' })}
        action={{ label: t('state.retry'), onClick: () => void reload() }}
      />
    );
  if (list.length === 0)
    return (
      <StateView kind="empty" message={t('tasks.empty')}>
        <a href="#/new">{t('nav.new')}</a>
      </StateView>
    );
  return (
    <>
      <SpendSummaryView />
      <table className="table" data-testid="task-list">
        <thead>
          <tr>
            <th>{t('tasks.col.title')}</th>
            <th>{t('tasks.col.status')}</th>
            <th>{t('tasks.col.progress')}</th>
            <th>{t('tasks.col.cost')}</th>
            <th>{t('tasks.col.owner')}</th>
            <th>{t('tasks.col.created')}</th>
          </tr>
        </thead>
        <tbody>
          {list.map((task) => {
            const counters = taskCounters(task, steps[task.id]);
            return (
              <tr key={task.id} data-task-id={task.id}>
                <td className="wrap">
                  <a href={`#/task/${task.id}`}>{task.title}</a>
                </td>
                <td data-label={t('tasks.col.status')}>
                  <StatusBadge status={task.state} label={t(`taskState.${task.state}`)} />
                </td>
                <td data-label={t('tasks.col.progress')}>{counters.steps}</td>
                <td data-label={t('tasks.col.cost')}>{formatCost(counters.costUsd)}</td>
                <td data-label={t('tasks.col.owner')}>{personName(task.owner)}</td>
                <td data-label={t('tasks.col.created')}>{new Date(task.createdAt).toLocaleString(locale)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </>
  );
}
