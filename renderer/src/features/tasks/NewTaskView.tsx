import { useState, type FormEvent } from 'react';
import type { MethodParams, SandboxMode } from '../../../../electron/contract/index.js';
import { StateView } from '../../components/StateView.js';
import { useApp, useT } from '../useApp.js';
import { useRemote } from '../useRemote.js';
import { ChecksEditor } from './ChecksEditor.js';
import { DraftError, toCheck, type CheckDraft } from './checkDrafts.js';
import { EXAMPLE_PLAYBOOKS } from './examples.js';

type Mode = 'playbook' | 'goal';
const SANDBOX_MODES: readonly SandboxMode[] = ['auto', 'none', 'desktop'];

/** Options both kinds of task take: agent, sandbox mode, policy profile. */
interface CommonOptions {
  agent: string;
  sandbox: SandboxMode | '';
  policyProfile: string;
}

function commonParams(o: CommonOptions) {
  return {
    ...(o.agent ? { agent: o.agent } : {}),
    ...(o.sandbox ? { sandbox: o.sandbox } : {}),
    ...(o.policyProfile.trim() ? { policyProfile: o.policyProfile.trim() } : {}),
  };
}

/** A new task: a goal for a model planner (with reviewed acceptance checks) or a playbook. */
export function NewTaskView({ onCreated }: { onCreated: (taskId: string) => void }) {
  const t = useT();
  const createTaskWith = useApp((s) => s.createTaskWith);
  const agents = useRemote((c) => c.call('agents.list', {}));
  const [mode, setMode] = useState<Mode>('goal');
  const [writing, setWriting] = useState(false);
  const [source, setSource] = useState('');
  const [goal, setGoal] = useState('');
  const [model, setModel] = useState('');
  const [title, setTitle] = useState('');
  const [drafts, setDrafts] = useState<CheckDraft[]>([]);
  const [common, setCommon] = useState<CommonOptions>({ agent: '', sandbox: '', policyProfile: '' });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  const params = (): MethodParams<'tasks.create'> => {
    const base = { ...(title.trim() ? { title: title.trim() } : {}), ...commonParams(common) };
    if (mode === 'playbook') return { ...base, playbook: { source } };
    return {
      ...base,
      goal: goal.trim(),
      ...(model.trim() ? { model: model.trim() } : {}),
      ...(drafts.length ? { checks: drafts.map(toCheck) } : {}),
    };
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      onCreated(await createTaskWith(params()));
    } catch (e) {
      setError(
        e instanceof DraftError
          ? t('new.checkInvalid', { field: t(`checkField.${e.field}`), reason: t(`new.fieldError.${e.reason}`) })
          : (e as Error).message,
      );
    } finally {
      setBusy(false);
    }
  };
  const ready = mode === 'playbook' ? source.trim() !== '' : goal.trim() !== '';
  const loadFile = async (file: File | undefined) => {
    if (!file) return;
    setSource(await file.text());
    if (!title.trim()) setTitle(file.name.replace(/\.ya?ml$/i, ''));
  };

  return (
    <form className="new-task" onSubmit={(e) => void submit(e)} data-testid="new-task">
      <h1>{t('new.heading')}</h1>
      <div className="row" role="radiogroup" aria-label={t('new.mode')}>
        {(['goal', 'playbook'] as const).map((m) => (
          <label key={m} className="inline">
            <input type="radio" name="mode" checked={mode === m} onChange={() => setMode(m)} data-testid={`mode-${m}`} />
            {t(`new.mode.${m}`)}
          </label>
        ))}
      </div>
      <label>
        {t('new.title')}
        <input value={title} onChange={(e) => setTitle(e.target.value)} maxLength={200} />
      </label>
      {mode === 'playbook' ? (
        <>
          <div className="row">
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
              {t('new.file')}
              <input
                type="file"
                accept=".yaml,.yml,text/yaml"
                data-testid="playbook-file"
                onChange={(e) => void loadFile(e.target.files?.[0])}
              />
            </label>
          </div>
          {source || writing ? (
            <label>
              {t('new.yaml')}
              <textarea
                data-testid="playbook-yaml"
                value={source}
                onChange={(e) => setSource(e.target.value)}
                rows={14}
                spellCheck={false}
              />
            </label>
          ) : (
            <button type="button" className="link" onClick={() => setWriting(true)} data-testid="write-yaml">
              {t('new.writeYaml')}
            </button>
          )}
        </>
      ) : (
        <>
          <label className="composer">
            {t('new.goal')}
            <textarea
              data-testid="goal"
              value={goal}
              onChange={(e) => setGoal(e.target.value)}
              onKeyDown={(e) => {
                // Ctrl/Cmd+Enter starts the task; Enter alone breaks the line (and picks IME candidates).
                if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && goal.trim()) {
                  e.preventDefault();
                  e.currentTarget.form?.requestSubmit();
                }
              }}
              placeholder={t('new.goalPlaceholder')}
              rows={4}
              maxLength={20_000}
            />
          </label>
          <label>
            {t('new.model')}
            <input
              data-testid="model"
              value={model}
              onChange={(e) => setModel(e.target.value)}
              placeholder="openai:gpt-4.1-mini"
              maxLength={200}
            />
          </label>
          <ChecksEditor drafts={drafts} onChange={setDrafts} />
        </>
      )}
      <div className="row">
        <label>
          {t('new.agent')}
          <select data-testid="agent" value={common.agent} onChange={(e) => setCommon({ ...common, agent: e.target.value })}>
            <option value="">{agents.status === 'error' ? t('new.agentsUnavailable') : t('new.noAgent')}</option>
            {agents.data?.agents.map((a) => (
              <option key={a.name} value={a.name}>
                {a.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('new.sandbox')}
          <select
            data-testid="sandbox"
            value={common.sandbox}
            onChange={(e) => setCommon({ ...common, sandbox: e.target.value as SandboxMode | '' })}
          >
            <option value="">{t('new.default')}</option>
            {SANDBOX_MODES.map((m) => (
              <option key={m} value={m}>
                {t(`sandboxMode.${m}`)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('new.policyProfile')}
          <input
            data-testid="policy-profile"
            value={common.policyProfile}
            onChange={(e) => setCommon({ ...common, policyProfile: e.target.value })}
            placeholder={t('new.default')}
            maxLength={100}
          />
        </label>
      </div>
      {error && <StateView kind="error" message={t('state.error', { message: error })} />}
      <button type="submit" disabled={busy || !ready} data-testid="create-task">
        {busy ? t('new.creating') : t('new.create')}
      </button>
    </form>
  );
}
