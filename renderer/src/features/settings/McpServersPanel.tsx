import { useState } from 'react';
import type { McpServerProbe } from '../../../../electron/contract/index.js';
import { StateView } from '../../components/StateView.js';
import { StatusBadge } from '../../components/StatusBadge.js';
import { RemoteGate } from '../RemoteGate.js';
import { useApp, useT } from '../useApp.js';
import { useAction, useRemote } from '../useRemote.js';
import { AddMcpServerForm } from './AddMcpServerForm.js';

/** Configured MCP servers: state and tools, remove, test (a live probe), add. */
export function McpServersPanel() {
  const t = useT();
  const client = useApp((s) => s.client);
  const servers = useRemote((c) => c.call('mcp.servers.list', {}));
  const action = useAction();
  const [probe, setProbe] = useState<McpServerProbe>();

  const test = (name: string) =>
    action.run(async () => {
      if (client) setProbe(await client.call('mcp.servers.test', { name }));
    });
  const remove = async (name: string) => {
    if (client && (await action.run(() => client.call('mcp.servers.remove', { name })))) {
      if (probe?.name === name) setProbe(undefined);
      await servers.reload();
    }
  };

  return (
    <section className="panel" data-testid="settings-mcp">
      <h2>{t('mcp.heading')}</h2>
      {action.error && <StateView kind="error" message={t('state.error', { message: action.error })} />}
      <RemoteGate remote={servers} isEmpty={(d) => d.servers.length === 0} empty={t('mcp.empty')} testId="mcp-servers">
        {(d) => (
          <table className="table">
            <thead>
              <tr>
                <th>{t('mcp.name')}</th>
                <th>{t('mcp.transport')}</th>
                <th>{t('mcp.state')}</th>
                <th>{t('mcp.tools')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {d.servers.map((server) => (
                <tr key={server.name} data-server={server.name} data-state={server.state}>
                  <td>
                    <code>{server.name}</code>
                  </td>
                  <td>{server.transport}</td>
                  <td>
                    <StatusBadge status={server.state} label={t(`mcp.state.${server.state}`)} />
                    {server.reason && <div className="error-text">{server.reason}</div>}
                  </td>
                  <td>{server.tools.length}</td>
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
            </tbody>
          </table>
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
