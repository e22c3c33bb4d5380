import { useState } from 'react';
import type { McpServerProbe } from '../../../../electron/contract/index.js';
import { DataTable } from '../../components/DataTable.js';
import { ServerSentence } from '../../components/ServerSentence.js';
import { StatusBadge } from '../../components/StatusBadge.js';
import { ActionError } from '../ActionError.js';
import { RemoteGate } from '../RemoteGate.js';
import { useApp, useT } from '../useApp.js';
import { useClientAction, useRemote } from '../useRemote.js';
import { AddMcpServerForm } from './AddMcpServerForm.js';

/** Configured MCP servers: state and tools, remove, test (a live probe), add. */
export function McpServersPanel() {
  const t = useT();
  const locale = useApp((s) => s.locale);
  const servers = useRemote((c) => c.call('mcp.servers.list', {}));
  const action = useClientAction();
  const [probe, setProbe] = useState<McpServerProbe>();

  const test = (name: string) => action.withClient(async (client) => setProbe(await client.call('mcp.servers.test', { name })));
  const remove = async (name: string) => {
    if (await action.withClient((client) => client.call('mcp.servers.remove', { name }))) {
      if (probe?.name === name) setProbe(undefined);
      await servers.reload();
    }
  };

  return (
    <section className="panel" data-testid="settings-mcp">
      <h2>{t('mcp.heading')}</h2>
      <ActionError error={action.error} />
      <RemoteGate remote={servers} isEmpty={(d) => d.servers.length === 0} empty={t('mcp.empty')} testId="mcp-servers">
        {(d) => (
          <DataTable headings={[t('mcp.name'), t('mcp.transport'), t('mcp.state'), t('mcp.tools'), '']}>
            {d.servers.map((server) => (
              <tr key={server.name} data-server={server.name} data-state={server.state}>
                <td>
                  <code>{server.name}</code>
                </td>
                <td data-label={t('mcp.transport')}>{server.transport}</td>
                <td data-label={t('mcp.state')}>
                  <StatusBadge status={server.state} label={t(`mcp.state.${server.state}`)} />
                  {server.reason && (
                    <div className="error-text">
                      <ServerSentence sentence="" detail={server.reason} separator="" plain={locale === 'en'} />
                    </div>
                  )}
                </td>
                <td data-label={t('mcp.tools')}>{server.tools.length}</td>
                <td className="row">
                  <button type="button" disabled={action.busy} onClick={() => void test(server.name)} data-testid="mcp-test">
                    {t('mcp.test')}
                  </button>
                  <button type="button" disabled={action.busy} onClick={() => void remove(server.name)} data-testid="mcp-remove">
                    {t('mcp.remove')}
                  </button>
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </RemoteGate>
      {probe && (
        <div className="probe" data-testid="mcp-probe">
          <h3>{t('mcp.probe', { name: probe.name })}</h3>
          <p>
            {probe.serverVersion ? `${probe.serverVersion.name} ${probe.serverVersion.version} · ` : ''}
            {t('mcp.probeCounts', { tools: probe.tools.length, resources: probe.resources.length, prompts: probe.prompts.length })}
          </p>
          <ul>
            {probe.tools.map((tool) => (
              <li key={tool.name}>
                <code>{tool.name}</code> <span className={`risk risk-${tool.risk}`}>{tool.risk}</span> {tool.description}
              </li>
            ))}
          </ul>
        </div>
      )}
      <AddMcpServerForm onAdded={() => void servers.reload()} />
    </section>
  );
}
