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
  // settings.set replaces whole sections and answers with the effective config: reload to show it.
  const save = async (patch: Partial<Config>) => {
    if (!client) throw new Error('not connected');
    await client.call('settings.set', { config: patch });
    await settings.reload();
  };
  return (
    <section className="settings" data-testid="settings-view">
      <h1>{t('nav.settings')}</h1>
      <RemoteGate remote={settings} isEmpty={() => false} empty="" testId="settings-config">
        {({ config }) => (
          // Keyed by the config so the panels' form state restarts from what was saved.
          <div key={JSON.stringify(config)}>
            <ProvidersPanel config={config} save={save} />
            <PolicyPanel config={config} save={save} />
            <SandboxPanel config={config} save={save} />
          </div>
        )}
      </RemoteGate>
      <McpServersPanel />
    </section>
  );
}
