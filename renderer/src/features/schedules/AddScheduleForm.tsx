import { useState, type FormEvent } from 'react';
import { ActionError } from '../ActionError.js';
import { useT } from '../useApp.js';
import { useClientAction } from '../useRemote.js';

/** Adds a cron job that starts a goal or an inline playbook on schedule. */
export function AddScheduleForm({ onAdded }: { onAdded: () => void }) {
  const t = useT();
  const [name, setName] = useState('');
  const [schedule, setSchedule] = useState('0 9 * * 1-5');
  const [timezone, setTimezone] = useState('UTC');
  const [kind, setKind] = useState<'goal' | 'playbook'>('playbook');
  const [text, setText] = useState('');
  const add = useClientAction();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const target = kind === 'goal' ? { kind, goal: text.trim() } : { kind, source: text };
    const ok = await add.withClient((client) =>
      client.call('cron.add', { name: name.trim(), schedule: schedule.trim(), timezone: timezone.trim(), target }),
    );
    if (ok) {
      setName('');
      setText('');
      onAdded();
    }
  };

  return (
    <form className="new-task" onSubmit={(e) => void submit(e)} data-testid="add-schedule">
      <h2>{t('cron.add')}</h2>
      <div className="row">
        <label>
          {t('cron.name')}
          <input value={name} onChange={(e) => setName(e.target.value)} maxLength={200} data-testid="cron-name" />
        </label>
        <label>
          {t('cron.schedule')}
          <input value={schedule} onChange={(e) => setSchedule(e.target.value)} maxLength={200} data-testid="cron-schedule" />
        </label>
        <label>
          {t('cron.timezone')}
          <input value={timezone} onChange={(e) => setTimezone(e.target.value)} maxLength={100} />
        </label>
        <label>
          {t('cron.target')}
          <select value={kind} onChange={(e) => setKind(e.target.value as 'goal' | 'playbook')} data-testid="cron-kind">
            <option value="playbook">{t('new.mode.playbook')}</option>
            <option value="goal">{t('new.mode.goal')}</option>
          </select>
        </label>
      </div>
      <label>
        {kind === 'goal' ? t('new.goal') : t('new.yaml')}
        <textarea value={text} onChange={(e) => setText(e.target.value)} rows={6} spellCheck={false} data-testid="cron-text" />
      </label>
      <ActionError error={add.error} />
      <button type="submit" disabled={add.busy || !name.trim() || !text.trim()} data-testid="cron-submit">
        {t('cron.addButton')}
      </button>
    </form>
  );
}
