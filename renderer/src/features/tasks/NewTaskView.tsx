import { useState, type FormEvent } from 'react';
import { StateView } from '../../components/StateView.js';
import { useApp, useT } from '../useApp.js';
import { EXAMPLE_PLAYBOOKS } from './examples.js';

/** A new task from pasted playbook YAML or a bundled example. */
export function NewTaskView({ onCreated }: { onCreated: (taskId: string) => void }) {
  const t = useT();
  const createTask = useApp((s) => s.createTask);
  const [source, setSource] = useState('');
  const [title, setTitle] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      onCreated(await createTask(source, title.trim() || undefined));
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="new-task" onSubmit={(e) => void submit(e)}>
      <h1>{t('new.heading')}</h1>
      <label>
        {t('new.example')}
        <select data-testid="example-picker" value="" onChange={(e) => setSource(EXAMPLE_PLAYBOOKS[e.target.value] ?? source)}>
          <option value="">{t('new.pickExample')}</option>
          {Object.keys(EXAMPLE_PLAYBOOKS).map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('new.title')}
        <input value={title} onChange={(e) => setTitle(e.target.value)} maxLength={200} />
      </label>
      <label>
        {t('new.yaml')}
        <textarea
          data-testid="playbook-yaml"
          value={source}
          onChange={(e) => setSource(e.target.value)}
          rows={18}
          spellCheck={false}
          required
        />
      </label>
      {error && <StateView kind="error" message={t('state.error', { message: error })} />}
      <button type="submit" disabled={busy || !source.trim()} data-testid="create-task">
        {busy ? t('new.creating') : t('new.create')}
      </button>
    </form>
  );
}
