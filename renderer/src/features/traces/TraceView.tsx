import { useEffect, useState } from 'react';
import { JsonBlock } from '../../components/JsonBlock.js';
import { StateView } from '../../components/StateView.js';
import { useApp, useT } from '../useApp.js';

/** Saves the trace as a JSON file in the browser (no server round trip). */
function downloadJson(name: string, value: unknown): void {
  const url = URL.createObjectURL(new Blob([JSON.stringify(value, null, 2)], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** A task's trace with step-through replay (event by event) and JSON export. */
export function TraceView({ taskId }: { taskId: string }) {
  const t = useT();
  const trace = useApp((s) => s.traces[taskId]);
  const title = useApp((s) => s.tasks[taskId]?.title ?? taskId);
  const loadTrace = useApp((s) => s.loadTrace);
  const locale = useApp((s) => s.locale);
  // Replay cursor: how many events are shown; undefined shows them all.
  const [cursor, setCursor] = useState<number>();

  useEffect(() => {
    void loadTrace(taskId);
  }, [taskId, loadTrace]);

  if (!trace || (trace.status === 'loading' && trace.events.length === 0)) return <StateView kind="loading" message={t('state.loading')} />;
  if (trace.status === 'error')
    return (
      <StateView
        kind="error"
        message={t('state.error', { message: trace.error ?? '' })}
        action={{ label: t('state.retry'), onClick: () => void loadTrace(taskId) }}
      />
    );
  return (
    <section data-testid="trace-view">
      <a href={`#/task/${taskId}`}>{t('detail.back')}</a>
      <h1>{t('trace.heading', { title })}</h1>
      <button
        type="button"
        data-testid="export-trace"
        onClick={() => downloadJson(`trace-${taskId}.json`, { taskId, events: trace.events })}
      >
        {t('trace.export')}
      </button>
      {trace.events.length > 0 && (
        <div className="replay" data-testid="trace-replay">
          <button
            type="button"
            data-testid="trace-prev"
            disabled={cursor === 1}
            onClick={() => setCursor(Math.max(1, (cursor ?? trace.events.length) - 1))}
          >
            {t('trace.prev')}
          </button>
          <input
            type="range"
            aria-label={t('trace.position', { n: cursor ?? trace.events.length, total: trace.events.length })}
            min={1}
            max={trace.events.length}
            value={cursor ?? trace.events.length}
            onChange={(e) => setCursor(Number(e.target.value))}
          />
          <button
            type="button"
            data-testid="trace-next"
            disabled={cursor === undefined}
            onClick={() => setCursor(cursor === undefined || cursor + 1 >= trace.events.length ? undefined : cursor + 1)}
          >
            {t('trace.next')}
          </button>
          <span data-testid="trace-position">{t('trace.position', { n: cursor ?? trace.events.length, total: trace.events.length })}</span>
          {cursor !== undefined && (
            <button type="button" onClick={() => setCursor(undefined)}>
              {t('trace.all')}
            </button>
          )}
        </div>
      )}
      {trace.events.length === 0 ? (
        <StateView kind="empty" message={t('trace.empty')} />
      ) : (
        <table className="table trace">
          <thead>
            <tr>
              <th>{t('trace.col.seq')}</th>
              <th>{t('trace.col.time')}</th>
              <th>{t('trace.col.type')}</th>
              <th>{t('trace.col.data')}</th>
            </tr>
          </thead>
          <tbody>
            {trace.events.slice(0, cursor ?? trace.events.length).map((e, i, shown) => (
              <tr key={e.seq} data-event-type={e.type} className={cursor !== undefined && i === shown.length - 1 ? 'current' : undefined}>
                <td>{e.seq}</td>
                <td data-label={t('trace.col.time')}>{new Date(e.ts).toLocaleTimeString(locale)}</td>
                <td data-label={t('trace.col.type')}>
                  <code>{e.type}</code>
                </td>
                <td data-label={t('trace.col.data')}>
                  <JsonBlock value={e.data} compact />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
