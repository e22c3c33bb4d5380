import { useState } from 'react';
import type { CronJob } from '../../../../electron/contract/index.js';
import { StateView } from '../../components/StateView.js';
import { StatusBadge } from '../../components/StatusBadge.js';
import { RemoteGate } from '../RemoteGate.js';
import { useApp, useT } from '../useApp.js';
import { useAction, useRemote } from '../useRemote.js';
import { useRuntimeEvent } from '../useRuntimeEvent.js';
import { AddScheduleForm } from './AddScheduleForm.js';

/** Cron jobs: list, add, remove, run now, and the recent runs of the selected one. */
export function SchedulesView() {
  const t = useT();
  const client = useApp((s) => s.client);
  const locale = useApp((s) => s.locale);
  const jobs = useRemote((c) => c.call('cron.list', {}));
  const [selected, setSelected] = useState<string>();
  const runs = useRemote(
    (c) => (selected ? c.call('cron.runs', { jobId: selected, limit: 20 }) : Promise.resolve({ runs: [] })),
    [selected],
  );
  const action = useAction();
  const when = (iso: string | undefined) => (iso ? new Date(iso).toLocaleString(locale) : '—');
  // A fire (scheduled or manual) changes next/last run times and adds a run record.
  useRuntimeEvent('cron.fired', () => {
    void jobs.reload();
    void runs.reload();
  });

  const act = async (job: CronJob, method: 'cron.run' | 'cron.remove') => {
    if (!client) return;
    if (await action.run(() => client.call(method, { jobId: job.id }))) {
      if (method === 'cron.remove' && selected === job.id) setSelected(undefined);
      else setSelected(job.id);
      await jobs.reload();
      await runs.reload();
    }
  };

  return (
    <section data-testid="schedules-view">
      <h1>{t('cron.heading')}</h1>
      {action.error && <StateView kind="error" message={t('state.error', { message: action.error })} />}
      <RemoteGate remote={jobs} isEmpty={(d) => d.jobs.length === 0} empty={t('cron.empty')} testId="cron-jobs">
        {(d) => (
          <table className="table">
            <thead>
              <tr>
                <th>{t('cron.name')}</th>
                <th>{t('cron.schedule')}</th>
                <th>{t('cron.status')}</th>
                <th>{t('cron.next')}</th>
                <th>{t('cron.last')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {d.jobs.map((job) => (
                <tr key={job.id} data-job={job.name} className={selected === job.id ? 'current' : undefined}>
                  <td>
                    <button type="button" className="link" onClick={() => setSelected(job.id)}>
                      {job.name}
                    </button>
                    <div className="hint">{t(`new.mode.${job.target.kind}`)}</div>
                  </td>
                  <td>
                    <code>{job.schedule}</code> <span className="hint">{job.timezone}</span>
                  </td>
                  <td>
                    <StatusBadge status={job.status} label={t(`cron.state.${job.status}`)} />
                    {job.blockedReason && <div className="error-text">{job.blockedReason}</div>}
                  </td>
                  <td>{when(job.nextRunAt)}</td>
                  <td>{when(job.lastRunAt)}</td>
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
            </tbody>
          </table>
        )}
      </RemoteGate>
      {selected && (
        <>
          <h2>{t('cron.runs')}</h2>
          <RemoteGate remote={runs} isEmpty={(d) => d.runs.length === 0} empty={t('cron.noRuns')} testId="cron-runs">
            {(d) => (
              <table className="table">
                <thead>
                  <tr>
                    <th>{t('cron.firedAt')}</th>
                    <th>{t('cron.trigger')}</th>
                    <th>{t('cron.outcome')}</th>
                    <th>{t('tasks.col.title')}</th>
                  </tr>
                </thead>
                <tbody>
                  {d.runs.map((run) => (
                    <tr key={run.id} data-outcome={run.outcome}>
                      <td>{when(run.firedAt)}</td>
                      <td>{t(`cron.trigger.${run.trigger}`)}</td>
                      <td>
                        {t(`cron.outcome.${run.outcome}`)}
                        {run.reason && <div className="hint">{run.reason}</div>}
                      </td>
                      <td>
                        {run.taskId ? <a href={`#/task/${run.taskId}`}>{run.taskId}</a> : '—'}
                        {run.taskState && <> · {t(`taskState.${run.taskState}`)}</>}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </RemoteGate>
        </>
      )}
      <AddScheduleForm onAdded={() => void jobs.reload()} />
    </section>
  );
}
