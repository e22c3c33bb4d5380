import { useState } from 'react';
import type { CronJob } from '../../../../electron/contract/index.js';
import { DataTable } from '../../components/DataTable.js';
import { ServerSentence } from '../../components/ServerSentence.js';
import { StatusBadge } from '../../components/StatusBadge.js';
import { ActionError } from '../ActionError.js';
import { RemoteGate } from '../RemoteGate.js';
import { useApp, useServerText, useT } from '../useApp.js';
import { useClientAction, useRemote } from '../useRemote.js';
import { useRuntimeEvent } from '../useRuntimeEvent.js';
import { AddScheduleForm } from './AddScheduleForm.js';

/** Cron jobs: list, add, remove, run now, and the recent runs of the selected one. */
export function SchedulesView() {
  const t = useT();
  const serverText = useServerText();
  const locale = useApp((s) => s.locale);
  const jobs = useRemote((c) => c.call('cron.list', {}));
  const [selected, setSelected] = useState<string>();
  const runs = useRemote(
    (c) => (selected ? c.call('cron.runs', { jobId: selected, limit: 20 }) : Promise.resolve({ runs: [] })),
    [selected],
  );
  const action = useClientAction();
  const when = (iso: string | undefined) => (iso ? new Date(iso).toLocaleString(locale) : '—');
  // A fire (scheduled or manual) changes next/last run times and adds a run record.
  useRuntimeEvent('cron.fired', () => {
    void jobs.reload();
    void runs.reload();
  });

  const act = async (job: CronJob, method: 'cron.run' | 'cron.remove') => {
    if (!(await action.withClient((client) => client.call(method, { jobId: job.id })))) return;
    // A run's new times and run record arrive with its `cron.fired` event; a removal has no event.
    if (method === 'cron.run') {
      setSelected(job.id);
      return;
    }
    if (selected === job.id) setSelected(undefined);
    await jobs.reload();
  };

  return (
    <section data-testid="schedules-view">
      <h1>{t('cron.heading')}</h1>
      <ActionError error={action.error} />
      <RemoteGate remote={jobs} isEmpty={(d) => d.jobs.length === 0} empty={t('cron.empty')} testId="cron-jobs">
        {(d) => (
          <DataTable headings={[t('cron.name'), t('cron.schedule'), t('cron.status'), t('cron.next'), t('cron.last'), '']}>
            {d.jobs.map((job) => (
              <tr key={job.id} data-job={job.name} className={selected === job.id ? 'current' : undefined}>
                <td>
                  <button type="button" className="link" onClick={() => setSelected(job.id)}>
                    {job.name}
                  </button>
                  <div className="hint">{t(`new.mode.${job.target.kind}`)}</div>
                </td>
                <td data-label={t('cron.schedule')}>
                  <code>{job.schedule}</code> <span className="hint">{job.timezone}</span>
                </td>
                <td data-label={t('cron.status')}>
                  <StatusBadge status={job.status} label={t(`cron.state.${job.status}`)} />
                  {job.blockedReason && (
                    <div className="error-text">
                      <ServerSentence sentence="" detail={job.blockedReason} separator="" plain={locale === 'en'} />
                    </div>
                  )}
                </td>
                <td data-label={t('cron.next')}>{when(job.nextRunAt)}</td>
                <td data-label={t('cron.last')}>{when(job.lastRunAt)}</td>
                <td className="row">
                  <button type="button" disabled={action.busy} onClick={() => void act(job, 'cron.run')} data-testid="cron-run">
                    {t('cron.runNow')}
                  </button>
                  <button type="button" disabled={action.busy} onClick={() => void act(job, 'cron.remove')} data-testid="cron-remove">
                    {t('cron.remove')}
                  </button>
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </RemoteGate>
      {selected && (
        <>
          <h2>{t('cron.runs')}</h2>
          <RemoteGate remote={runs} isEmpty={(d) => d.runs.length === 0} empty={t('cron.noRuns')} testId="cron-runs">
            {(d) => (
              <DataTable headings={[t('cron.firedAt'), t('cron.trigger'), t('cron.outcome'), t('tasks.col.title')]}>
                {d.runs.map((run) => (
                  <tr key={run.id} data-outcome={run.outcome}>
                    <td>{when(run.firedAt)}</td>
                    <td data-label={t('cron.trigger')}>{t(`cron.trigger.${run.trigger}`)}</td>
                    <td data-label={t('cron.outcome')}>
                      {t(`cron.outcome.${run.outcome}`)}
                      {run.reason && <div className="hint">{serverText(run.reasonText, run.reason)}</div>}
                    </td>
                    <td data-label={t('tasks.col.title')}>
                      {run.taskId ? <a href={`#/task/${run.taskId}`}>{run.taskId}</a> : '—'}
                      {run.taskState && <> · {t(`taskState.${run.taskState}`)}</>}
                    </td>
                  </tr>
                ))}
              </DataTable>
            )}
          </RemoteGate>
        </>
      )}
      <AddScheduleForm onAdded={() => void jobs.reload()} />
    </section>
  );
}
