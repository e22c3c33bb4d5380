import { useState, type FormEvent } from 'react';
import type { Config, ProviderKind } from '../../../../electron/contract/index.js';
import { DataTable } from '../../components/DataTable.js';
import { StateView } from '../../components/StateView.js';
import { ActionError } from '../ActionError.js';
import { RemoteGate } from '../RemoteGate.js';
import { useT } from '../useApp.js';
import { useClientAction, useRemote } from '../useRemote.js';

const KINDS: readonly ProviderKind[] = ['openai-responses', 'openai-chat', 'anthropic'];

/**
 * Model providers (saved in the config) and their keys (saved as secrets). Keys are write-only:
 * the page sends a key once and afterwards sees only the secret's name.
 */
export function ProvidersPanel({ config, save }: { config: Config; save: (patch: Partial<Config>) => Promise<void> }) {
  const t = useT();
  const secrets = useRemote((c) => c.call('secrets.list', {}));
  const action = useClientAction();
  const [provider, setProvider] = useState({ name: '', kind: 'openai-responses' as ProviderKind, baseUrl: '', keyName: '', key: '' });
  const [defaultModel, setDefaultModel] = useState(config.models.defaultModel ?? '');
  const providers = Object.entries(config.models.providers);

  const addProvider = async (event: FormEvent) => {
    event.preventDefault();
    const name = provider.name.trim();
    const keyName = provider.keyName.trim() || `${name}-api-key`;
    const ok = await action.withClient(async (client) => {
      // The key first: a provider that names a missing secret would fail its first task.
      if (provider.key) await client.call('secrets.set', { name: keyName, value: provider.key });
      const entry = {
        kind: provider.kind,
        ...(provider.baseUrl.trim() ? { baseUrl: provider.baseUrl.trim() } : {}),
        ...(provider.key || provider.keyName.trim() ? { apiKeySecret: keyName } : {}),
      };
      await save({ models: { ...config.models, providers: { ...config.models.providers, [name]: entry } } });
    });
    if (ok) {
      setProvider({ name: '', kind: provider.kind, baseUrl: '', keyName: '', key: '' });
      await secrets.reload();
    }
  };
  const removeProvider = (name: string) =>
    action.run(() => save({ models: { ...config.models, providers: Object.fromEntries(providers.filter(([n]) => n !== name)) } }));
  const saveDefault = () => {
    const { defaultModel: _old, ...rest } = config.models;
    return action.run(() => save({ models: defaultModel.trim() ? { ...rest, defaultModel: defaultModel.trim() } : rest }));
  };
  const deleteSecret = async (name: string) => {
    if (await action.withClient((client) => client.call('secrets.delete', { name }))) await secrets.reload();
  };

  return (
    <section className="panel" data-testid="settings-providers">
      <h2>{t('providers.heading')}</h2>
      <ActionError error={action.error} />
      {providers.length === 0 ? (
        <StateView kind="empty" message={t('providers.empty')} />
      ) : (
        <DataTable
          headings={[t('providers.name'), t('providers.kind'), t('providers.baseUrl'), t('providers.keyName'), '']}
          testId="providers"
        >
          {providers.map(([name, p]) => (
            <tr key={name} data-provider={name}>
              <td>
                <code>{name}</code>
              </td>
              <td data-label={t('providers.kind')}>{p.kind}</td>
              <td data-label={t('providers.baseUrl')}>{p.baseUrl ?? '—'}</td>
              <td data-label={t('providers.keyName')}>{p.apiKeySecret ?? '—'}</td>
              <td>
                <button type="button" disabled={action.busy} onClick={() => void removeProvider(name)}>
                  {t('mcp.remove')}
                </button>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <div className="row">
        <label>
          {t('providers.defaultModel')}
          <input value={defaultModel} onChange={(e) => setDefaultModel(e.target.value)} placeholder="openai:gpt-4.1-mini" />
        </label>
        <button type="button" disabled={action.busy} onClick={() => void saveDefault()} data-testid="save-default-model">
          {t('settings.save')}
        </button>
      </div>
      <form className="new-task" onSubmit={(e) => void addProvider(e)} data-testid="provider-add">
        <h3>{t('providers.add')}</h3>
        <div className="row">
          <label>
            {t('providers.name')}
            <input value={provider.name} onChange={(e) => setProvider({ ...provider, name: e.target.value })} data-testid="provider-name" />
          </label>
          <label>
            {t('providers.kind')}
            <select value={provider.kind} onChange={(e) => setProvider({ ...provider, kind: e.target.value as ProviderKind })}>
              {KINDS.map((k) => (
                <option key={k} value={k}>
                  {k}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t('providers.baseUrl')}
            <input
              value={provider.baseUrl}
              onChange={(e) => setProvider({ ...provider, baseUrl: e.target.value })}
              placeholder="https://…/v1"
            />
          </label>
        </div>
        <div className="row">
          <label>
            {t('providers.keyName')}
            <input
              value={provider.keyName}
              onChange={(e) => setProvider({ ...provider, keyName: e.target.value })}
              placeholder={provider.name ? `${provider.name}-api-key` : ''}
            />
          </label>
          <label>
            {t('providers.key')}
            <input
              type="password"
              autoComplete="off"
              value={provider.key}
              onChange={(e) => setProvider({ ...provider, key: e.target.value })}
              disabled={secrets.errorCode === 'forbidden'}
              data-testid="provider-key"
            />
          </label>
        </div>
        <button type="submit" disabled={action.busy || !provider.name.trim()} data-testid="provider-submit">
          {t('providers.addButton')}
        </button>
      </form>
      <h3>{t('secrets.heading')}</h3>
      <p className="hint">{t('secrets.writeOnly')}</p>
      {secrets.errorCode === 'forbidden' ? (
        <StateView kind="empty" message={t('secrets.noScope')} />
      ) : (
        <RemoteGate remote={secrets} isEmpty={(d) => d.names.length === 0} empty={t('secrets.empty')} testId="secrets">
          {(d) => (
            <ul className="secrets">
              {d.names.map((name) => (
                <li key={name} data-secret={name}>
                  <code>{name}</code> <span className="hint">••••••••</span>{' '}
                  <button type="button" disabled={action.busy} onClick={() => void deleteSecret(name)}>
                    {t('secrets.delete')}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </RemoteGate>
      )}
    </section>
  );
}
