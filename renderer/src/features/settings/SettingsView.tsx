import type { Config } from '../../../../electron/contract/index.js';
import { RemoteGate } from '../RemoteGate.js';
import { useApp, useT } from '../useApp.js';
import { useRemote } from '../useRemote.js';
import { McpServersPanel } from './McpServersPanel.js';
import { PolicyPanel } from './PolicyPanel.js';
import { ProvidersPanel } from './ProvidersPanel.js';
import { SandboxPanel } from './SandboxPanel.js';

/** Settings: providers and keys, policy, sandbox (from the config file) and MCP servers. */
export function SettingsView() {
  const t = useT();
  const client = useApp((s) => s.client);
  const settings = useRemote((c) => c.call('settings.get', {}));
  // settings.set replaces whole sections and answers with the effective config: show that answer.
  const save = async (patch: Partial<Config>) => {
    if (!client) throw new Error('not connected');
    settings.replace(await client.call('settings.set', { config: patch }));
  };
  return (
    <section className="settings" data-testid="settings-view">
      <h1>{t('nav.settings')}</h1>
      <p className="hint" data-testid="settings-applies">
        {t('settings.appliesToNextTask')}
      </p>
      <RemoteGate remote={settings} isEmpty={() => false} empty="" testId="settings-config">
        {({ config }) => (
          // Each panel is keyed by its own section: its form restarts from what was saved, while
          // the other panels keep their unsaved edits and loaded lists.
          <div>
            <ProvidersPanel key={JSON.stringify(config.models)} config={config} save={save} />
            <PolicyPanel key={JSON.stringify(config.policy)} config={config} save={save} />
            <SandboxPanel key={JSON.stringify(config.sandbox)} config={config} save={save} />
          </div>
        )}
      </RemoteGate>
      <McpServersPanel />
    </section>
  );
}
